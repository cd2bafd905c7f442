"""The live MCP recorder's faults: a server that hangs or crashes fails the run, names the
session within its timeout, and leaves the committed recording byte for byte as it was; a server
that is only slow (each answer within the timeout, all of them well past it) is recorded."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

FAKES = ROOT / "tests" / "fakes"


@pytest.mark.parametrize("fake", ["mcp_server_hangs.py", "mcp_server_crashes.py"])
def test_a_broken_server_fails_the_recording_and_nothing_is_written(project_copy: Path, fake: str):
    committed = project_copy / "recordings" / "sdk_exchanges.json"
    before = committed.read_bytes()
    env = {**os.environ, "AGENT_LOOP_SIM_MCP_SERVER": f"{sys.executable} {FAKES / fake}"}
    started = time.monotonic()
    done = run_cli("record", "scenarios/mcp.json", "--release", "2.3.0", "--timeout", "3", "--jobs", "8", cwd=project_copy, env=env,
                   timeout=120)
    elapsed = time.monotonic() - started
    assert done.returncode == 1
    assert "recording failed" in done.stderr and "session '" in done.stderr
    assert "Traceback" not in done.stderr
    assert elapsed < 60
    assert committed.read_bytes() == before
    assert sorted(p.name for p in committed.parent.iterdir()) == sorted(
        p.name for p in (ROOT / "recordings").iterdir())  # no temporary files left


_INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
#: Five requests each (the handshake's among them): at 0.6 s an answer, 3 s in all.
_SLOW_SESSIONS = [
    {"name": "slow_client", "family": "mcp", "title": "the SDK's client", "mode": "legacy",
     "actions": [{"op": "ping"}, {"op": "ping"}, {"op": "list", "what": "tools"}, {"op": "ping"}]},
    {"name": "slow_raw", "family": "mcp", "title": "lines written", "mode": "raw",
     "lines": [json.dumps(_INITIALIZE), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})]
     + [json.dumps({"jsonrpc": "2.0", "id": i, "method": "ping"}) for i in (1, 2, 3, 4)]},
]


def _record_slow(tmp_path: Path, timeout: str, delay: str) -> subprocess.CompletedProcess:
    path = tmp_path / "slow.json"
    path.write_text(json.dumps({"recording": "slow.json", "sessions": _SLOW_SESSIONS}))
    env = {**os.environ, "AGENT_LOOP_SIM_MCP_SERVER": f"{sys.executable} {FAKES / 'mcp_server_slow.py'}",
           "SLOW_SECONDS": delay}
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "record_sdk.py"), str(path), "--timeout", timeout],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)


def test_a_slow_server_is_recorded_when_each_answer_comes_within_the_timeout(tmp_path: Path):
    """3 s of answers in all against a 2 s timeout: a busy machine is slow, not silent, and its
    sessions are not failed (the SDK's client through the tee, and lines written raw)."""
    done = _record_slow(tmp_path, "2", "0.6")
    assert done.returncode == 0, done.stderr
    sessions = {s["name"]: s for s in json.loads(done.stdout)["sessions"]}
    # the client: five requests and their answers, and its notifications/initialized
    assert len(sessions["slow_client"]["messages"]) == 11
    assert len(sessions["slow_raw"]["messages"]) == 11


def test_a_server_slower_than_the_timeout_between_two_messages_fails_the_session(tmp_path: Path):
    """The control: the same server, an answer taking longer than the timeout, fails the run
    naming the session and how long nothing crossed."""
    started = time.monotonic()
    done = _record_slow(tmp_path, "0.5", "3")
    assert done.returncode == 1 and done.stdout == ""
    assert "session 'slow_" in done.stderr and "nothing crossed for 0.5 s" in done.stderr
    assert time.monotonic() - started < 30


def test_record_check_names_a_changed_value(project_copy: Path):
    import json
    path = project_copy / "recordings" / "sdk_exchanges.json"
    data = json.loads(path.read_text())
    data["sessions"][0]["messages"][1]["json"]["result"]["serverInfo"]["version"] = "9.9.9"
    path.write_text(json.dumps(data, indent=2))
    done = run_cli("record", "--check", "scenarios/mcp.json", "--release", "2.3.0", "--jobs", "4", cwd=project_copy)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("session 'legacy_tour', message 2, $.result.serverInfo.version: committed \"9.9.9\", live \"1.0.0\""
            in done.stdout)


# --- every session's server is fresh: nothing one session leaves behind reaches the next --------
_STATEFUL_FIXTURE = r'''
import json, socket, sys, tempfile
sys.path.insert(0, "scripts")
import mcp_fork_server
from agent_loop_sim.processes import abstract_socket_name, unix_address

calls = []  # state a session leaves behind in the fixture, were its server shared

@mcp_fork_server.sdk_server.mcp.tool()
def remember(x: int) -> int:
    """How many calls this server has answered."""
    calls.append(x)
    return len(calls)

HELLO = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
          "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
         {"jsonrpc": "2.0", "method": "notifications/initialized"}]

def session(address, calls):
    """One connection: the handshake, then `calls` calls of remember; the count of each answer."""
    lines = HELLO + [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
                      "params": {"name": "remember", "arguments": {"x": i}}} for i in range(1, calls + 1)]
    answers = []
    with socket.socket(socket.AF_UNIX) as sock, tempfile.NamedTemporaryFile() as err:
        sock.connect(unix_address(address))
        sock.sendall(json.dumps({"stderr": err.name}).encode() + b"\n")
        replies = sock.makefile("rb")
        for line in lines:
            sock.sendall(json.dumps(line).encode() + b"\n")
            if "id" in line:  # a request: wait for its answer
                answers.append(json.loads(replies.readline()))
        sock.shutdown(socket.SHUT_WR)
    return [a["result"]["structuredContent"]["result"] for a in answers if a["id"] > 0]

address = abstract_socket_name("test-fresh")
zygote = mcp_fork_server.start(address)
try:
    print(json.dumps([session(address, 1), session(address, 1), session(address, 2)]))
finally:
    mcp_fork_server.stop(zygote)
'''


def test_each_session_has_a_fresh_server_that_no_earlier_session_touched():
    """A tool that keeps state across calls (added to the fixture before the zygote forks):
    each connection's server counts from one, however many sessions came before, while
    within one session the count goes on (the control: the state is real, and would show)."""
    done = subprocess.run([sys.executable, "-c", _STATEFUL_FIXTURE], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[1], [1], [1, 2]]


# --- over Streamable HTTP, the same rule: each request, reply and chunk of a body moves the deadline ---
@pytest.mark.parametrize("fake, code, said", [("mcp_http_slow.py", 0, ""),
                                              ("mcp_http_hangs.py", 1, "session 'slow_http': nothing crossed for 2 s")])
def test_over_http_a_slow_server_is_recorded_and_a_hung_one_fails(tmp_path: Path, fake: str, code: int, said: str):
    """Five requests at 0.6 s an answer against a 2 s timeout are recorded; a server that takes
    the connection and never answers fails the run, naming the session."""
    path = tmp_path / "slow.json"
    path.write_text(json.dumps({"recording": "slow.json", "transport": "http",
                                "sessions": [dict(_SLOW_SESSIONS[0], name="slow_http")]}))
    env = {**os.environ, "AGENT_LOOP_SIM_MCP_HTTP_PEER": f"{sys.executable} {FAKES / fake}", "SLOW_SECONDS": "0.6"}
    started = time.monotonic()
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "record_mcp_http.py"), str(path), "--timeout", "2"],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == code, done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr
    if code == 0:
        (session,) = json.loads(done.stdout)["sessions"]
        assert sum(m["from"] == "server" for m in session["messages"]) >= 5  # every request answered
    assert time.monotonic() - started < 60
