"""Benchmarks of the served peers (``agent-loop-sim serve``), each against the SDK's fixture
served the same way, in alternating pairs (A B A B ...), as ratios with their min-max.

P6  one MCP session over stdio, start-up to exit: `serve mcp` against `conformance/sdk_server.py`
P7  A2A SendMessage requests per second over HTTP (uvicorn, 32 connections at once, autocannon as the
    load generator): `serve a2a` against the SDK's research agent (`conformance/a2a_sdk_server.py`)
P12 one MCP session over Streamable HTTP, start-up to exit: `serve mcp --http` against the SDK's
    fixture server's `streamable_http_app()` (`conformance/sdk_http_server.py`), both on uvicorn
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from benchmarks.figures import record, side
from benchmarks.measure import paired, spread

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

MCP_PEERS = {"serve mcp": [PY, "-m", "agent_loop_sim", "serve", "mcp"],
             "the SDK's server": [PY, str(ROOT / "conformance" / "sdk_server.py")]}
A2A_PEERS = {"serve a2a": [PY, "-m", "agent_loop_sim", "serve", "a2a", "--port", "0"],
             "the SDK's agent": [PY, str(ROOT / "benchmarks" / "serve_sdk_agent.py")]}

SESSION = [  # a handshake-era session: what a host does when it connects and uses a few things
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}},
    {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
     "params": {"name": "count", "arguments": {"n": 5}, "_meta": {"progressToken": 4}}},
    {"jsonrpc": "2.0", "id": 5, "method": "resources/read", "params": {"uri": "docs://readme"}},
    {"jsonrpc": "2.0", "id": 6, "method": "prompts/get", "params": {"name": "review", "arguments": {"code": "x"}}},
]


def mcp_session(command: list[str]) -> float:
    """Start the server, play the session (each request waits for its answer), close, wait for exit."""
    start = time.perf_counter()
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              cwd=ROOT, text=True)
    assert server.stdin and server.stdout
    for message in SESSION:
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()
        if "id" in message:
            while json.loads(server.stdout.readline()).get("id") != message["id"]:
                pass  # progress notifications come first
    server.stdin.close()
    server.wait(timeout=30)
    return time.perf_counter() - start


MCP_HTTP_PEERS = {"serve mcp --http": [PY, "-m", "agent_loop_sim", "serve", "mcp", "--http", "--port", "0"],
                  "the SDK's server over HTTP": [PY, str(ROOT / "conformance" / "sdk_http_server.py")]}


def mcp_http_session(command: list[str]) -> float:
    """Start the server, play `SESSION` over Streamable HTTP (each request read to its answer),
    end the session (DELETE), stop the server and wait for it."""
    import httpx

    start = time.perf_counter()
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, text=True)
    assert server.stdout
    url = server.stdout.readline().strip()
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    with httpx.Client(timeout=30) as client:
        for message in SESSION:
            answer = client.post(url, json=message, headers=headers)
            assert answer.status_code in (200, 202), answer.status_code
            if message["method"] == "initialize":
                headers |= {"Mcp-Session-Id": answer.headers["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
        client.delete(url, headers=headers)
    server.terminate()
    server.wait(timeout=30)
    return time.perf_counter() - start


def p12_serve_mcp_http(pairs: int) -> tuple[str, bool]:
    ours, sdk = paired(lambda: mcp_http_session(MCP_HTTP_PEERS["serve mcp --http"]),
                       lambda: mcp_http_session(MCP_HTTP_PEERS["the SDK's server over HTTP"]), pairs)
    ratios = [s / o for o, s in zip(ours, sdk)]
    record("P12.serve_mcp_http", "serve mcp --http against the SDK's server over HTTP", "one MCP session over Streamable "
           "HTTP, start-up to exit: the SDK's fixture server's time over serve mcp --http's (how many times faster)", "x",
           ratios, 1, pairs=pairs, sides=[side("serve mcp --http", "ms", [x * 1e3 for x in ours], 0),
                                          side("the SDK's fixture server over HTTP", "ms", [x * 1e3 for x in sdk], 0)])
    return (f"P12 one MCP session over Streamable HTTP, start-up to exit: serve mcp --http "
            f"{spread([x * 1e3 for x in ours], '.0f')} ms vs the SDK's fixture server over HTTP "
            f"{spread([x * 1e3 for x in sdk], '.0f')} ms: serve mcp --http is {spread(ratios, '.1f')}x faster "
            f"(median of {pairs} alternating pairs, min-max)", True)


def p6_serve_mcp(pairs: int) -> tuple[str, bool]:
    ours, sdk = paired(lambda: mcp_session(MCP_PEERS["serve mcp"]), lambda: mcp_session(MCP_PEERS["the SDK's server"]),
                       pairs)
    ratios = [s / o for o, s in zip(ours, sdk)]
    record("P6.serve_mcp", "serve mcp against the SDK's server (stdio)", "one MCP session over stdio, start-up to exit: "
           "the SDK's fixture server's time over serve mcp's (how many times faster)", "x", ratios, 1, pairs=pairs,
           sides=[side("serve mcp", "ms", [x * 1e3 for x in ours], 0),
                  side("the SDK's fixture server", "ms", [x * 1e3 for x in sdk], 0)])
    return (f"P6 one MCP session over stdio, start-up to exit: serve mcp {spread([x * 1e3 for x in ours], '.0f')} ms "
            f"vs the SDK's fixture server {spread([x * 1e3 for x in sdk], '.0f')} ms: serve mcp is "
            f"{spread(ratios, '.1f')}x faster (median of {pairs} alternating pairs, min-max)", True)


LOAD = ROOT / "benchmarks" / "a2a_load.mjs"


def a2a_rate(command: list[str], requests: int, clients: int = 32) -> float:
    """Requests per second one served agent sustains under autocannon (`a2a_load.mjs`: a load
    generator that is not the bottleneck); a fresh process, its start-up and a warm-up not timed."""
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, text=True)
    try:
        assert server.stdout
        url = server.stdout.readline().strip()
        subprocess.run(["node", str(LOAD), url, "50", str(clients)], cwd=ROOT, check=True, capture_output=True)
        done = subprocess.run(["node", str(LOAD), url, str(requests), str(clients)], cwd=ROOT, check=True,
                              capture_output=True, text=True)
        result = json.loads(done.stdout)
        assert result["non2xx"] == 0 and result["errors"] == 0, result
        return result["rps"]
    finally:
        server.terminate()
        server.wait(timeout=30)


def p7_serve_a2a(pairs: int, requests: int) -> tuple[str, bool]:
    ours, sdk = paired(lambda: a2a_rate(A2A_PEERS["serve a2a"], requests),
                       lambda: a2a_rate(A2A_PEERS["the SDK's agent"], requests), pairs)
    ratios = [o / s for o, s in zip(ours, sdk)]
    record("P7.serve_a2a", "serve a2a against the SDK's agent", f"A2A SendMessage over HTTP (uvicorn, autocannon, 32 "
           f"connections, {requests} requests): serve a2a's requests per second over the SDK's agent's", "x", ratios, 1,
           pairs=pairs, goal={"at_least": 5}, sides=[side("serve a2a", "requests/s", ours, 0),
                                                    side("the SDK's agent", "requests/s", sdk, 0)])
    return (f"P7 A2A SendMessage over HTTP (uvicorn, autocannon, 32 connections, {requests} requests): serve a2a "
            f"{spread(ours, ',.0f')} requests/s vs the SDK's agent {spread(sdk, ',.0f')} requests/s: "
            f"{spread(ratios, '.1f')}x (median of {pairs} alternating pairs, min-max; goal >= 5x)",
            statistics.median(ratios) >= 5)
