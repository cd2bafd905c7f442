// The MCP TypeScript SDK's clients (1.x, and 2.x in its three negotiation modes) against the
// SDK's fixture server and against `serve mcp`: what a user's code sees must be the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Stdio1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';

import { MCP_SERVERS, settled } from './peers.mjs';

// The TypeScript client drops progress that reaches it in one chunk with the result (it hands
// notifications on a microtask, and the result removes the progress handler at once). Against
// the SDK's own server that happens often: 0 to 3 of 3 callbacks per call, by timing, fewest on
// a cold client. So `count` is called until one call has had all of its callbacks (at most this
// many calls), and the most any call had is compared.
const COUNT_CALLS = 10;
const COUNT_TO = 3;

export const CLIENTS = {
  '@modelcontextprotocol/sdk 1.x': {
    connect: (params) => connect(new Client1({ name: 'node-test', version: '1.0.0' }, { capabilities: CAPABILITIES }),
      new Stdio1(params), (client, handler) => {
        client.setRequestHandler(ElicitRequestSchema, (request) => handler('elicitation/create', request));
        client.setRequestHandler(CreateMessageRequestSchema, (request) => handler('sampling/createMessage', request));
      }),
    // (params, resultSchema, options)
    callTool: (client, params, options) => client.callTool(params, undefined, options),
  },
  ...Object.fromEntries([['legacy', 'legacy'], ['auto', 'auto'], ['2026-07-28', { pin: '2026-07-28' }]].map(([name, mode]) => [
    `@modelcontextprotocol/client 2.x, ${name}`,
    {
      connect: (params) => connect(new Client2({ name: 'node-test', version: '1.0.0' },
        { capabilities: CAPABILITIES, versionNegotiation: { mode } }), new Stdio2(params), (client, handler) => {
        client.setRequestHandler('elicitation/create', (request) => handler('elicitation/create', request));
        client.setRequestHandler('sampling/createMessage', (request) => handler('sampling/createMessage', request));
      }),
      callTool: (client, params, options) => client.callTool(params, options),
    },
  ])),
};

const CAPABILITIES = { elicitation: {}, sampling: {} };

// The client's answers to what the server asks of it (the user confirms; the model summarises).
const ANSWERS = {
  'elicitation/create': { action: 'accept', content: { confirm: true } },
  'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'A short summary.' }, model: 'node-test' },
};

async function connect(client, transport, handle) {
  const asked = [];
  handle(client, (method, request) => {
    asked.push({ method, params: withoutMeta(request.params) });
    return ANSWERS[method];
  });
  await client.connect(transport);
  return { client, asked };
}

// `_meta` of a request the server sends carries its era's envelope; what is asked is the rest.
function withoutMeta(params) {
  const { _meta, ...rest } = params ?? {};
  return rest;
}

// Everything a user's code of this client sees of one server, in one connection.
export async function observe(clientKind, serverParams) {
  const { client, asked } = await clientKind.connect({ ...serverParams, stderr: 'ignore' });
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
      const result = await settled(clientKind.callTool(client, { name: 'count', arguments: { n: COUNT_TO } },
        { onprogress: (p) => progress.push(p) }));
      seen.progress.push({ result, progress });
    }
    seen.deleteFile = await settled(client.callTool({ name: 'delete_file', arguments: { path: 'notes.txt' } }));
    seen.summarise = await settled(client.callTool({ name: 'summarise', arguments: { text: 'a long text' } }));
    seen.readDoc = await settled(client.callTool({ name: 'read_doc', arguments: { uri: 'docs://readme' } }));
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

for (const [clientName, clientKind] of Object.entries(CLIENTS)) {
  test(`${clientName}: the SDK's fixture server and serve mcp look the same`, async () => {
    const seen = {};
    for (const [serverName, params] of Object.entries(MCP_SERVERS)) seen[serverName] = await observe(clientKind, params);
    const [sdk, ours] = Object.values(seen);
    const counts = (s) => s.progress.map((call) => call.progress.length);
    const most = (s) => s.progress.reduce((a, b) => (b.progress.length > a.progress.length ? b : a));
    // Progress callbacks fired, as many on each server (the most in one call), and at least one.
    assert.ok(most(sdk).progress.length >= 1, `the SDK's server: progress callbacks per call ${counts(sdk)}`);
    assert.equal(most(ours).progress.length, most(sdk).progress.length,
      `progress callbacks per call: serve mcp ${counts(ours)}, the SDK's server ${counts(sdk)}`);
    assert.deepEqual(most(ours), most(sdk));
    for (const s of [sdk, ours]) delete s.progress;
    assert.deepEqual(ours, sdk);
    assert.deepEqual(sdk.asked.map((a) => a.method), ['elicitation/create', 'sampling/createMessage']);
  });
}
