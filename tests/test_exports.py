"""Exports: JSON Lines and HAR per session, JUnit XML for the run; and where the site puts them."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from agent_loop_sim import exports
from agent_loop_sim.check import Report, build_report
from agent_loop_sim.project import Project
from agent_loop_sim.recording import load_recording
from agent_loop_sim.site.build import export_files
from conftest import ROOT, run_cli

A2A = ["a2a_sdk_exchanges.json", "a2a_sdk_exchanges_more.json", "a2a_sdk_exchanges_surface.json"]
ALL = A2A + ["a2a_sdk_exchanges_releases.json", "sdk_exchanges.json", "sdk_exchanges_more.json",
             "sdk_exchanges_surface.json"]
BASE = "https://research.example.com"


@pytest.mark.parametrize("name", ALL)
def test_json_lines_round_trip_to_the_transcript(name):
    for t in load_recording(str(ROOT / "recordings" / name)).sessions:
        text = exports.transcript_jsonl(t)
        assert len(text.splitlines()) == len(t.messages)
        assert exports.read_jsonl(text) == t.messages, t.name
        first = json.loads(text.splitlines()[0])
        assert first["n"] == 1 and {"from", "to", "sse"} <= first.keys()


@pytest.mark.parametrize("name", A2A)
def test_har_has_one_entry_per_exchange_with_the_recorded_headers(name):
    for t in load_recording(str(ROOT / "recordings" / name)).sessions:
        har = json.loads(exports.transcript_har(t, BASE, "0"))["log"]
        assert har["version"] == "1.2" and har["creator"]["name"] == "agent_loop_sim"
        requests = [m for m in t.messages if m.http and "method" in m.http]
        assert len(har["entries"]) == len(requests) > 0, t.name
        for entry, (request, answer) in zip(har["entries"], exports.exchanges(t.messages)):
            assert entry["request"]["method"] == request.http["method"]
            assert entry["request"]["url"] == BASE + request.http["path"]
            assert [[h["name"], h["value"]] for h in entry["request"]["headers"]] == request.http["headers"]
            assert entry["response"]["status"] == answer[0].http["status"]
            assert [[h["name"], h["value"]] for h in entry["response"]["headers"]] == answer[0].http["headers"]
            content = entry["response"]["content"]
            if answer[0].sse:
                assert content["mimeType"].startswith("text/event-stream")
                assert content["text"].count("data: ") == len(answer)
            elif answer[0].json is not None:
                assert json.loads(content["text"]) == answer[0].json
            _has_what_har_requires(entry)


# HAR 1.2's required members (W3C draft, "HAR 1.2 Spec"), by object.
HAR_REQUIRED = {
    "entry": ("startedDateTime", "time", "request", "response", "cache", "timings"),
    "request": ("method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"),
    "response": ("status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                 "headersSize", "bodySize"),
    "content": ("size", "mimeType"),
    "timings": ("send", "wait", "receive"),
}


def _has_what_har_requires(entry: dict) -> None:
    objects = {"entry": entry, "request": entry["request"], "response": entry["response"],
               "content": entry["response"]["content"], "timings": entry["timings"]}
    for name, required in HAR_REQUIRED.items():
        missing = [key for key in required if key not in objects[name]]
        assert not missing, (name, missing)


def test_the_har_of_a2a_versions_shows_the_header_that_decides():
    t = load_recording(str(ROOT / "recordings" / "a2a_sdk_exchanges_more.json")).session("a2a_versions")
    entries = json.loads(exports.transcript_har(t, BASE, "0"))["log"]["entries"]
    first, second = entries[0], entries[1]
    assert {"name": "A2A-Version", "value": "0.3"} in first["request"]["headers"]
    assert json.loads(first["response"]["content"]["text"])["error"]["code"] == -32009
    assert {"name": "A2A-Version", "value": "1.0.1"} in second["request"]["headers"]
    assert "result" in json.loads(second["response"]["content"]["text"])


def test_a_raw_post_is_exported_as_posted():
    t = load_recording(str(ROOT / "recordings" / "a2a_sdk_exchanges_surface.json")).session("a2a_raw_envelope")
    entry = json.loads(exports.transcript_har(t, BASE, "0"))["log"]["entries"][0]
    assert entry["request"]["postData"] == {"mimeType": "application/json", "text": "{not json"}


def _junit(xml: str) -> ET.Element:
    root = ET.fromstring(xml)
    assert root.tag == "testsuites"
    return root


def test_junit_has_a_suite_per_recording_and_a_case_per_session():
    report = build_report(Project(ROOT))
    root = _junit(exports.report_junit(report))
    assert [s.get("name") for s in root] == [f.recording_file for f in report.files]
    assert int(root.get("tests")) == len(report.sessions) and root.get("failures") == "0"
    assert [c.get("name") for c in root[0]] == [s.name for s in report.files[0].sessions]


def test_a_changed_value_becomes_a_failure_with_the_first_difference(project_copy: Path):
    path = project_copy / "recordings" / "a2a_sdk_exchanges.json"
    data = json.loads(path.read_text())
    data["sessions"][4]["messages"][7]["json"]["error"]["code"] = -32004
    path.write_text(json.dumps(data, indent=2))
    out = project_copy / "out" / "conformance.junit.xml"
    done = run_cli("export", "--format", "junit", "scenarios/a2a.json", "--output", str(out), cwd=project_copy)
    assert done.returncode == 1, done.stderr
    root = _junit(out.read_text())
    assert root.get("failures") == "1"
    failure = root.find(".//testcase[@name='a2a_cancel']/failure")
    assert failure is not None
    assert failure.get("message") == "session 'a2a_cancel', message 8, $.error.code: committed -32004, engine -32002"
    assert root.find(".//testcase[@name='a2a_send']/failure") is None


def test_an_unreadable_recording_is_bad_input_as_in_check(project_copy: Path):
    path = project_copy / "recordings" / "a2a_sdk_exchanges.json"
    path.write_text(path.read_text().replace('"n": 2,', '"n": 2, "n": 2,', 1))
    out = project_copy / "out" / "conformance.junit.xml"
    done = run_cli("export", "--format", "junit", "scenarios/a2a.json", "--output", str(out), cwd=project_copy)
    checked = run_cli("check", "scenarios/a2a.json", cwd=project_copy)
    assert done.returncode == checked.returncode == 2, done.stderr
    assert "recordings/a2a_sdk_exchanges.json" in done.stderr and "duplicate key 'n'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not out.exists()


def test_text_xml_cannot_carry_is_escaped():
    report = build_report(Project(ROOT), files=Project(ROOT).scenario_files(["scenarios/a2a.json"]))
    broken = Report(report.files, errors=("a scenario file said \x00 and \x1b",))
    root = _junit(exports.report_junit(broken))
    assert root[0].find(".//error").get("message") == "a scenario file said \\u0000 and \\u001b"


def test_the_site_publishes_them_at_the_agreed_urls():
    files = export_files(build_report(Project(ROOT)))
    assert "exports/a2a/a2a_send.jsonl" in files and "exports/a2a/a2a_send.har" in files
    assert "exports/mcp/legacy_tour.jsonl" in files and "exports/mcp/legacy_tour.har" not in files
    assert _junit(files["conformance.junit.xml"]).get("failures") == "0"


def test_the_cli_exports_a_session_and_refuses_har_for_mcp():
    done = run_cli("export", "--format", "jsonl", "--session", "a2a_send")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 6
    done = run_cli("export", "--format", "har", "--session", "legacy_tour")
    assert done.returncode == 2 and "HAR is for A2A sessions" in done.stderr and "Traceback" not in done.stderr
    done = run_cli("export", "--format", "jsonl")
    assert done.returncode == 2 and "--session" in done.stderr
