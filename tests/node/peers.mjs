// The peers the clients are pointed at: the SDK's fixtures and the simulated peers, started
// from this checkout (.venv of the project, `make setup`).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PYTHON = path.join(ROOT, '.venv', 'bin', 'python');

// How each MCP server is started over stdio: the SDK's fixture server, and `serve mcp`.
export const MCP_SERVERS = {
  'the SDK fixture server': { command: PYTHON, args: [path.join(ROOT, 'conformance', 'sdk_server.py')], cwd: ROOT },
  'serve mcp': { command: PYTHON, args: ['-m', 'agent_loop_sim', 'serve', 'mcp'], cwd: ROOT },
};

// How each MCP server is started over Streamable HTTP; each prints its endpoint's URL on its
// first line (startAgent reads it).
export const MCP_HTTP_SERVERS = {
  "the SDK's fixture server over HTTP": [path.join(ROOT, 'conformance', 'sdk_http_server.py')],
  'serve mcp --http': ['-m', 'agent_loop_sim', 'serve', 'mcp', '--http', '--port', '0'],
};

// How each A2A agent is started over HTTP; each prints its base URL on its first line.
export const A2A_AGENTS = {
  "the SDK's agent under uvicorn": [path.join(ROOT, 'tests', 'node', 'serve_sdk_agent.py')],
  'serve a2a': ['-m', 'agent_loop_sim', 'serve', 'a2a', '--port', '0'],
};

// One process of a peer served over HTTP (an A2A agent, an MCP server), fresh (its own state):
// `{ url, stop }`.
export async function startAgent(args) {
  // (stderr kept, not shown: `serve a2a` says "terminated" when stopped; a start that fails shows it)
  const child = spawn(PYTHON, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stderr.on('data', (chunk) => { said += chunk; });
  let seen = '';
  for await (const chunk of child.stdout) {
    seen += chunk;
    if (seen.includes('\n')) break;
  }
  const url = seen.split('\n')[0].trim();
  if (!url.startsWith('http')) throw new Error(`${args.join(' ')} printed no URL: ${JSON.stringify(seen)} ${said}`);
  child.stdout.resume();
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}

// An error as a client sees it, without its stack: what a user's code can tell apart.
export function described(error) {
  const seen = { name: error?.constructor?.name, message: error?.message };
  for (const key of ['code', 'data']) if (error?.[key] !== undefined) seen[key] = error[key];
  return seen;
}

// What a promise settles to: `{ result }` or `{ error }` (described).
export async function settled(promise) {
  try {
    return { result: await promise };
  } catch (error) {
    return { error: described(error) };
  }
}
