"""``serve mcp`` over real pipes: it answers as the model does, and bad input never ends it early
or spoils the answers to the lines around it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from conftest import ROOT

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
ADD = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}


def _line(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


def _serve(stdin: bytes, timeout: float = 60, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agent_loop_sim", "serve", "mcp"], input=stdin, cwd=ROOT,
                          capture_output=True, timeout=timeout, env={**os.environ, **(env or {})})


def _answers(done: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def _added(answers: list[dict]) -> int:
    (result,) = [a["result"] for a in answers if a.get("id") == 2]
    return result["structuredContent"]["result"]


def test_a_session_is_answered_and_eof_ends_it_cleanly():
    done = _serve(_line(INIT) + _line({"jsonrpc": "2.0", "method": "notifications/initialized"}) + _line(ADD))
    assert done.returncode == 0 and done.stderr == b""
    assert [a["id"] for a in _answers(done)] == [1, 2]
    assert _added(_answers(done)) == 5


def test_a_half_line_then_eof():
    done = _serve(_line(INIT) + b'{"jsonrpc": "2.0", "id": 2, "method": "tools/ca')
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert [a["id"] for a in _answers(done)] == [1]  # the half line is not JSON: dropped, as the SDK drops it


def test_a_last_line_without_its_newline_still_counts():
    done = _serve(_line(INIT) + json.dumps(ADD).encode())
    assert done.returncode == 0 and _added(_answers(done)) == 5


def test_a_10_mb_line_between_two_requests():
    huge = {"jsonrpc": "2.0", "id": 9, "method": "tools/call",
            "params": {"name": "fail", "arguments": {"reason": "x" * 10_000_000}}}
    done = _serve(_line(INIT) + _line(huge) + _line(ADD))
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    answers = _answers(done)
    assert [a["id"] for a in answers] == [1, 9, 2]
    assert answers[1]["result"]["isError"] is True and _added(answers) == 5


def test_a_line_over_the_limit_is_dropped_and_said_and_the_lines_around_it_answered():
    limit = len(_line(INIT)) + 10  # INIT and ADD fit; the line between them does not
    long = _line({"jsonrpc": "2.0", "id": 9, "method": "ping", "params": {"x": "y" * limit}})
    done = _serve(_line(INIT) + long + _line(ADD) + b"z" * (limit + 1),
                  env={"AGENT_LOOP_SIM_MAX_FILE_BYTES": str(limit)})
    assert done.returncode == 0 and [a["id"] for a in _answers(done)] == [1, 2]
    said = done.stderr.decode().splitlines()
    assert [line.split(": longer than")[0] for line in said] == ["agent-loop-sim serve mcp: line 2",
                                                                 "agent-loop-sim serve mcp: line 4"]
    assert all(f"longer than {limit:,} characters (the largest file limit, taken for a line): dropped "
               f"(raise it with --max-file-bytes N" in line for line in said)
    # At the limit exactly, the same line is answered.
    done = _serve(_line(INIT) + long, env={"AGENT_LOOP_SIM_MAX_FILE_BYTES": str(len(long) - 1)})
    assert [a["id"] for a in _answers(done)] == [1, 9] and done.stderr == b""


def test_a_line_without_end_does_not_grow_the_server():
    """Fed ``/dev/zero`` (one line that never ends), the server reads on in bounded memory."""
    server = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "serve", "mcp"], cwd=ROOT,
                              stdin=open("/dev/zero", "rb"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "AGENT_LOOP_SIM_MAX_FILE_BYTES": str(1 << 20)})
    try:
        rss = []
        for _ in range(2):
            time.sleep(1.5)  # some gigabytes of zeros a second go through
            with open(f"/proc/{server.pid}/status") as status:
                rss += [int(line.split()[1]) for line in status if line.startswith("VmRSS:")]
        assert server.poll() is None and max(rss) < 200_000, rss  # KiB
    finally:
        server.kill()
        server.wait()


def test_invalid_utf8_is_a_line_that_is_not_json():
    done = _serve(_line(INIT) + b'{"jsonrpc": "2.0", "id": 7, "method": "ping"\xff\xfe}\n' + b"\xc3\x28\n" + _line(ADD))
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert [a["id"] for a in _answers(done)] == [1, 2] and _added(_answers(done)) == 5


def test_a_client_that_disconnects_mid_stream():
    """The client stops reading (closes the server's stdout) while the server still has lines to
    write: the server ends quietly, without a traceback, instead of hanging or crashing loudly."""
    server = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "serve", "mcp"], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert server.stdin and server.stdout
    server.stdin.write(_line(INIT))
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["id"] == 1
    server.stdout.close()  # the client goes away mid-session
    listing = {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}
    try:
        for _ in range(200):
            server.stdin.write(_line(listing))
        server.stdin.close()
    except BrokenPipeError:
        pass  # the server already left: that is the point
    server.wait(timeout=30)
    assert server.returncode == 0
    assert b"Traceback" not in server.stderr.read()


def test_each_message_is_written_on_its_own():
    """Progress and the result in one write reach the TypeScript SDK's client as one chunk, and
    it drops the progress then; the SDK's server writes (and flushes) each message alone."""
    import io

    from agent_loop_sim.serve.mcp_stdio import serve

    class Writes(io.RawIOBase):
        def __init__(self) -> None:
            self.writes: list[bytes] = []

        def writable(self) -> bool:
            return True

        def write(self, data) -> int:  # noqa: ANN001
            self.writes.append(bytes(data))
            return len(data)

    count = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "count", "arguments": {"n": 3}, "_meta": {"progressToken": 2}}}
    raw = Writes()
    serve(io.BytesIO(_line(INIT) + _line(count)), io.BufferedWriter(raw))
    assert len(raw.writes) == 5  # the initialize result, 3 progress notifications, the tool's result
    assert all(w.count(b"\n") == 1 and w.endswith(b"\n") for w in raw.writes)


def test_a_message_waits_until_the_client_has_read_the_one_before_it():
    """Written back to back, an answer's messages reach a client as one chunk even when written
    one by one (the TypeScript SDK's client then drops the progress); over a Unix socket (Node's
    "pipe" to a child) the next is written only after the one before was read."""
    import io
    import socket
    import threading
    import time

    from agent_loop_sim.serve.mcp_stdio import serve

    count = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "count", "arguments": {"n": 3}, "_meta": {"progressToken": 2}}}
    ours, theirs = socket.socketpair()
    with ours, theirs, ours.makefile("rb") as stdin, ours.makefile("wb") as stdout:
        server = threading.Thread(target=serve, args=(stdin, stdout))
        server.start()
        theirs.sendall(_line(INIT))
        assert theirs.recv(1 << 16).count(b"\n") == 1
        theirs.sendall(_line(count))
        chunks = []
        while len(chunks) < 10 and sum(c.count(b"\n") for c in chunks) < 4:
            time.sleep(0.01)  # a client slower than the server
            chunks.append(theirs.recv(1 << 16))
        theirs.shutdown(socket.SHUT_WR)
        server.join()
    assert [c.count(b"\n") for c in chunks] == [1] * 4  # 3 progress notifications, then the result
