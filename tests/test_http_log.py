"""The A2A HTTP envelope: written down for every A2A message, compared like the bodies."""
from __future__ import annotations

import json
from pathlib import Path

from agent_loop_sim import engine, scenarios
from agent_loop_sim.http_log import http_reply, http_request, kept_headers
from conftest import ROOT, run_cli


def test_only_the_headers_that_matter_are_kept_in_order_under_one_spelling():
    sent = [("content-length", "12"), ("etag", 'W/"x"'), ("content-type", "application/json"), ("A2A-VERSION", "1.0")]
    assert kept_headers(sent) == [["ETag", 'W/"x"'], ["Content-Type", "application/json"], ["A2A-Version", "1.0"]]
    assert http_request("GET", "https://a.example/.well-known/agent-card.json", []) == {
        "method": "GET", "path": "/.well-known/agent-card.json", "headers": []}
    assert http_reply(304, [("etag", "e")]) == {"status": 304, "headers": [["ETag", "e"]]}


def _session(name: str, file: str = "a2a_more.json"):
    return next(s for s in scenarios.load(ROOT / "scenarios" / file).sessions if s.name == name)


def test_the_engine_writes_the_version_header_that_decides_a2a_versions():
    messages = engine.run_session(_session("a2a_versions")).messages
    first, third = messages[0], messages[2]
    assert ["A2A-Version", "0.3"] in first.http["headers"] and ["A2A-Version", "1.0.1"] in third.http["headers"]
    assert messages[1].http == {"status": 200, "headers": [["Content-Type", "application/json"]]}


def test_every_a2a_message_carries_http_and_a_stream_only_on_its_first_event():
    for file in ("a2a.json", "a2a_more.json", "a2a_surface.json"):
        data = json.loads((ROOT / "recordings" / scenarios.load(ROOT / "scenarios" / file).recording).read_text())
        for session in data["sessions"]:
            previous_sse = False
            for m in session["messages"]:
                if m["sse"] and previous_sse:
                    assert "http" not in m, (session["name"], m["n"])
                else:
                    assert "http" in m, (session["name"], m["n"])
                previous_sse = m["sse"]
    stream = json.loads((ROOT / "recordings" / "a2a_sdk_exchanges.json").read_text())["sessions"][1]
    assert stream["name"] == "a2a_stream"
    assert stream["messages"][3]["http"] == {"status": 200,
                                             "headers": [["Content-Type", "text/event-stream; charset=utf-8"]]}


def _flip(project: Path, recording: str, session: str, n: int, change) -> None:
    path = project / "recordings" / recording
    data = json.loads(path.read_text())
    message = next(s for s in data["sessions"] if s["name"] == session)["messages"][n - 1]
    change(message["http"])
    path.write_text(json.dumps(data, indent=2))


def test_check_fires_on_a_changed_request_header(project_copy: Path):
    _flip(project_copy, "a2a_sdk_exchanges_more.json", "a2a_versions", 1,
          lambda http: http["headers"].__setitem__(1, ["A2A-Version", "1.0"]))
    done = run_cli("check", "scenarios/a2a_more.json", cwd=project_copy)
    assert done.returncode == 1
    assert "session 'a2a_versions', message 1, $.http.headers[1][1]: committed \"1.0\", engine \"0.3\"" in done.stdout


def test_check_fires_on_a_changed_status_and_card_header(project_copy: Path):
    def change(http):
        http["status"] = 203
        http["headers"].reverse()

    _flip(project_copy, "a2a_sdk_exchanges.json", "a2a_send", 2, change)
    done = run_cli("check", "scenarios/a2a.json", cwd=project_copy)
    assert done.returncode == 1
    assert "session 'a2a_send', message 2, $.http.status: committed 203, engine 200" in done.stdout
    assert "session 'a2a_send', message 2, $.http.headers[0][0]: committed \"Content-Type\", engine \"ETag\"" \
        in done.stdout


def test_a_malformed_envelope_is_one_line_naming_its_place(project_copy: Path):
    _flip(project_copy, "a2a_sdk_exchanges.json", "a2a_send", 1, lambda http: http.__setitem__("headers", [["A"]]))
    done = run_cli("check", "scenarios/a2a.json", cwd=project_copy)
    assert done.returncode != 0 and "Traceback" not in done.stderr + done.stdout
    said = done.stdout + done.stderr
    assert "a header is a [name, value] pair of strings" in said and "$.sessions[0].messages[0].http.headers[0]" in said


def test_check_fires_on_a_changed_key_order(project_copy: Path):
    path = project_copy / "recordings" / "a2a_sdk_exchanges.json"
    data = json.loads(path.read_text())
    answer = data["sessions"][0]["messages"][3]
    answer["json"] = dict(reversed(list(answer["json"].items())))
    path.write_text(json.dumps(data, indent=2))
    done = run_cli("check", "scenarios/a2a.json", cwd=project_copy)
    assert done.returncode == 1
    assert ("session 'a2a_send', message 4, $ (key order): committed [\"jsonrpc\",\"id\",\"result\"], "
            "engine [\"result\",\"id\",\"jsonrpc\"]") in done.stdout
