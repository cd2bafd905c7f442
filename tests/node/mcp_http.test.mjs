// The MCP TypeScript SDK's clients (1.x, and 2.x in its three negotiation modes) over Streamable
// HTTP (`StreamableHTTPClientTransport`) against the SDK's fixture server over HTTP
// (conformance/sdk_http_server.py) and against `serve mcp --http`: what a user's code sees must
// be the same. (mcp.test.mjs does the same over stdio; the clients and what they look at are in
// mcp_clients.mjs.)
import { test } from 'node:test';

import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as Http2 } from '@modelcontextprotocol/client';

import { assertSameSeen, clients, observe } from './mcp_clients.mjs';
import { MCP_HTTP_SERVERS, startAgent } from './peers.mjs';

for (const [clientName, kind] of Object.entries(clients({ '1.x': Http1, '2.x': Http2 }))) {
  test(`${clientName} over Streamable HTTP: the SDK's fixture server and serve mcp --http look the same`, async () => {
    const seen = [];
    for (const args of Object.values(MCP_HTTP_SERVERS)) {
      const server = await startAgent(args);  // (a fresh server per client: its sessions are its own)
      try {
        seen.push(await observe(kind, new kind.Transport(new URL(server.url))));
      } finally {
        await server.stop();
      }
    }
    assertSameSeen(...seen);
  });
}
