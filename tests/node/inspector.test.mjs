// The MCP Inspector's CLI (`inspector --cli`) against the SDK's fixture server and against
// `serve mcp`, in each protocol era it negotiates, over stdio and over Streamable HTTP: the same
// output, errors and exit status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { MCP_HTTP_SERVERS, MCP_SERVERS, ROOT, startAgent } from './peers.mjs';

const INSPECTOR = path.join(ROOT, 'node_modules', '.bin', 'inspector');

// Each: the CLI's arguments after the server command; every era is used for some.
const INVOCATIONS = [
  ['--method', 'tools/list', '--protocol-era', 'legacy'],
  ['--method', 'tools/call', '--tool-name', 'add', '--tool-arg', 'a=2', 'b=3', '--protocol-era', 'auto'],
  ['--method', 'tools/call', '--tool-name', 'count', '--tool-arg', 'n=3', '--protocol-era', 'modern'],
  ['--method', 'tools/call', '--tool-name', 'fail', '--tool-arg', 'reason=on purpose', '--protocol-era', 'legacy'],
  // The CLI declines what the server asks of the user. (Not here: `summarise`, and `delete_file`
  // in the modern era, which wait for the timeout on either server: the CLI answers no input.)
  ['--method', 'tools/call', '--tool-name', 'delete_file', '--tool-arg', 'path=notes.txt', '--protocol-era', 'legacy'],
  ['--method', 'resources/read', '--uri', 'docs://readme', '--protocol-era', 'modern'],
  ['--method', 'resources/read', '--uri', 'docs://missing', '--protocol-era', 'legacy'],
  ['--method', 'prompts/get', '--prompt-name', 'review', '--prompt-args', 'code=x = 1', '--protocol-era', 'auto'],
  ['--method', 'prompts/get', '--prompt-name', 'no_such_prompt', '--protocol-era', 'modern'],
];

function run(args, home) {
  // HOME of its own: the Inspector keeps a catalog and client config under ~/.mcp-inspector.
  const env = { ...process.env, HOME: home, MCP_CATALOG_PATH: path.join(home, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: path.join(home, 'client.json') };
  return new Promise((resolve) => {
    // The CLI gives a server 15 s to connect by default: on a busy machine (the suite's other
    // stages beside it) one server can miss that and the other not, a difference of the machine's.
    const bounded = ['--connect-timeout', '50000', ...args];
    execFile(INSPECTOR, bounded, { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (error.code ?? error.signal) : 0, stdout, stderr });
    });
  });
}

test("the Inspector CLI: the SDK's fixture server and serve mcp look the same", async () => {
  const home = await mkdtemp(path.join(tmpdir(), 'inspector-'));
  try {
    for (const invocation of INVOCATIONS) {
      const [sdk, ours] = await Promise.all(Object.values(MCP_SERVERS).map((server) =>
        run(['--cli', '--format', 'json', '-q', server.command, ...server.args, ...invocation], home)));
      assert.deepEqual(ours, sdk, invocation.join(' '));
      assert.ok(sdk.stdout || sdk.stderr, `${invocation.join(' ')}: the CLI said nothing`);
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test("the Inspector CLI over Streamable HTTP: the SDK's fixture server and serve mcp --http look the same", async () => {
  const home = await mkdtemp(path.join(tmpdir(), 'inspector-'));
  const servers = [];
  try {
    for (const args of Object.values(MCP_HTTP_SERVERS)) servers.push(await startAgent(args));
    for (const invocation of INVOCATIONS) {
      const [sdk, ours] = await Promise.all(servers.map(async (server) => {
        const seen = await run(['--cli', '--format', 'json', '-q', '--transport', 'http', server.url, ...invocation], home);
        // (each server listens on a port of its own: where the CLI names it, it is the same URL)
        for (const key of ['stdout', 'stderr']) seen[key] = seen[key].replaceAll(server.url, '<url>');
        return seen;
      }));
      assert.deepEqual(ours, sdk, invocation.join(' '));
      assert.ok(sdk.stdout || sdk.stderr, `${invocation.join(' ')}: the CLI said nothing`);
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(home, { recursive: true, force: true });
  }
});
