// The MCP TypeScript SDK's clients (1.x, and 2.x in its three negotiation modes), what they answer
// the server, and everything a user's code of one of them sees of one server: shared by the
// tests over stdio (mcp.test.mjs) and over Streamable HTTP (mcp_http.test.mjs), which differ only
// in the transport and the servers they start.
import assert from 'node:assert/strict';

import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2 } from '@modelcontextprotocol/client';

import { settled } from './peers.mjs';

// The TypeScript client drops progress that reaches it in one chunk with the result (it hands
// notifications on a microtask, and the result removes the progress handler at once). Against
// the SDK's own server that happens often: 0 to 3 of 3 callbacks per call, by timing, fewest on
// a cold client, and on a busy machine (whose slower reader finds more in one chunk: ten calls
// once all had none). So `count` is called until one call has had all of its callbacks (at most
// this many calls, milliseconds each), and the most any call had is compared.
const COUNT_CALLS = 50;
const COUNT_TO = 3;

const CAPABILITIES = { elicitation: {}, sampling: {} };

// The client's answers to what the server asks of it (the user confirms; the model summarises).
const ANSWERS = {
  'elicitation/create': { action: 'accept', content: { confirm: true } },
  'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'A short summary.' }, model: 'node-test' },
};

// Each: `make()` a client, `handle` the server's requests with a handler, `callTool` with options
// (the two majors put them in different places). `transports` picks the client's own transport
// class for each kind: `{ '1.x': Class, '2.x': Class }`.
export function clients(transports) {
  return {
    '@modelcontextprotocol/sdk 1.x': {
      make: () => new Client1({ name: 'node-test', version: '1.0.0' }, { capabilities: CAPABILITIES }),
      Transport: transports['1.x'],
      handle: (client, handler) => {
        client.setRequestHandler(ElicitRequestSchema, (request) => handler('elicitation/create', request));
        client.setRequestHandler(CreateMessageRequestSchema, (request) => handler('sampling/createMessage', request));
      },
      // (params, resultSchema, options)
      callTool: (client, params, options) => client.callTool(params, undefined, options),
    },
    ...Object.fromEntries([['legacy', 'legacy'], ['auto', 'auto'], ['2026-07-28', { pin: '2026-07-28' }]].map(([name, mode]) => [
      `@modelcontextprotocol/client 2.x, ${name}`,
      {
        make: () => new Client2({ name: 'node-test', version: '1.0.0' }, { capabilities: CAPABILITIES, versionNegotiation: { mode } }),
        Transport: transports['2.x'],
        handle: (client, handler) => {
          client.setRequestHandler('elicitation/create', (request) => handler('elicitation/create', request));
          client.setRequestHandler('sampling/createMessage', (request) => handler('sampling/createMessage', request));
        },
        callTool: (client, params, options) => client.callTool(params, options),
      },
    ])),
  };
}

// `_meta` of a request the server sends carries its era's envelope; what is asked is the rest.
function withoutMeta(params) {
  const { _meta, ...rest } = params ?? {};
  return rest;
}

// Everything a user's code of this client sees of one server, in one connection over `transport`
// (an instance of the kind's `Transport`).
export async function observe(kind, transport) {
  const client = kind.make();
  const asked = [];
  kind.handle(client, (method, request) => {
    asked.push({ method, params: withoutMeta(request.params) });
    return ANSWERS[method];
  });
  await client.connect(transport);
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

// The SDK's server and ours, as one client saw each: the same, progress compared by the call that
// had the most callbacks (at least one against the SDK's server, as many against ours).
export function assertSameSeen(sdk, ours) {
  const counts = (s) => s.progress.map((call) => call.progress.length);
  const most = (s) => s.progress.reduce((a, b) => (b.progress.length > a.progress.length ? b : a));
  assert.ok(most(sdk).progress.length >= 1, `the SDK's server: progress callbacks per call ${counts(sdk)}`);
  assert.equal(most(ours).progress.length, most(sdk).progress.length,
    `progress callbacks per call: ours ${counts(ours)}, the SDK's server ${counts(sdk)}`);
  assert.deepEqual(most(ours), most(sdk));
  for (const s of [sdk, ours]) delete s.progress;
  assert.deepEqual(ours, sdk);
  assert.deepEqual(sdk.asked.map((a) => a.method), ['elicitation/create', 'sampling/createMessage']);
}
