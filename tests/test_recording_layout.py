"""Recordings are written one message to a line (`Recording.encode`), and the check compares the
engine's recording, written so, with the committed file's bytes before it reads anything.

The bytes comparison must be as strict as reading (the nesting depth aside: see
`check.compare_file`): each test below changes one thing in a committed recording that a laxer
comparison would let through (another layout, a type, a key's place, a key twice, a line broken
inside a string, a NaN, a frame reading refuses, said by the engine too) and sees the check say
what reading the file says.
"""
from __future__ import annotations

import dataclasses
import json

import pytest

from agent_loop_sim import check, engine
from agent_loop_sim.check import build_report, every_release
from agent_loop_sim.compare import identical
from agent_loop_sim.errors import InputError
from agent_loop_sim.jsonio import one_line, parse_json
from agent_loop_sim.project import Project
from agent_loop_sim.recording import Recording, _message_line, load_recording, parse_recording
from agent_loop_sim.transcript import Message, Transcript
from conftest import ROOT


def _recording_paths(project: Project):
    files = project.scenario_files()
    for release in every_release(project, files):
        for f in files:
            if release is None or f.family == release[0]:
                yield project.recording_path(f, release[1] if release else None)


def test_every_committed_recording_is_in_the_layout_record_writes():
    paths = list(_recording_paths(Project(ROOT)))
    assert len(paths) >= 16
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert load_recording(str(path)).dumps() == text, path


def test_the_layout_is_a_message_to_a_line_and_reads_back_as_the_same_recording():
    messages = [Message("client", "server", json={"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"é": [1.5, True, None]}}),
                Message("server", "client", raw="not JSON: \"quoted\"\tand a tab"),
                Message("server", "client", json=[], sse=True, http={"status": 200, "headers": [["a", "b"]]})]
    recording = Recording("mcp", {"package": "mcp", "version": "2.3.0"}, "stdio", "scenarios/x.json",
                          [Transcript("one", "legacy", "Tïtle", messages), Transcript("two", "legacy", "t", messages[:1])])
    text = recording.dumps()
    lines = text.splitlines()
    assert lines[:6] == ["{", '  "family": "mcp",', '  "sdk": {"package": "mcp", "version": "2.3.0"},',
                         '  "transport": "stdio",', '  "scenarios": "scenarios/x.json",', '  "sessions": [']
    assert lines[6] == '    {"name": "one", "mode": "legacy", "title": "Tïtle", "messages": ['
    assert [json.loads(line.strip().rstrip(",")) for line in lines[7:10]] == [m.to_dict(n) for n, m in enumerate(messages, 1)]
    assert lines[10:] == ["    ]},", '    {"name": "two", "mode": "legacy", "title": "t", "messages": [',
                          '      ' + json.dumps(messages[0].to_dict(1), ensure_ascii=False), "    ]}", "  ]", "}"]
    again = parse_recording(parse_json(text, "x"), "x")
    assert identical(again.to_dict(), recording.to_dict())
    assert again.dumps() == text


def test_a_message_line_is_its_object_on_one_line():
    """`_message_line` writes the envelope from a table: it must write what ``one_line`` writes
    for the message's object, for every committed message and for odd ones. An ``sse`` of 1 after
    True (equal, and one key in an untyped table) is written 1, an ``sse`` of -0.0 after 0.0 is
    written -0.0, one that is no key (a list) is written; the party names are escaped."""
    messages = [m for path in _recording_paths(Project(ROOT)) for t in load_recording(str(path)).sessions
                for m in t.messages]
    assert len(messages) > 2000
    odd = [Message("client", "server", json=None, sse=True), Message("client", "server", json=None, sse=1),
           Message("client", "server", raw="x", sse=False), Message("client", "server", raw="x", sse=0),
           Message('a "b"\n', "😀", json={"k": [1.0, 1]}, http={"status": 200, "headers": []}),
           Message("server", "client", json="\u2028", http={}),
           Message("client", "server", json=None, sse=0.0), Message("client", "server", json=None, sse=-0.0),
           Message("client", "server", json=None, sse=[1]), Message(["client"], "server", json=None)]
    for n, m in enumerate(messages + odd, 1):
        assert _message_line(n, m) == one_line(m.to_dict(n)), m
    assert '"sse": 1' in _message_line(1, odd[1]) and '"sse": 0' in _message_line(1, odd[3])
    assert '"sse": -0.0' in _message_line(1, odd[7])


@pytest.mark.parametrize("value", [float("nan"), "\ud800"], ids=["NaN", "lone surrogate"])
def test_what_json_or_utf8_cannot_hold_is_not_written(value):
    recording = Recording("mcp", {"package": "mcp", "version": "2.3.0"}, "stdio", "s",
                          [Transcript("one", "legacy", "t", [Message("client", "server", json={"x": value})])])
    with pytest.raises(ValueError):
        recording.dumps()


def _mcp(project_copy):
    project = Project(project_copy)
    (file,) = project.scenario_files([str(project_copy / "scenarios/mcp.json")])
    return project, file, project.recording_path(file)


def test_the_check_reads_no_recording_whose_bytes_are_the_engines(monkeypatch):
    """Every committed recording at the pinned releases (one holds characters past U+FFFF)."""
    def no_reading(*args, **kwargs):
        raise AssertionError("read")

    monkeypatch.setattr(check, "parse_json", no_reading)
    monkeypatch.setattr(check, "decode_text", no_reading)
    report = build_report(Project(ROOT))
    assert report.ok and len(report.files) >= 8
    assert any(max(path.read_text(encoding="utf-8")) > "\uffff" for path in _recording_paths(Project(ROOT)))
    for result in report.files:
        assert result.recording.sessions == [s.produced for s in result.sessions]


def test_the_same_recording_in_another_layout_is_read_and_passes(project_copy, monkeypatch):
    project, file, path = _mcp(project_copy)
    path.write_text(json.dumps(json.loads(path.read_text()), indent=2, ensure_ascii=False))
    read = []
    monkeypatch.setattr(check, "parse_json", lambda *a, **k: read.append(1) or parse_json(*a, **k))
    assert build_report(project, files=[file]).ok and read == [1]


def _edit_message_2(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced by ``new`` in the line of message 2 of the first session."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith('      {"n": 2,'))
    assert old in lines[at]
    lines[at] = lines[at].replace(old, new, 1)
    return "\n".join(lines)


# Message 2 of legacy_tour: the server's answer to initialize, {"capabilities": {"prompts":
# {"listChanged": false}, ...}, "protocolVersion": "2025-11-25", ...}
@pytest.mark.parametrize("old, new, said", [
    ('"listChanged": false', '"listChanged": 0', "$.result.capabilities.prompts.listChanged: committed 0, engine false"),
    ('"jsonrpc": "2.0", "id": "c1"', '"id": "c1", "jsonrpc": "2.0"', "key order: session 'legacy_tour', message 2, $ "),
    ('"jsonrpc": "2.0",', '"jsonrpc": "2.0", "jsonrpc": "2.0",', "duplicate key 'jsonrpc'"),
    ('"protocolVersion": "2025-11-25"', '"protocolVersion": "2025-\n11-25"', "not valid JSON: Invalid control character"),
    ('"protocolVersion": "2025-11-25"', '"protocolVersion": NaN', "NaN is not a JSON number"),
])
def test_a_text_that_reads_otherwise_fails_as_reading_it_says(project_copy, old, new, said):
    project, file, path = _mcp(project_copy)
    path.write_text(_edit_message_2(path.read_text(), old, new))
    problems = build_report(project, files=[file]).problems
    assert problems and any(said in p for p in problems), problems


def test_an_engine_that_says_nan_is_not_the_recording_that_says_nan(project_copy):
    """The engine's NaN is not written (it would match a file holding NaN, which reading refuses)."""
    project, file, path = _mcp(project_copy)
    path.write_text(_edit_message_2(path.read_text(), '"protocolVersion": "2025-11-25"', '"protocolVersion": NaN'))

    def says_nan(session):
        t = engine.run_session(session)
        if session.name == "legacy_tour":
            t.messages[1].json["result"]["protocolVersion"] = float("nan")
        return t

    (problem,) = build_report(project, says_nan, files=[file]).problems
    assert "the recording cannot be read" in problem and "NaN is not a JSON number" in problem


def test_only_whitespace_between_tokens_is_another_layout(project_copy):
    project, file, path = _mcp(project_copy)
    path.write_text(_edit_message_2(path.read_text(), '"jsonrpc": "2.0",', '"jsonrpc" :  "2.0" ,\n  '))
    assert build_report(project, files=[file]).ok


def _flipped(recording: Recording, what: str) -> Recording:
    one = recording.sessions[0]
    m = one.messages[0]
    sessions = {
        "no session": [],
        "a name twice": [one, one],
        "no message": [Transcript(one.name, one.mode, one.title, [])],
        "a title not text": [Transcript(one.name, one.mode, None, one.messages)],
    }.get(what)
    if sessions is None:
        changed = {"sse 1": dict(sse=1), "to itself": dict(receiver=m.sender), "another family's party": dict(sender="agent"),
                   "raw and json": dict(raw="x", json={}), "raw not text": dict(raw=["x"], json=None),
                   "an envelope of another shape": dict(http={"status": "200", "headers": []})}[what]
        sessions = [Transcript(one.name, one.mode, one.title, [dataclasses.replace(m, **changed)] + one.messages[1:])]
    return Recording(recording.family, recording.sdk, recording.transport, recording.scenarios, sessions)


@pytest.mark.parametrize("what", ["no session", "a name twice", "no message", "a title not text", "sse 1", "to itself",
                                  "another family's party", "raw and json", "raw not text", "an envelope of another shape"])
def test_a_recording_reads_back_only_with_the_frame_reading_asks_for(what):
    """`Recording.reads_back` is what lets the check take equal bytes for a sound recording:
    every committed recording reads back, and a frame `parse_recording` refuses, or reads as
    another recording, does not."""
    recordings = [load_recording(str(path)) for path in _recording_paths(Project(ROOT))]
    assert all(r.reads_back() for r in recordings)
    for recording in recordings[:1] + [r for r in recordings if r.family == "a2a"][:1]:
        flipped = _flipped(recording, what)
        assert not flipped.reads_back(), what
        try:
            again = parse_recording(parse_json(flipped.dumps(), "x"), "x")
        except (TypeError, ValueError, InputError):  # not written, or not read
            continue
        assert again.sessions != flipped.sessions, what  # read, as another recording (raw and json: raw)


@pytest.mark.parametrize("field, old, new, said", [
    ("sse", '"sse": false', '"sse": 1', "sse"),
    ("receiver", '"to": "client"', '"to": "server"', "a message goes from one party to the other"),
    ("sender", '"from": "server"', '"from": "agent"', "'agent'"),
])
def test_an_engine_that_says_what_reading_refuses_is_not_taken_at_its_bytes(project_copy, field, old, new, said):
    """An engine (another's, possibly half-written) and a file that both say a frame reading
    refuses: equal bytes, but the check says what reading the file says."""
    project, file, path = _mcp(project_copy)
    path.write_text(_edit_message_2(path.read_text(), old, new))
    value = json.loads("{" + new + "}")[new.split('"')[1]]

    def says_it(session):
        t = engine.run_session(session)
        if session.name == "legacy_tour":
            setattr(t.messages[1], field, value)
        return t

    (problem,) = build_report(project, says_it, files=[file]).problems
    assert "the recording cannot be read" in problem and said in problem, problem
