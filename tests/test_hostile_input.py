"""Hostile input the other bad-input tests do not try: a reader of standard output that goes
away, output paths that are not files, limits set absurdly high, and served peers fed lines and
bodies that Python's JSON parser takes but the SDKs' parsers refuse.

Each case must end with one line (no traceback) and the exit status the CLI promises, or, for a
served peer, an answer (as the SDK would give) or a clean refusal, never a crash.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_async

SCN = "scenarios/mcp.json"


def _cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agent_loop_sim", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})}, **kw)


def _one_line(done: subprocess.CompletedProcess, code: int) -> str:
    err = done.stderr.strip()
    assert done.returncode == code, (done.returncode, err[-2000:])
    assert "Traceback" not in err and len(err.splitlines()) == 1, err[-2000:]
    return err


# --- a reader of standard output that has gone ---------------------------------------------------
def test_a_reader_that_stops_reading_is_no_traceback():
    """``run ... | head -1``: the pipe closes while the transcript is written. Python's default is a
    BrokenPipeError traceback; the CLI ends quietly, as a command killed by SIGPIPE does (141)."""
    process = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "run", SCN], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout and process.stderr
    process.stdout.readline()
    process.stdout.close()  # as `head -1` does once it has its line
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "Exception ignored" not in err, err


# --- output paths that are not files -------------------------------------------------------------
def _export(output: str) -> subprocess.CompletedProcess:
    return _cli("export", "--format", "jsonl", "--session", "legacy_tour", "--output", output)


def test_export_to_a_folder_or_under_a_file_is_one_line(tmp_path: Path):
    err = _one_line(_export(str(tmp_path)), 2)
    assert str(tmp_path) in err and "a folder" in err
    (tmp_path / "file").write_text("kept")
    err = _one_line(_export(str(tmp_path / "file" / "x.jsonl")), 2)
    assert str(tmp_path / "file") in err and "not a folder" in err
    assert (tmp_path / "file").read_text() == "kept" and [p.name for p in tmp_path.iterdir()] == ["file"]


def test_export_never_puts_a_file_in_place_of_a_fifo_or_a_device(tmp_path: Path):
    """write_atomic renames a temporary file over its target: over a FIFO (or, run as root, over
    /dev/null) that would replace the node itself. The CLI refuses such a target instead."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    err = _one_line(_export(str(fifo)), 2)
    assert str(fifo) in err and "a FIFO, not a regular file" in err
    assert fifo.is_fifo() and [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_site_into_a_file_is_one_line_and_writes_nothing(tmp_path: Path):
    target = tmp_path / "file"
    target.write_text("kept")
    for outdir in (target, target / "site"):
        done = _cli("site", str(outdir))
        err = _one_line(done, 2)
        assert str(target) in err, err
    assert target.read_text() == "kept" and [p.name for p in tmp_path.iterdir()] == ["file"]


def test_site_with_a_page_folder_taken_by_a_file_writes_nothing(tmp_path: Path):
    """``OUTDIR/mcp`` is a file: the pages under it cannot be written, and the pages before it in
    the build's order must not be left behind as half a site."""
    outdir = tmp_path / "out"
    outdir.mkdir()
    (outdir / "mcp").write_text("kept")
    err = _one_line(_cli("site", str(outdir)), 2)
    assert str(outdir / "mcp") in err and "not a folder" in err
    assert [p.name for p in outdir.iterdir()] == ["mcp"]


# --- limits set absurdly high ----------------------------------------------------------------------
def test_a_file_size_limit_far_above_any_file_still_reads_the_file():
    """A limit of 1 TB or 10^20 bytes is allowed (no upper bound is promised); reading a small file
    under it must not ask for that much memory at once (MemoryError) or overflow a C size."""
    for huge in ("1000000000000", "99999999999999999999"):
        done = _cli("--max-file-bytes", huge, "run", SCN, "--session", "legacy_tour")
        assert done.returncode == 0 and json.loads(done.stdout)["name"] == "legacy_tour", done.stderr[-500:]
        done = _cli("check", SCN, env={"AGENT_LOOP_SIM_MAX_FILE_BYTES": huge})
        assert done.returncode == 0, done.stderr[-500:]


# --- serve mcp: lines Python's JSON takes and the SDK's parser (pydantic-core) refuses -------------
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
ADD = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}


def _serve_mcp(*lines: str) -> subprocess.CompletedProcess:
    stdin = "".join(line + "\n" for line in (json.dumps(INIT), *lines, json.dumps(ADD)))
    return subprocess.run([sys.executable, "-m", "agent_loop_sim", "serve", "mcp"], input=stdin.encode(), cwd=ROOT,
                          capture_output=True, timeout=60)


def test_serve_mcp_drops_a_line_with_an_integer_of_5000_digits():
    """pydantic-core: "Invalid JSON: number out of range", so the SDK's transport drops the line;
    Python's json raised ValueError there, which ended the process with a traceback."""
    done = _serve_mcp('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":' + "9" * 5000 + "}}")
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()[-1000:]
    assert [json.loads(line)["id"] for line in done.stdout.decode().splitlines()] == [1, 2]


def test_serve_mcp_drops_a_line_with_a_lone_surrogate():
    """pydantic-core: "Invalid JSON: lone leading surrogate in hex escape", so the SDK drops the
    line; the model answered it, and writing the answer (which echoes the name) as UTF-8 failed."""
    call = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"e\\ud800","arguments":{}}}'
    key = '{"jsonrpc":"2.0","id":8,"method":"ping","params":{"\\udfff":1}}'
    done = _serve_mcp(call, key)
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()[-1000:]
    assert [json.loads(line)["id"] for line in done.stdout.decode().splitlines()] == [1, 2]


def test_a_raw_scenario_line_with_an_integer_of_5000_digits_is_one_line(tmp_path: Path):
    """A raw line may be any text; one that is JSON with an integer of over 4300 digits is refused
    as an argument of that size is (`test_faults`): Python's parser (the engine's, the recorder's)
    raises ValueError there, which was "engine failed" (exit 1) for what is bad input."""
    line = '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":' + "9" * 5000 + "}}"
    path = tmp_path / "raw.json"
    path.write_text(json.dumps({"recording": "x.json", "sessions": [
        {"name": "raw_one", "family": "mcp", "mode": "raw", "title": "t", "lines": [json.dumps(INIT), line]}]}))
    err = _one_line(_cli("run", str(path)), 2)
    assert str(path) in err and "session 'raw_one'" in err and "$.sessions[0].lines[1]" in err, err
    assert "4300 digits" in err, err


# --- serve a2a: bodies Python's JSON takes or chokes on, in process ------------------------------
A2A_HEADERS = {"A2A-Version": "1.0", "Content-Type": "application/json"}


def _post_a2a(body: bytes, app=None) -> "httpx.Response":
    """``body`` posted to ``serve a2a``'s app (by default) or another ASGI app, in process."""
    import asyncio

    import httpx

    from agent_loop_sim.serve.a2a_http import research_app

    async def post() -> httpx.Response:
        transport = httpx.ASGITransport(app=app or research_app())  # an exception in the app is raised here
        async with httpx.AsyncClient(transport=transport, base_url="http://peer") as client:
            return await client.post("/a2a", content=body, headers=A2A_HEADERS)

    return run_async(asyncio.wait_for(post(), 60))


def _send_message(text_json: str) -> bytes:
    return ('{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER",'
            '"parts":[{"text":' + text_json + '}]}}}').encode()


def test_serve_a2a_answers_a_body_nested_too_deep_as_the_sdk_does():
    """Python's parser raises RecursionError on 100,000 nested arrays; the SDK's dispatcher catches
    every exception of its parse as an internal error (-32603, id null). The app let it escape."""
    answer = _post_a2a(_send_message("[" * 100_000 + "]" * 100_000))
    assert answer.status_code == 200
    body = answer.json()
    assert body["id"] is None and body["error"]["code"] == -32603 and "recursion" in body["error"]["message"]


def test_serve_a2a_refuses_a_lone_surrogate_cleanly():
    """protobuf refuses "\\ud800" in params ("Unpaired surrogate"), so the SDK answers -32602; the
    model answered, and writing its answer (which echoes the text) as UTF-8 raised. It now reads
    params as protobuf does and answers with the parser's words (compared with the SDK's own
    answer in test_serve_a2a_values.py)."""
    answer = _post_a2a(_send_message('"\\ud800 hello"'))
    assert answer.status_code == 200 and "Unpaired surrogate at" in answer.text, answer.text
    key = _post_a2a(b'{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t","\\udfff":1}}')
    assert key.status_code == 200 and key.json()["error"]["code"] == -32602, key.text
    assert _post_a2a(_send_message('"hello \\ud83d\\ude00"')).json()["result"]  # a pair is text: answered


def test_serve_a2a_answers_what_is_refused_before_the_params_as_the_sdk_does():
    """A lone surrogate in what the SDK refuses before it reads the params (where protobuf would
    refuse it) is answered as the SDK answers: a method holding one is no method the agent serves
    (-32601, only the id echoed), nor is an unknown one, and a batch is refused whole (-32600).
    Asked of the SDK's own fixture agent, in process, beside the model."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("a2a_sdk_server", ROOT / "conformance" / "a2a_sdk_server.py")
    sdk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sdk)
    for body in (b'{"jsonrpc":"2.0","id":1,"method":"\\ud800","params":{}}',
                 b'{"jsonrpc":"2.0","id":"r","method":"Send\\udfffMessage","params":{"id":"\\ud800"}}',
                 b'{"jsonrpc":"2.0","id":1,"method":"Foo","params":{"id":"\\ud800"}}',
                 b'[{"jsonrpc":"2.0","id":1,"method":"Foo","params":{"x":"\\ud800"}}]',
                 b'{"jsonrpc":"2.0","id":1,"method":["GetTask"],"params":{"x":"\\ud800"}}'):
        theirs, ours = _post_a2a(body, sdk.app()), _post_a2a(body)
        assert (ours.status_code, ours.json()) == (theirs.status_code, theirs.json()), body
        assert ours.json()["error"]["code"] in (-32600, -32601), body


# --- names with terminal escapes ------------------------------------------------------------------
def test_a_file_name_with_terminal_escapes_is_shown_as_text(tmp_path: Path):
    """The session names, values and keys in a message are quoted (repr escapes them); a file name
    was not: a scenario file named ESC[31m...BEL in scenarios/ (a checkout anyone can make) reached
    the terminal raw, changing its colours or title."""
    root = tmp_path / "project"
    (root / "scenarios").mkdir(parents=True)
    (root / "scenarios" / "\x1b]0;pwned\x07\x1b[31mred\u202e.json").write_text("[]")
    err = _one_line(_cli("--root", str(root), "check", cwd=ROOT), 2)
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err, repr(err)
    assert "\\x1b]0;pwned\\x07\\x1b[31mred\\u202e.json" in err, err


# --- options -----------------------------------------------------------------------------------------
def test_serve_a2a_with_a_port_out_of_range_is_a_usage_error():
    for port in ("99999", "-5", "65536"):
        err = _one_line(_cli("serve", "a2a", "--port", port), 2)
        assert "--port" in err and "0-65535" in err, err


def test_one_scenario_file_named_twice_is_checked_once():
    """``check scenarios/*.json scenarios/mcp.json``: the file named twice (even as ./scenarios/...)
    was refused as two files sharing session names and a recording."""
    done = _cli("check", SCN, SCN, "./" + SCN)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("same recordings/sdk_exchanges.json") == 1, done.stdout


def test_a_file_deeper_than_pythons_parser_under_a_raised_depth_limit_says_so(tmp_path: Path):
    """With --max-depth 100000 a file nested 5,000 deep is under the limit, but deeper than Python's
    JSON parser goes; the line said "over the nesting depth limit of 100,000 levels", which is not
    so, and told the user to raise a limit that was already high enough."""
    data = json.loads((ROOT / SCN).read_text())
    data["sessions"] = data["sessions"][:1]
    text = json.dumps(data).replace('"x = 1"', "[" * 5000 + "]" * 5000)
    path = tmp_path / "deep.json"
    path.write_text(text)
    err = _one_line(_cli("--max-depth", "100000", "run", str(path)), 2)
    assert str(path) in err and "Python's JSON parser" in err and "over the nesting depth limit" not in err, err
    err = _one_line(_cli("--max-depth", "64", "run", str(path)), 2)  # under the parser's depth: as before
    assert "over the nesting depth limit of 64 levels" in err, err


def test_site_into_the_scenario_or_recording_folder_is_refused(project_copy: Path):
    """The site's files include conformance.json: written into scenarios/ it would be read as a
    scenario file by every later command (and recordings/ is the check's other input)."""
    for folder in ("scenarios", "recordings", "recordings/verdicts"):
        err = _one_line(_cli("site", folder, cwd=project_copy), 2)
        assert folder in err and "input" in err, err
    assert not list((project_copy / "scenarios").glob("conformance*")), "written into scenarios/"
    assert not list((project_copy / "recordings").glob("conformance*")), "written into recordings/"


def test_record_to_a_recording_path_taken_by_a_folder_is_refused_before_recording(project_copy: Path):
    """The recording's name is a folder in recordings/: write_atomic's rename raised
    IsADirectoryError (a traceback) after the whole recording had run."""
    data = json.loads((project_copy / SCN).read_text())
    session = dict(data["sessions"][0], name="zz_folder")
    path = project_copy / "one.json"
    path.write_text(json.dumps({"recording": "taken.json", "sessions": [session]}))
    (project_copy / "recordings" / "taken.json").mkdir()
    err = _one_line(_cli("record", str(path), "--release", "2.3.0", cwd=project_copy), 2)
    assert "recordings/taken.json" in err and "a folder" in err, err
    assert [p.name for p in (project_copy / "recordings" / "taken.json").iterdir()] == []
    assert not list((project_copy / "recordings").glob(".taken.json.*"))


def test_an_empty_peer_command_is_a_usage_error_not_a_pass():
    """``--mcp-peer ""`` left the recorder's peer variable empty, which it reads as unset: the swap
    test compared the SDK's fixture server with itself and said "same ... against ``"."""
    for option in ("--mcp-peer", "--a2a-peer"):
        for blank in ("", "  "):
            done = _cli("record", "--against", "engine", "--check", SCN, option, blank)
            err = _one_line(done, 2)
            assert option in err and done.stdout == "", err


def test_export_over_a_committed_recording_or_into_scenarios_is_refused(project_copy: Path):
    """``--output recordings/sdk_exchanges.json`` replaced the committed recording with JSON Lines
    (every later check: "not valid JSON"); a .json in scenarios/ is read as a scenario file."""
    recording = project_copy / "recordings" / "sdk_exchanges.json"
    before = recording.read_bytes()
    for output in ("recordings/sdk_exchanges.json", "scenarios/exported.json", "recordings/new/x.jsonl"):
        done = _cli("export", "--format", "jsonl", "--session", "legacy_tour", "--output", output, cwd=project_copy)
        err = _one_line(done, 2)
        assert output.split("/")[0] + "/" in err and "input" in err, err
    assert recording.read_bytes() == before
    assert not (project_copy / "scenarios" / "exported.json").exists()
    assert not (project_copy / "recordings" / "new").exists()


# --- the site's other input: the wire-type verdicts ------------------------------------------------
VERDICTS = "recordings/verdicts/wire_types.json"


def _site_with_verdicts(project_copy: Path, tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    (project_copy / VERDICTS).write_text(text)
    return _cli("site", str(tmp_path / "out"), cwd=project_copy)


def test_a_verdicts_file_of_the_wrong_shape_is_named_not_a_traceback(project_copy: Path, tmp_path: Path):
    """The site read recordings/verdicts/wire_types.json trusting its shape: a number where a
    session's list goes was a TypeError traceback, an unknown verdict a KeyError."""
    first = next(iter(json.loads((ROOT / VERDICTS).read_text())["sessions"]))
    cases = {
        '{"sessions": []}': "$.sessions",
        json.dumps({"sessions": {first: 5}}): f"$.sessions.{first}",
        json.dumps({"sessions": {first: [5]}}): f"$.sessions.{first}[0]",
        json.dumps({"sessions": {first: [{"verdict": "maybe", "against": "x"}]}}): f"$.sessions.{first}[0].verdict",
    }
    for text, path in cases.items():
        done = _site_with_verdicts(project_copy, tmp_path, text)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-1500:]
        assert f"{VERDICTS}, at {path}:" in done.stderr, (path, done.stderr[:1500])
        assert not (tmp_path / "out").exists()


def test_stopping_the_sites_other_half_unread_does_not_hang():
    """`Beside` renders half the site in a forked child, whose result goes back through a pipe.
    When the first half fails (a malformed input, a SIGTERM), the parent stops the child unread:
    SIGTERM, which the child took as the CLI's own `Terminated` (its handler is inherited) and
    caught, then sent again into the full pipe, while the parent waited for it to end: a hang."""
    script = """
import os, signal, sys, time
sys.path.insert(0, sys.argv[1])
from agent_loop_sim import cli
from agent_loop_sim.site.beside import Beside, can_fork
signal.signal(signal.SIGTERM, cli._on_sigterm)  # as cli.main installs it
if not can_fork():
    print("skip"); sys.exit(0)
other = Beside(lambda: "x" * 10_000_000)  # more than a pipe holds: the child blocks sending it
time.sleep(1)
started = time.monotonic()
other.cancel()
print(f"{time.monotonic() - started:.1f}")
"""
    done = subprocess.run([sys.executable, "-c", script, str(ROOT)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-1500:]
    if done.stdout.strip() != "skip":
        assert float(done.stdout) < 3, done.stdout  # at once: the child no longer waits for a reader


def test_a_fixture_server_not_utf8_or_a_fifo_is_a_problem_named_not_a_traceback_or_a_hang(project_copy: Path,
                                                                                          tmp_path: Path):
    """The site shows the fixture servers' sources, read with read_text: bytes that are not UTF-8
    were a UnicodeDecodeError traceback, and a FIFO in the file's place blocked the build."""
    for name, make in (("not UTF-8", lambda p: p.write_bytes(b"\xff\xfe not text")), ("a FIFO", os.mkfifo)):
        path = project_copy / "conformance" / "sdk_server.py"
        path.unlink()
        make(path)
        done = _cli("site", str(tmp_path / "out"), cwd=project_copy)
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr, (name, done.stderr[-1500:])
        assert "conformance/sdk_server.py: the fixture server cannot be read" in done.stderr, (name, done.stderr)
        assert not (tmp_path / "out").exists()


def test_standard_output_on_a_full_device_is_one_line():
    """``run ... > /dev/full``: the write fails with ENOSPC, which was an OSError traceback."""
    if not os.path.exists("/dev/full"):
        pytest.skip("this machine has no /dev/full")
    for args in (["run", SCN, "--session", "legacy_tour"], ["export", "--format", "jsonl", "--session", "legacy_tour"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "agent_loop_sim", *args], cwd=ROOT, stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
        err = _one_line(done, 2)
        assert "No space left on device" in err and "Exception ignored" not in err, err


def test_closed_standard_streams():
    """Started with standard output closed (``>&-``), Python's sys.stdout is None: `check` prints
    nothing and says its verdict by its exit status; `serve mcp`, with no connection, says so in one
    line (both were AttributeError tracebacks)."""
    done = subprocess.run([sys.executable, "-m", "agent_loop_sim", "check", SCN], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=120, pass_fds=(),
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 0 and done.stderr == "", done.stderr[-1000:]
    for fd in (0, 1):
        done = subprocess.run([sys.executable, "-m", "agent_loop_sim", "serve", "mcp"], cwd=ROOT,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=60, preexec_fn=lambda fd=fd: os.close(fd))
        err = _one_line(done, 2)
        assert "serve mcp" in err and "closed" in err, err


def test_a_duplicate_key_is_named_with_its_session_message_and_path(project_copy: Path):
    """A duplicate key named the file only ("duplicate key 'id'"): in a recording of 160 messages
    the reader had to search for it. Now the session, message and JSON path are named too."""
    path = project_copy / "recordings" / "sdk_exchanges.json"
    text = path.read_text()
    data = json.loads(text)
    session = data["sessions"][2]
    marker = json.dumps(session["messages"][3]["json"], indent=2)
    assert '"jsonrpc": "2.0",' in marker
    start = text.index('"name": "' + session["name"] + '"')
    at = text.index('"jsonrpc": "2.0",', text.index('"n": 4,', start))
    path.write_text(text[:at] + '"jsonrpc": "2.0", ' + text[at:])
    err = _one_line(_cli("check", SCN, cwd=project_copy), 2)
    assert "duplicate key 'jsonrpc'" in err, err
    assert f"session '{session['name']}', message 4, at $.sessions[2].messages[3].json" in err, err


def test_an_integer_of_5000_digits_is_named_with_its_path(tmp_path: Path):
    data = json.loads((ROOT / SCN).read_text())
    data["sessions"] = data["sessions"][:1]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data).replace('"x = 1"', "9" * 5000))
    err = _one_line(_cli("run", str(path)), 2)
    assert "session 'legacy_tour', at $.sessions[0].actions[6].arguments.code: not valid here" in err, err


# --- a gap in a served model, with stderr closed ----------------------------------------------------
class _Gap:
    """A model that raises on every line, as a gap in it would (with terminal controls in its words)."""

    def receive(self, line: str):
        raise NotImplementedError("a method \x1b]0;retitled\x07 not modelled")


def test_a_gap_is_told_on_stderr_as_text_and_never_on_stdout(monkeypatch, capsys):
    """print(..., file=sys.stderr) writes to stdout when stderr is None (a peer started with
    `2>&-`): serve mcp's stdout is the client's JSON-RPC stream, serve a2a's first line its URL."""
    from agent_loop_sim.serve import a2a_http, mcp_stdio

    request = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    assert mcp_stdio._answer(_Gap(), request, 1)[0]["error"]["code"] == -32603
    said = capsys.readouterr()
    assert said.out == "" and "\\x1b]0;retitled\\x07" in said.err and "\x1b" not in said.err
    monkeypatch.setattr(sys, "stderr", None)
    mcp_stdio._answer(_Gap(), request, 1)
    a2a_http._warn("agent-loop-sim serve a2a: not modelled: a gap")
    assert capsys.readouterr().out == ""


def test_a_broken_pipe_that_is_not_standard_output_is_not_ended_quietly(monkeypatch):
    """Only standard output's reader gone ends the CLI quietly with 141; a BrokenPipeError from a
    socket (a recorder's server that died mid-session) still stops it loudly."""
    import socket

    from agent_loop_sim import cli

    def broken_socket(project, args):
        ours, theirs = socket.socketpair()
        theirs.close()
        try:
            ours.sendall(b"x" * 100_000)
        finally:
            ours.close()

    monkeypatch.setattr(cli, "cmd_check", broken_socket)
    with pytest.raises(BrokenPipeError):
        cli.main(["check"])


@pytest.mark.parametrize("command", [["run", "scenarios/mcp.json"], ["export", "--format", "jsonl", "--session",
                                                                        "legacy_tour"], ["serve", "a2a", "--port", "0"]])
def test_a_command_whose_result_goes_to_a_closed_standard_output_says_so(command):
    """`run ... >&-`: json.dump to None was an AttributeError traceback; serve a2a died in uvicorn's
    logging set-up. Now one line, exit 2."""
    done = subprocess.run([sys.executable, "-m", "agent_loop_sim", *command], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "standard output" in done.stderr, done.stderr
