// The MCP TypeScript SDK's clients (1.x, and 2.x in its three negotiation modes) against the
// SDK's fixture server and against `serve mcp`, over stdio: what a user's code sees must be the
// same. (mcp_http.test.mjs does the same over Streamable HTTP; the clients and what they look at
// are in mcp_clients.mjs.)
import { test } from 'node:test';

import { StdioClientTransport as Stdio1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';

import { assertSameSeen, clients, observe } from './mcp_clients.mjs';
import { MCP_SERVERS } from './peers.mjs';

for (const [clientName, kind] of Object.entries(clients({ '1.x': Stdio1, '2.x': Stdio2 }))) {
  test(`${clientName}: the SDK's fixture server and serve mcp look the same`, async () => {
    const seen = [];
    for (const params of Object.values(MCP_SERVERS)) {
      seen.push(await observe(kind, new kind.Transport({ ...params, stderr: 'ignore' })));
    }
    assertSameSeen(...seen);
  });
}
