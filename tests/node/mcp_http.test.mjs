// The MCP TypeScript SDK's clients (1.x, and 2.x in its three negotiation modes) over Streamable
// HTTP (`StreamableHTTPClientTransport`) against the SDK's fixture server over HTTP
// (conformance/sdk_http_server.py) and against `serve mcp --http`: what a user's code sees must
// be the same. (mcp.test.mjs does the same over stdio.)
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from '@modelcontextprotocol/client';
import path from 'node:path';

import { ROOT, settled, startAgent } from './peers.mjs';

// Each prints its endpoint's URL on its first line (startAgent reads it).
const MCP_HTTP_SERVERS = {
  "the SDK's fixture server over HTTP": [path.join(ROOT, 'conformance', 'sdk_http_server.py')],
  'serve mcp --http': ['-m', 'agent_loop_sim', 'serve', 'mcp', '--http', '--port', '0'],
};

const CAPABILITIES = { elicitation: {}, sampling: {} };
const ANSWERS = {
  'elicitation/create': { action: 'accept', content: { confirm: true } },
  'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'A short summary.' }, model: 'node-test' },
};
// Progress may reach the TypeScript client in one chunk with the result, and then it drops it
// (see mcp.test.mjs): `count` is called until one call had every callback, and the most compared.
const COUNT_CALLS = 10;
const COUNT_TO = 3;

const CLIENTS = {
  '@modelcontextprotocol/sdk 1.x': {
    make: () => new Client1({ name: 'node-test', version: '1.0.0' }, { capabilities: CAPABILITIES }),
    transport: (url) => new Http1(new URL(url)),
    handle: (client, handler) => {
      client.setRequestHandler(ElicitRequestSchema, (request) => handler('elicitation/create', request));
      client.setRequestHandler(CreateMessageRequestSchema, (request) => handler('sampling/createMessage', request));
    },
    callTool: (client, params, options) => client.callTool(params, undefined, options),
  },
  ...Object.fromEntries([['legacy', 'legacy'], ['auto', 'auto'], ['2026-07-28', { pin: '2026-07-28' }]].map(([name, mode]) => [
    `@modelcontextprotocol/client 2.x, ${name}`,
    {
      make: () => new Client2({ name: 'node-test', version: '1.0.0' }, { capabilities: CAPABILITIES, versionNegotiation: { mode } }),
      transport: (url) => new Http2(new URL(url)),
      handle: (client, handler) => {
        client.setRequestHandler('elicitation/create', (request) => handler('elicitation/create', request));
        client.setRequestHandler('sampling/createMessage', (request) => handler('sampling/createMessage', request));
      },
      callTool: (client, params, options) => client.callTool(params, options),
    },
  ])),
};

function withoutMeta(params) {
  const { _meta, ...rest } = params ?? {};
  return rest;
}

async function observe(kind, url) {
  const client = kind.make();
  const asked = [];
  kind.handle(client, (method, request) => {
    asked.push({ method, params: withoutMeta(request.params) });
    return ANSWERS[method];
  });
  await client.connect(kind.transport(url));
  const seen = { asked };
  try {
    seen.server = client.getServerVersion();
    seen.capabilities = client.getServerCapabilities();
    seen.protocolVersion = client.getNegotiatedProtocolVersion?.();
    seen.tools = await settled(client.listTools());
    seen.add = await settled(client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }));
    seen.addWrongType = await settled(client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } }));
    seen.fail = await settled(client.callTool({ name: 'fail', arguments: { reason: 'on purpose' } }));
    seen.unknownTool = await settled(client.callTool({ name: 'no_such_tool', arguments: {} }));
    seen.progress = [];
    for (let call = 0; call < COUNT_CALLS && !seen.progress.some((c) => c.progress.length === COUNT_TO); call++) {
      const progress = [];
      const result = await settled(kind.callTool(client, { name: 'count', arguments: { n: COUNT_TO } },
        { onprogress: (p) => progress.push(p) }));
      seen.progress.push({ result, progress });
    }
    seen.deleteFile = await settled(client.callTool({ name: 'delete_file', arguments: { path: 'notes.txt' } }));
    seen.summarise = await settled(client.callTool({ name: 'summarise', arguments: { text: 'a long text' } }));
    seen.resources = await settled(client.listResources());
    seen.readme = await settled(client.readResource({ uri: 'docs://readme' }));
    seen.missingResource = await settled(client.readResource({ uri: 'docs://missing' }));
    seen.prompts = await settled(client.listPrompts());
    seen.review = await settled(client.getPrompt({ name: 'review', arguments: { code: 'x = 1' } }));
    seen.missingPrompt = await settled(client.getPrompt({ name: 'no_such_prompt', arguments: {} }));
    seen.ping = await settled(client.ping());
  } finally {
    await client.close();
  }
  return seen;
}

for (const [clientName, kind] of Object.entries(CLIENTS)) {
  test(`${clientName} over Streamable HTTP: the SDK's fixture server and serve mcp --http look the same`, async () => {
    const seen = {};
    for (const [serverName, args] of Object.entries(MCP_HTTP_SERVERS)) {
      const server = await startAgent(args);  // (a fresh server per client: its sessions are its own)
      try {
        seen[serverName] = await observe(kind, server.url);
      } finally {
        await server.stop();
      }
    }
    const [sdk, ours] = Object.values(seen);
    const most = (s) => s.progress.reduce((a, b) => (b.progress.length > a.progress.length ? b : a));
    assert.ok(most(sdk).progress.length >= 1, "the SDK's server: no progress callback");
    assert.deepEqual(most(ours), most(sdk));
    for (const s of [sdk, ours]) delete s.progress;
    assert.deepEqual(ours, sdk);
  });
}
