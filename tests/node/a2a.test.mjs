// The A2A JavaScript SDK's client (@a2a-js/sdk, A2A 1.0), following the agent card as its
// users do (createFromUrl), against the SDK's agent under uvicorn and against `serve a2a`:
// what a user's code sees must be the same (ids and timestamps, random on the one side and
// numbered on the other, compared by where they first appear).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

import { ClientFactory } from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';

import { A2A_AGENTS, described, settled, startAgent } from './peers.mjs';

function message(text, { taskId = '', contextId = '' } = {}) {
  return {
    messageId: randomUUID(), contextId, taskId, role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text }, metadata: undefined }],
    metadata: undefined, extensions: [], referenceTaskIds: [],
  };
}

function send(text, ids) {
  return { tenant: '', message: message(text, ids), configuration: undefined, metadata: undefined };
}

async function events(generator) {
  const seen = [];
  try {
    for await (const event of generator) seen.push(event);
  } catch (error) {
    seen.push({ error: described(error) });
  }
  return seen;
}

// Everything a user's code sees of one agent, from its card on.
async function observe(agentArgs) {
  const agent = await startAgent(agentArgs);
  try {
    const client = await new ClientFactory().createFromUrl(agent.url);
    const seen = { card: await settled(client.getAgentCard()) };
    seen.hello = await settled(client.sendMessage(send('hello there')));
    const done = await settled(client.sendMessage(send('summarise the design notes')));
    seen.summary = done;
    seen.stream = await events(client.sendMessageStream(send('summarise the budget')));
    seen.rejected = await settled(client.sendMessage(send('delete my files')));
    const asking = await settled(client.sendMessage(send('summarise the meeting')));
    seen.asking = asking;
    const task = asking.result?.payload?.value ?? asking.result;
    seen.followUp = await events(client.sendMessageStream(send('Monday', { taskId: task?.id, contextId: task?.contextId })));
    seen.helloStream = await events(client.sendMessageStream(send('hello again')));
    const signIn = await settled(client.sendMessage(send('check my calendar')));
    seen.signIn = signIn;
    const waiting = signIn.result?.payload?.value ?? signIn.result;
    seen.signedIn = await settled(client.sendMessage(send('done', { taskId: waiting?.id, contextId: waiting?.contextId })));
    const doneTask = done.result?.payload?.value ?? done.result;
    seen.getTask = await settled(client.getTask({ tenant: '', id: doneTask?.id, historyLength: 1 }));
    seen.getMissing = await settled(client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }));
    seen.cancelDone = await settled(client.cancelTask({ tenant: '', id: doneTask?.id, metadata: undefined }));
    seen.resubscribeDone = await events(client.resubscribeTask({ tenant: '', id: doneTask?.id }));
    return alike(seen, agent.url);
  } finally {
    await agent.stop();
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/;

// Ids numbered by first appearance (in error messages too), timestamps and the agent's own
// address made alike.
function alike(value, url) {
  const ids = new Map();
  const walk = (v) => {
    if (v instanceof Date) return '<timestamp>';
    if (typeof v === 'string') {
      if (TIMESTAMP.test(v)) return '<timestamp>';
      return v.replaceAll(url, '<agent>').replace(UUID, (id) => {
        if (!ids.has(id)) ids.set(id, `<id ${ids.size + 1}>`);
        return ids.get(id);
      });
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

test("@a2a-js/sdk: the SDK's agent under uvicorn and serve a2a look the same", async () => {
  const seen = {};
  for (const [name, args] of Object.entries(A2A_AGENTS)) seen[name] = await observe(args);
  const [sdk, ours] = Object.values(seen);
  assert.deepEqual(ours, sdk);
  // What the session is about happened on both: the card was followed, a stream streamed.
  assert.equal(sdk.card.result.supportedInterfaces[0].url, '<agent>/a2a');
  assert.deepEqual(sdk.stream.map((e) => e.payload?.$case),
    ['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
});
