"""The page "Use the simulator in your tests": the served peers, what they can and cannot do,
and the worked example, read from ``use_in_tests_example.txt`` beside this module (which
``tests/test_example_peers.py`` runs with the tests)."""
from __future__ import annotations

from pathlib import Path

from ..parts.markdown import fence

PEERS_PAGE = "use-in-tests.md"
EXAMPLE = Path(__file__).with_name("use_in_tests_example.txt")

INTRO = """\
# Use the simulator in your tests

The engine's models can stand in for the SDKs' fixture peers while you test your own code: a
deterministic MCP server over stdio and an A2A agent over HTTP, with no SDK installed, that
answer as `conformance/sdk_server.py` and `conformance/a2a_sdk_server.py` do.

```sh
python -m agent_loop_sim serve mcp                 # MCP over stdin/stdout, one line per message
python -m agent_loop_sim serve a2a --port 8765     # A2A over HTTP on 127.0.0.1 (needs the serve extra)
```

`serve mcp` needs nothing beyond the package. `serve a2a` needs uvicorn, from the package's
`serve` extra (`make setup` installs it); `--port 0` picks a free port, and the first line it prints is the URL
to use (`http://127.0.0.1:PORT`), so a test can start it and read where it listens.

## A worked example

Two pytest fixtures, one per peer, and a test for each: an MCP client's handshake, a tool call
and an elicitation answered by hand; an orchestrator that answers the agent's question. This
file runs with the project's tests, so what it shows is what the peers do.
"""

REST = """
## What the peers can do

- **`serve mcp`** speaks both eras on one connection, as the SDK's server does: the
  `initialize` handshake (up to 2025-11-25, with server requests for elicitation and sampling
  that wait for your answer), the stateless 2026-07-28 revision (`input_required` and the retry
  with `inputResponses`, `server/discover`, `subscriptions/listen`), and the SDK's answers to
  malformed lines (a line that is not a JSON-RPC message is dropped without a reply). At end of
  file it ends open listen streams with their error and exits 0.
- **`serve a2a`** serves the research agent's card at `/.well-known/agent-card.json` (with its
  weak ETag; `If-None-Match` gets `304`) and JSON-RPC at `/a2a`: `SendMessage`,
  `SendStreamingMessage` and `SubscribeToTask` (server-sent events), `GetTask`, `ListTasks`,
  `CancelTask`, the `A2A-Version` header rule, and the SDK's validation errors.
- Both are deterministic. Identifiers are UUIDs from a counter and the agent's clock starts at
  2026-01-01T00:00:00Z and moves one microsecond per reading, so the same requests get the same
  answers in every run.
- The swap test proves it: `python -m agent_loop_sim record --against engine --check` runs
  every committed session with the SDK's own MCP `Client` (and the raw writer) against
  `serve mcp`, and every A2A session over real HTTP against `serve a2a`. Each must equal the
  committed recording message by message, key order included (after the normalisation every
  recording gets: renumbered MCP ids, A2A UUIDs and times replaced). It also runs the engine's MCP client against the SDK's
  fixture server. `make test` runs it.

## What they cannot do

- They are the **fixture** peers: the six tools, one resource and one prompt of
  `conformance/sdk_server.py`, and the research agent of `conformance/a2a_sdk_server.py`. They
  do not serve your own tools or agents.
- **One `serve a2a` process holds one agent.** Every client of that process shares one task
  store, so `ListTasks` shows the tasks of all of them. Start one process
  per test, as the fixture above does, when a test must see only its own tasks. `serve mcp`
  serves one connection: one process per client.
- **`serve a2a` bounds its memory; the SDK does not** (a deliberate departure). The SDK's agent
  reads a request body of any size and keeps every task until its process ends. `serve a2a`
  refuses a body over `--max-body-bytes` (default 10,485,760, 10 MiB) before parsing it, with
  HTTP `413` and the JSON-RPC error the SDK's dispatcher gives when the server in front of it
  refuses a body as too large (`-32600`, "Payload too large", id `null`); and its task store keeps
  the newest `--max-tasks` tasks (default 1,000): an older one is then a task not found, as one
  never stored.
- Where the engine does not model the SDK, the peers say so rather than guess. `serve a2a`
  answers such a request (a batch, a body that is no JSON-RPC request object,
  `returnImmediately`, `ListTasks` paging past one page) with HTTP `501` and one line naming the
  gap. `serve mcp` writes one line on stderr and answers a request with `-32603`. Either way the
  process goes on serving.
- The agent's timestamps come from the simulated clock, not the wall clock. A2A is served only
  in its JSON-RPC binding, not REST or gRPC.
- **`serve mcp --http`** serves MCP over Streamable HTTP instead (uvicorn, like `serve a2a`;
  the first line is the endpoint's URL, `http://127.0.0.1:PORT/mcp`), as the SDK's
  `streamable_http_app()` does: session ids issued by `initialize` and then required, the
  `MCP-Protocol-Version` header routing a request to the 2026-07-28 entry, `Accept` and
  `Content-Type` refusals, SSE streams that stay open while the server waits for the client,
  the GET stream, DELETE, and the DNS-rebinding guard (only loopback `Host` and `Origin`).
  One process holds all its sessions. Not modelled: resuming a stream (`Last-Event-ID`), an
  event store, JSON-response mode, idle session expiry.

## Picking a scenario's scripted answers

The served peers need no scripted answers: your code under test is the client, so it gives the
answers. When the MCP server asks (`elicitation/create`, `sampling/createMessage`), your client
answers. When the agent asks for input or a sign-in, your orchestrator sends the next message.
What the peers answer is decided by the request alone:

- MCP tools: `add` adds, `count` reports progress (when the call carries a `progressToken`),
  `delete_file` asks the user for confirmation (`{"confirm": true}` deletes, anything else keeps
  the file), `summarise` asks the client's model and returns the text of its answer, `read_doc`
  reads a resource, `fail` always fails.
- A2A, by the text of the first message of a task: `hello...` gets a message and no task,
  `delete...` is rejected, `summarise the meeting` asks which meeting (your next message into the
  task names it), `check my calendar` asks the user to sign in (any next message finishes it),
  and anything else completes with a two-chunk `summary` artifact.

To replay what a scenario's application would answer, take the scripted answers from the
scenario file: its `answers.elicitation` and `answers.sampling` lists (MCP) are the results your
client would send, in order, and its `steps` (A2A) are the messages in order. `python -m
agent_loop_sim run scenarios/mcp.json --session NAME` prints the whole exchange the engine
expects for a session, to compare your client's messages with.
"""


def render_peers() -> str:
    example = EXAMPLE.read_text(encoding="utf-8")
    return INTRO + "\n" + fence(example.rstrip("\n"), "python") + "\n" + REST
