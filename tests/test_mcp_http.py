"""MCP over Streamable HTTP: the envelope, its normal form, the engine's transport edge, the scenario rules."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_loop_sim import engine, scenarios
from agent_loop_sim.check import build_report
from agent_loop_sim.errors import InputError
from agent_loop_sim.mcp_http_log import in_transcript_order, kept_headers, reply_message, request_message
from agent_loop_sim.normalise import normalise_mcp_http
from agent_loop_sim.project import Project
from conftest import ROOT, run_async, run_cli

HTTP_FILE = ROOT / "scenarios" / "mcp_http.json"


def _session(name: str):
    return scenarios.load(HTTP_FILE).session(name)


def _envelope(transcript):
    return [(m.sender, (m.http or {}).get("method") or (m.http or {}).get("status"),
             [name for name, _ in (m.http or {}).get("headers", [])]) for m in transcript.messages]


def test_only_the_transport_headers_are_kept_under_one_spelling():
    assert kept_headers([("host", "x"), ("mcp-session-id", "a"), ("content-length", "3"),
                         ("mcp-protocol-version", "2025-11-25"), ("ACCEPT", "*/*")]) == [
        ["Mcp-Session-Id", "a"], ["MCP-Protocol-Version", "2025-11-25"], ["Accept", "*/*"]]


def test_issued_session_ids_are_numbered_and_a_made_up_one_stays():
    messages = [request_message("POST", "/mcp", [("Mcp-Session-Id", "made-up")], {}),
                reply_message(404, [("Content-Type", "application/json")], {}),
                request_message("POST", "/mcp", [], {}),
                reply_message(200, [("Mcp-Session-Id", "f00d")], {}),
                request_message("POST", "/mcp", [("Mcp-Session-Id", "f00d")], {}),
                reply_message(400, [("Mcp-Session-Id", "beef")], {})]
    normalise_mcp_http(messages)
    ids = [dict(m.http["headers"]).get("Mcp-Session-Id") for m in messages]
    assert ids == ["made-up", None, None, "<session-1>", "<session-1>", "<session-2>"]


def test_the_clients_get_stream_is_written_after_the_exchange_that_opened_it():
    def exchange(method, body):
        return [request_message(method, "/mcp", [], body), reply_message(200, [])]
    initialized = exchange("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"})
    listed = exchange("POST", {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    get = exchange("GET", None)
    ordered = in_transcript_order([initialized, listed, get])
    assert ordered == [*initialized, *get, *listed]


def test_the_engine_speaks_each_era_over_http():
    legacy = engine.run_session(_session("http_legacy_tour"))
    assert _envelope(legacy)[:6] == [
        ("client", "POST", ["Accept", "Content-Type"]),
        ("server", 200, ["Content-Type", "Mcp-Session-Id"]),
        ("client", "POST", ["Accept", "Content-Type", "Mcp-Session-Id", "MCP-Protocol-Version"]),
        ("server", 202, ["Content-Type", "Mcp-Session-Id"]),
        ("client", "GET", ["Accept", "Content-Type", "Mcp-Session-Id", "MCP-Protocol-Version"]),
        ("server", 200, ["Content-Type", "Mcp-Session-Id"])]
    assert _envelope(legacy)[-2][1] == "DELETE"
    modern = engine.run_session(_session("http_modern_errors"))
    assert [e[1] for e in _envelope(modern)] == ["POST", 200, "POST", 200, "POST", 400]
    assert _envelope(modern)[4][2] == ["Accept", "Content-Type", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"]


def test_a_call_never_answered_over_http_times_out_and_the_session_goes_on():
    waiting = scenarios.load(ROOT / "scenarios" / "mcp_http_values_waiting.json")
    legacy = engine.run_session(waiting.session("http_waiting_legacy_timeout"))
    said = [(m.sender, (m.json or {}).get("method") or (m.json or {}).get("error", {}).get("code")) for m in legacy.messages]
    # the handshake era POSTs its cancel (202), the transport ends the call's stream with -32800,
    # and the next call is answered
    assert said[7:12] == [("server", -32800), ("client", "notifications/cancelled"), ("server", None),
                          ("client", "tools/call"), ("server", None)]
    assert legacy.messages[9].http["status"] == 202
    auto = engine.run_session(waiting.session("http_waiting_auto_timeout"))
    # 2026-07-28: the unanswered call's reply is a stream (its progress on it), which the client
    # closes: no cancel is POSTed, the next request comes at once
    assert [m.sse for m in auto.messages[2:4]] == [False, True]
    assert auto.messages[4].json["method"] == "prompts/list" and len(auto.messages) == 6


def _http_twin(name: str) -> str:
    """The HTTP file of an MCP scenario file over stdio: mcp.json, mcp_X.json, world_X.json."""
    if name == "mcp.json":
        return "mcp_http.json"
    family, rest = name.split("_", 1)
    return f"{family}_http_{rest}"


def _twin_problems(folder: Path) -> list[str]:
    """Every MCP scenario file over stdio has its HTTP twin, against the same world, whose client
    sessions are the stdio file's own (``http_`` before the name, the title marked), unchanged."""
    problems = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        if data.get("transport") == "http" or {s["family"] for s in data["sessions"]} != {"mcp"}:
            continue
        twin = folder / _http_twin(path.name)
        if not twin.exists():
            problems.append(f"{path.name}: no {twin.name}")
            continue
        http = json.loads(twin.read_text())
        if http.get("transport") != "http" or http.get("world") != data.get("world"):
            problems.append(f"{twin.name}: not over http against {path.name}'s world")
        stdio = {s["name"]: s for s in data["sessions"]}
        for session in http["sessions"]:
            if session["mode"] == "raw":  # (hand-written HTTP requests: no stdio counterpart)
                continue
            own = stdio.get(session["name"].removeprefix("http_"))
            rest = {k: v for k, v in session.items() if k not in ("name", "title")}
            if own is None or rest != {k: v for k, v in own.items() if k not in ("name", "title")} or \
                    session["title"] != own["title"] + " (over Streamable HTTP)":
                problems.append(f"{twin.name}: {session['name']} is not {path.name}'s session over HTTP")
    return problems


def test_every_mcp_scenario_file_has_its_twin_over_http_and_a_drift_is_named(tmp_path: Path):
    assert _twin_problems(ROOT / "scenarios") == []
    for path in (ROOT / "scenarios").glob("*.json"):
        (tmp_path / path.name).write_text(path.read_text())
    (tmp_path / "world_http_notes.json").unlink()
    waiting = json.loads((tmp_path / "mcp_http_values_waiting.json").read_text())
    waiting["sessions"][0]["actions"][0]["read_timeout_seconds"] = 5
    (tmp_path / "mcp_http_values_waiting.json").write_text(json.dumps(waiting))
    assert _twin_problems(tmp_path) == [
        "mcp_http_values_waiting.json: "
        "http_waiting_legacy_timeout is not mcp_values_waiting.json's session over HTTP",
        "world_notes.json: no world_http_notes.json"]


def test_a_changed_header_in_the_engine_is_caught():
    files = [f for f in Project(ROOT).scenario_files() if f.path.endswith("mcp_http.json")]
    assert build_report(Project(ROOT), files=files).ok

    def wrong_version(session):
        t = engine.run_session(session)
        if session.name == "http_legacy_tour":
            t.messages[2].http["headers"][3][1] = "2025-06-18"
        return t

    (problem,) = build_report(Project(ROOT), wrong_version, files=files).problems
    assert "session 'http_legacy_tour', message 3" in problem and "2025-06-18" in problem


@pytest.mark.parametrize(("change", "said"), [
    (lambda d: d["sessions"][0].update(mode="raw", lines=["{}"]) or [d["sessions"][0].pop(k) for k in ("actions",)],
     "a raw session over http has 'requests', not 'lines'"),
    (lambda d: d["sessions"].__setitem__(0, {"name": "x", "family": "mcp", "title": "t", "mode": "raw",
                                              "requests": [{"method": "PUT"}]}), "$.sessions[0].requests[0].method"),
    (lambda d: d["sessions"].__setitem__(0, {"name": "x", "family": "mcp", "title": "t", "mode": "raw",
                                              "requests": [{"method": "POST", "headers": [["A"]]}]}),
     "a header is [NAME, VALUE]"),
    (lambda d: d.update(transport="carrier-pigeon"), "$.transport"),
])
def test_a_bad_http_scenario_is_one_line(tmp_path: Path, change, said):
    data = json.loads(HTTP_FILE.read_text())
    change(data)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=None) as caught:
        scenarios.load(path)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_requests_in_a_stdio_file_and_a_transport_for_a2a_are_refused(tmp_path: Path):
    stdio = {"recording": "x.json", "sessions": [{"name": "x", "family": "mcp", "title": "t", "mode": "raw",
                                                  "requests": [{"method": "GET"}]}]}
    (tmp_path / "a.json").write_text(json.dumps(stdio))
    with pytest.raises(InputError, match="a raw session over stdio has 'lines', not 'requests'"):
        scenarios.load(tmp_path / "a.json")
    a2a = json.loads((ROOT / "scenarios" / "a2a.json").read_text())
    a2a["transport"] = "http"
    (tmp_path / "b.json").write_text(json.dumps(a2a))
    with pytest.raises(InputError, match="a2a sessions have one transport"):
        scenarios.load(tmp_path / "b.json")
    done = run_cli("run", str(tmp_path / "b.json"))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def _app():
    from agent_loop_sim.protocols.mcp import FIXTURE_SERVER, ServerConnection
    from agent_loop_sim.protocols.mcp.http_transport import StreamableHttpApp

    return StreamableHttpApp(lambda: ServerConnection(FIXTURE_SERVER))


INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}})
HOST = ("Host", "127.0.0.1:8000")
BOTH = ("Accept", "application/json, text/event-stream")
JSON_BODY = ("Content-Type", "application/json")


def test_the_app_keeps_a_session_only_when_a_valid_initialize_opened_it():
    app = _app()
    refused = app.handle("POST", [HOST, ("Accept", "application/json"), JSON_BODY], INIT)
    assert refused.status == 406 and dict(refused.headers)["Mcp-Session-Id"] not in app.sessions
    opened = app.handle("POST", [HOST, BOTH, JSON_BODY], INIT)
    session = dict(opened.headers)["Mcp-Session-Id"]
    assert opened.status == 200 and opened.events[0]["result"]["protocolVersion"] == "2025-11-25"
    assert app.handle("DELETE", [HOST, ("Mcp-Session-Id", session)], None).status == 200
    assert app.handle("DELETE", [HOST, ("Mcp-Session-Id", session)], None).body["error"]["message"] == "Session not found"


@pytest.mark.parametrize(("text", "said"), [
    ("{not json", "key must be a string at line 1 column 2"),
    ("", "EOF while parsing a value at line 1 column 0"),
])
def test_a_body_that_is_not_json_is_answered_in_the_sdk_parsers_words(text, said):
    reply = _app().handle("POST", [HOST, BOTH, JSON_BODY], text)
    assert (reply.status, reply.body["error"]["message"]) == (400, "Parse error: " + said)


def test_a_2026_07_28_request_whose_headers_disagree_with_its_body_is_refused_before_the_server_sees_it():
    body = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "add", "arguments": {"a": 1, "b": 2},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}})
    headers = [HOST, BOTH, JSON_BODY, ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call")]
    wrong_name = _app().handle("POST", headers + [("Mcp-Name", "sub")], body)
    assert (wrong_name.status, wrong_name.body["error"]["code"], wrong_name.body["id"]) == (400, -32020, 5)
    right = _app().handle("POST", headers + [("Mcp-Name", "add")], body)
    assert right.status == 200 and right.body["result"]["structuredContent"] == {"result": 3}
    assert _app().handle("GET", [HOST, ("MCP-Protocol-Version", "2026-07-28")], None).headers == [("Allow", "POST")]


def test_serve_mcp_http_answers_as_the_model_does_over_a_real_socket():
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    process = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "serve", "mcp", "--http", "--port", "0"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        request = urllib.request.Request(url, data=INIT.encode(), method="POST",
                                         headers={"Accept": "application/json", "Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 406 and "must accept both" in refused.value.read().decode()
        request = urllib.request.Request(url, data=INIT.encode(), method="POST", headers=dict([BOTH, JSON_BODY]))
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.headers["Content-Type"] == "text/event-stream" and answer.headers["Mcp-Session-Id"]
            event = answer.read().decode()
        assert event.startswith("event: message\r\ndata: ") and '"protocolVersion":"2025-11-25"' in event
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serve_mcp_http_on_a_port_taken_is_one_line():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        done = run_cli("serve", "mcp", "--http", "--port", str(taken.getsockname()[1]), timeout=30)
    assert done.returncode == 2 and done.stderr.strip().startswith("error: cannot listen on 127.0.0.1:")
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_host_or_origin_other_than_the_loopbacks_is_refused_as_the_sdk_guards_against_dns_rebinding():
    evil = _app().handle("POST", [("Host", "evil.example.com"), BOTH, JSON_BODY], INIT)
    assert (evil.status, evil.text) == (421, "Invalid Host header")
    origin = _app().handle("POST", [HOST, ("Origin", "http://evil.example.com"), BOTH, JSON_BODY], INIT)
    assert (origin.status, origin.text) == (403, "Invalid Origin header")
    assert _app().handle("POST", [("Host", "localhost:1"), ("Origin", "http://localhost:1"), BOTH, JSON_BODY],
                         INIT).status == 200


def test_the_committed_conformance_suite_table_has_one_verdict_per_check_and_a_flip_is_named():
    import importlib.util

    spec = importlib.util.spec_from_file_location("mcp_conformance_suite", ROOT / "scripts" / "mcp_conformance_suite.py")
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)
    rows = json.loads((ROOT / "recordings" / "verdicts" / "mcp_conformance_suite.json").read_text())["checks"]
    assert rows and suite.differences(rows) == []
    rows[0]["engine"] = {"status": "SUCCESS" if rows[0]["sdk"]["status"] != "SUCCESS" else "FAILURE"}
    (flagged,) = suite.differences(rows)
    assert flagged.startswith(f"{rows[0]['scenario']} / {rows[0]['check']}: the SDK's server ")


def test_the_suite_page_shows_both_columns_and_names_a_difference(tmp_path: Path):
    from agent_loop_sim.site.pages.suite import SUITE_TABLE, render_suite

    page = render_suite(ROOT)
    data = json.loads((ROOT / SUITE_TABLE).read_text())
    total = len(data["checks"])
    assert f"**{total} of {total} checks get the same verdict" in page and "**different**" not in page
    data["checks"][0]["engine"] = {"status": "SUCCESS"}
    (tmp_path / SUITE_TABLE).parent.mkdir(parents=True)
    (tmp_path / SUITE_TABLE).write_text(json.dumps(data))
    flipped = render_suite(tmp_path)
    assert f"**{total - 1} of {total} checks" in flipped and "**different**" in flipped


def test_the_http_findings_hold_and_a_changed_envelope_breaks_them():
    from agent_loop_sim.recording import load_recording
    from agent_loop_sim.site.findings.evidence import Recorded, check_finding, load_findings
    from agent_loop_sim.site.findings import FINDINGS_FILE

    findings = [f for f in load_findings(json.loads(FINDINGS_FILE.read_text()), str(FINDINGS_FILE))
                if f.id.startswith("mcp-http-")]
    assert len(findings) == 4
    recordings = [load_recording(str(path)) for path in sorted((ROOT / "recordings").glob("*.json"))]
    transcripts = {t.name: t for r in recordings if r.family == "mcp" for t in r.sessions}
    assert all(check_finding(f, Recorded(transcripts), ["mcp"]).holds for f in findings)
    transcripts["http_modern_errors"].messages[5].http["status"] = 200  # as if the SDK sent every error with 200
    broken = check_finding(next(f for f in findings if f.id == "mcp-http-error-status"), Recorded(transcripts), ["mcp"])
    assert not broken.holds and "the HTTP envelope's $.status is 200, the finding needs 400" in broken.failures[0]


def test_a_peer_that_prints_no_url_is_one_line_naming_the_session(tmp_path: Path):
    import os
    import sys

    data = json.loads(HTTP_FILE.read_text())
    data["sessions"] = data["sessions"][:1]
    data["recording"] = "one.json"
    path = tmp_path / "one.json"
    path.write_text(json.dumps(data))
    env = {**os.environ, "AGENT_LOOP_SIM_MCP_HTTP_PEER": f"{sys.executable} -c pass"}
    done = subprocess_run([sys.executable, str(ROOT / "scripts" / "record_mcp_http.py"), str(path), "--timeout", "20"], env)
    assert done.returncode == 1 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("record_mcp_http: session 'http_legacy_tour': the peer ") and "without printing its URL" in line


def subprocess_run(command, env):
    import subprocess

    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)


def test_the_engines_client_over_http_against_the_sdks_server_is_the_recording_and_a_flip_shows():
    from agent_loop_sim.compare import diff_sessions
    from agent_loop_sim.recording import load_recording
    from agent_loop_sim.swap_http import drive_all_http

    names = ("http_legacy_elicit_accept", "http_modern_elicit_accept")
    sessions = [s for s in scenarios.load(HTTP_FILE).sessions if s.name in names]
    driven = drive_all_http(ROOT, sessions, 20.0)
    committed = [t for t in load_recording(str(ROOT / "recordings" / "sdk_exchanges_http.json")).sessions
                 if t.name in names]
    assert diff_sessions(committed, driven) == []
    driven[0].messages[2].http["headers"][3][1] = "2025-06-18"  # as if the client sent another revision
    (difference,) = diff_sessions(committed, driven)
    assert "2025-06-18" in difference.render("committed", "live")


# --- When a reply starts: the SDK's app over a real socket, and serve mcp --http -----------------

WAITING_WORLD = ROOT / "worlds" / "waiting.json"
#: Long enough for any reply due at once to arrive on a loaded machine, well short of the 15 s
#: after which the SDK's app writes its first keepalive.
QUIET_SECONDS = 1.0
MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}
BOTH_AND_JSON = [("Accept", "application/json, text/event-stream"), ("Content-Type", "application/json")]


def _served(command: list[str]):
    import os
    import subprocess

    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "AGENT_LOOP_SIM_WORLD": str(WAITING_WORLD)})
    url = process.stdout.readline().strip()
    return process, int(url.rsplit(":", 1)[1].split("/")[0])


def _post(port: int, headers: list[tuple[str, str]], body: dict):
    import socket

    data = json.dumps(body).encode()
    head = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {len(data)}\r\n"
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall((head + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n").encode() + data)
    return connection


def _whole_reply(heard: bytes) -> bool:
    head, _, body = heard.partition(b"\r\n\r\n")
    length = [line.split(b": ")[1] for line in head.lower().split(b"\r\n") if line.startswith(b"content-length: ")]
    return len(body) >= int(length[0]) if length else body.endswith(b"\r\n0\r\n\r\n") or body == b"0\r\n\r\n"


def _heard(connection, seconds: float) -> bytes:
    """Every byte the server wrote within ``seconds`` (or until its reply ended), after which the
    client hangs up."""
    import socket
    import time

    heard, end = b"", time.monotonic() + seconds
    try:
        while (left := end - time.monotonic()) > 0 and not _whole_reply(heard):
            connection.settimeout(left)
            try:
                chunk = connection.recv(1 << 16)
            except socket.timeout:
                break
            if not chunk:
                break
            heard += chunk
    finally:
        connection.close()
    return heard


def _observed(heard: bytes) -> tuple:
    """What a client makes of the bytes: nothing, or the status line, the headers (their order
    carries no meaning; the date and the server's name aside, a session id named as such) and the
    body's chunks, as written."""
    if not heard:
        return ("no reply",)
    head, _, body = heard.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = [tuple(line.split(": ", 1)) for line in lines]
    headers = sorted((k.lower(), "<session>" if k.lower() == "mcp-session-id" else v) for k, v in headers
                     if k.lower() not in ("date", "server"))
    chunks = []
    while body and dict(headers).get("transfer-encoding") == "chunked":
        size, _, rest = body.partition(b"\r\n")
        if int(size, 16) == 0:
            chunks.append("<end>")
            break
        chunks.append(rest[:int(size, 16)].decode())
        body = rest[int(size, 16) + 2:]
    return status, headers, chunks if dict(headers).get("transfer-encoding") == "chunked" else body.decode()


def _modern_call(name: str, arguments: dict | None = None, progress: int | None = None) -> tuple[list, dict]:
    params = {"name": name, "_meta": dict(MODERN_META)}
    if arguments is not None:
        params["arguments"] = arguments
    if progress is not None:
        params["_meta"]["progressToken"] = progress
    headers = [*BOTH_AND_JSON, ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"),
               ("Mcp-Name", name)]
    return headers, {"jsonrpc": "2.0", "id": progress or 2, "method": "tools/call", "params": params}


def _when_replies_start(port: int) -> dict[str, tuple]:
    """A client's view of calls the server never answers, in each era, heard for QUIET_SECONDS
    at once (one connection each) before it hangs up; then of the call after, in each era."""
    from concurrent.futures import ThreadPoolExecutor

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    heard = _heard(_post(port, BOTH_AND_JSON, init), QUIET_SECONDS)
    session, opened = heard.split(b"mcp-session-id: ")[1].split(b"\r\n")[0], _observed(heard)
    in_session = [*BOTH_AND_JSON, ("Mcp-Session-Id", session.decode()), ("MCP-Protocol-Version", "2025-11-25")]
    _heard(_post(port, in_session, {"jsonrpc": "2.0", "method": "notifications/initialized"}), QUIET_SECONDS)
    calls = {
        "2026-07-28, silent": _modern_call("wait"),
        "2026-07-28, progress first": _modern_call("report_then_wait", {"steps": 2}, progress=7),
        "2026-07-28, progress not asked for": _modern_call("report_then_wait", {"steps": 2}),
        "handshake era, silent": (in_session, {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                                               "params": {"name": "wait"}}),
    }
    with ThreadPoolExecutor(len(calls)) as pool:
        heard = dict(zip(calls, pool.map(lambda c: _heard(_post(port, *c), QUIET_SECONDS), calls.values())))
    seen = {name: _observed(h) for name, h in heard.items()}
    seen["handshake era, initialize"] = opened
    # After the client hung up on them, the server answers the next call, in either era.
    seen["2026-07-28, the next call"] = _observed(_heard(_post(port, *_modern_call("echo", {"text": "t"})), QUIET_SECONDS))
    seen["handshake era, the next call"] = _observed(_heard(_post(port, in_session, {
        "jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "t"}}}),
        QUIET_SECONDS))
    return seen


def test_a_reply_starts_when_the_sdks_app_starts_it_and_not_before():
    """The SDK's app commits a 2026-07-28 reply (JSON or an event stream) only with the first
    thing the server says for the request: a call that has said nothing has no status line yet.
    A handshake-era stream starts at once. serve mcp --http, from the same world, must show a
    client the same: nothing, or the same status, headers and chunks, then the same next answer."""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    commands = [[sys.executable, str(ROOT / "conformance" / "sdk_http_server.py")],
                [sys.executable, "-m", "agent_loop_sim", "serve", "mcp", "--http", "--port", "0"]]
    with ThreadPoolExecutor(2) as pool:
        servers = list(pool.map(_served, commands))
        try:
            sdk, ours = pool.map(lambda server: _when_replies_start(server[1]), servers)
        finally:
            for process, _ in servers:
                process.terminate()
                process.wait(timeout=10)
    assert sdk["2026-07-28, silent"] == ("no reply",)  # (what the SDK does: the point of the comparison)
    assert sdk["2026-07-28, progress not asked for"] == ("no reply",)
    assert sdk["handshake era, silent"][0] == "HTTP/1.1 200 OK"
    assert len(sdk["2026-07-28, progress first"][2]) == 2  # (two progress notifications, then nothing)
    assert ours == sdk


def test_the_model_starts_a_2026_07_28_reply_only_with_what_the_server_says_and_a_handshake_one_at_once():
    from datetime import datetime, timezone

    from agent_loop_sim.protocols.mcp import ServerConnection
    from agent_loop_sim.protocols.mcp.http_transport import (HANDSHAKE_KEEPALIVE, STATELESS_KEEPALIVE,
                                                             StreamableHttpApp)
    from agent_loop_sim.scenarios import read_world_file

    world = read_world_file("mcp", str(WAITING_WORLD))
    app = StreamableHttpApp(lambda: ServerConnection(world))
    headers, body = _modern_call("wait")
    silent = app.handle("POST", [HOST, *headers], json.dumps(body))
    assert (silent.status, silent.deferred, silent.messages()) == (200, True, [])  # no reply on the wire yet
    assert silent.keepalive is STATELESS_KEEPALIVE and silent.stream is not None
    headers, body = _modern_call("report_then_wait", {"steps": 1}, progress=7)
    progress = app.handle("POST", [HOST, *headers], json.dumps(body))
    assert not progress.deferred and [m.http["status"] for m in progress.messages()] == [200]
    opened = app.handle("POST", [HOST, BOTH, JSON_BODY], INIT)
    session = dict(opened.headers)["Mcp-Session-Id"]
    in_session = [HOST, BOTH, JSON_BODY, ("Mcp-Session-Id", session), ("MCP-Protocol-Version", "2025-11-25")]
    waiting = app.handle("POST", in_session, json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                                                         "params": {"name": "wait"}}))
    assert (waiting.deferred, waiting.keepalive) == (False, HANDSHAKE_KEEPALIVE)
    assert [m.http["status"] for m in waiting.messages()] == [200]  # the stream's start, no event yet
    # Quiet for 15 s: the 2026-07-28 entry's bare comment, sse-starlette's names the time.
    at = datetime(2026, 12, 7, 8, 37, 49, 990930, tzinfo=timezone.utc)
    assert STATELESS_KEEPALIVE.comment(at) == b": ping\r\n\r\n"
    assert HANDSHAKE_KEEPALIVE.comment(at) == b": ping - 2026-12-07 08:37:49.990930+00:00\r\n\r\n"


def test_serve_mcp_http_writes_the_keepalive_the_model_says_and_starts_a_deferred_reply_with_it(monkeypatch):
    """The ASGI edge follows the model's `Keepalive` (shortened here from the SDK's 15 s): a
    deferred 2026-07-28 reply starts with the first keepalive, a handshake-era stream at once."""
    import asyncio
    import time

    from agent_loop_sim.protocols.mcp import ServerConnection
    from agent_loop_sim.protocols.mcp import http_transport
    from agent_loop_sim.scenarios import read_world_file
    from agent_loop_sim.serve.mcp_http import McpHttpApp

    monkeypatch.setattr(http_transport, "STATELESS_KEEPALIVE", http_transport.Keepalive(0.3, True, False))
    monkeypatch.setattr(http_transport, "HANDSHAKE_KEEPALIVE", http_transport.Keepalive(0.3, False, True))
    app = McpHttpApp(read_world_file("mcp", str(WAITING_WORLD)))

    async def exchange(headers: list[tuple[str, str]], body: dict, seconds: float) -> list[tuple[float, dict]]:
        """What the app sends within ``seconds`` (each with when), then the client hangs up."""
        sent, started, hung_up = [], time.monotonic(), asyncio.Event()
        scope = {"type": "http", "method": "POST", "path": "/mcp",
                 "headers": [(k.lower().encode(), v.encode()) for k, v in [HOST, *headers]]}
        requests = [{"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}]

        async def receive():
            if requests:
                return requests.pop(0)
            await hung_up.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append((time.monotonic() - started, message))

        served = asyncio.ensure_future(app(scope, receive, send))
        await asyncio.sleep(seconds)
        hung_up.set()
        await asyncio.wait_for(served, 5)
        return sent

    async def both():
        modern = await exchange(*_modern_call("wait"), 0.5)
        opened = await exchange([BOTH, JSON_BODY], json.loads(INIT), 0.1)
        session = dict((k.decode(), v.decode()) for k, v in opened[0][1]["headers"])["mcp-session-id"]
        in_session = [BOTH, JSON_BODY, ("Mcp-Session-Id", session), ("MCP-Protocol-Version", "2025-11-25")]
        legacy = await exchange(in_session, {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                                             "params": {"name": "wait"}}, 0.5)
        return modern, legacy

    modern, legacy = run_async(both())
    written = [(m["type"], m.get("body")) for _, m in modern]
    assert written == [("http.response.start", None), ("http.response.body", b": ping\r\n\r\n"),
                       ("http.response.body", b"")]  # (the end, once the client hung up)
    assert modern[0][0] >= 0.25  # nothing before the keepalive
    written = [(m["type"], m.get("body", b"")[:10]) for _, m in legacy]
    assert written == [("http.response.start", b""), ("http.response.body", b": ping - 2"), ("http.response.body", b"")]
    assert legacy[0][0] < 0.25  # started at once
