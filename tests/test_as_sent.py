"""The wire lines kept beside each recording (``recordings/raw/``, `agent_loop_sim.as_sent`): every
committed recording has them, aligned message for message; a sidecar that is missing, bad or not
aligned is one line naming file, session, message and JSON path, exit 2, for `check` and
`record --check` alike (the latter before it records anything)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_loop_sim.as_sent import encode_sidecar, read_as_sent, read_sidecar, sent_text, sidecar_path
from agent_loop_sim.check import every_release
from agent_loop_sim.errors import InputError, RecorderError
from agent_loop_sim.project import Project
from agent_loop_sim.recording import load_recording
from conftest import ROOT, run_cli


def _recordings(project: Project):
    files = project.scenario_files()
    for release in every_release(project, files):
        for f in files:
            if release is None or f.family == release[0]:
                path = project.recording_path(f, release[1] if release else None)
                if path.exists():
                    yield path


def test_every_committed_recording_has_its_wire_lines_aligned():
    project = Project(ROOT)
    paths = list(_recordings(project))
    assert len(paths) >= 38  # both releases of both families
    kinds = set()
    for path in paths:
        recording = load_recording(str(path))
        wire = read_as_sent(project.recording_dir, path, recording)
        assert list(wire) == [t.name for t in recording.sessions]
        kinds |= {key for entries in wire.values() for e in entries for key in ("line", "body", "frame") if key in e}
        assert json.loads(sidecar_path(project.recording_dir, path).read_text())["recording"] == project.relative(path)
    assert kinds == {"line", "body", "frame"}  # stdio, HTTP bodies, SSE frames


def test_the_sidecar_layout_reads_back(tmp_path: Path):
    text = encode_sidecar("recordings/x.json", [("one", [{"from": "client", "line": "{}"},
                                                         {"from": "server", "http": {"status": 200, "headers": []},
                                                          "frame": "data: 1\r\n\r\n"}])])
    assert text.splitlines()[:5] == ["{", '  "recording": "recordings/x.json",', '  "sessions": [',
                                     '    {"name": "one", "wire": [', '      {"n": 1, "from": "client", "line": "{}"},']
    path = tmp_path / "x.json"
    path.write_text(text)
    assert [sent_text(e) for e in read_sidecar(path)["one"]] == ["{}", "data: 1\r\n\r\n"]


def _side(project: Path, name: str = "sdk_exchanges.json") -> Path:
    return project / "recordings" / "raw" / name


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("change, said", [
    (lambda d: d["sessions"][2]["wire"].pop(),
     "recordings/raw/sdk_exchanges.json, session 'auto_tour', at $.sessions[2].wire: not aligned with its "
     "recording: 5 entries for 6 messages"),
    (lambda d: d["sessions"][2]["wire"][2].update({"from": "server"}),
     "recordings/raw/sdk_exchanges.json, session 'auto_tour', message 3, at $.sessions[2].wire[2].from: not "
     "aligned with its recording: from 'server', but the recording's message is from 'client'"),
    (lambda d: d["sessions"].reverse(),
     "recordings/raw/sdk_exchanges.json, at $.sessions: not aligned with its recording: the sessions are in "
     "another order than the recording's"),
    (lambda d: d["sessions"][0]["wire"][1].update({"body": None}),
     "recordings/raw/sdk_exchanges.json, session 'legacy_tour', message 2, at $.sessions[0].wire[1]: an entry "
     "has exactly one of line, body, frame"),
    (lambda d: d["sessions"][0]["wire"][1].update({"line": 5}),
     "recordings/raw/sdk_exchanges.json, session 'legacy_tour', message 2, at $.sessions[0].wire[1].line: "
     "expected a string, got an integer"),
])
def test_a_bad_sidecar_fails_the_check_in_one_line_exit_2(project_copy: Path, change, said: str):
    _edit(_side(project_copy), change)
    done = run_cli("check", "scenarios/mcp.json", cwd=project_copy)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"error: {said}"


def test_a_missing_sidecar_fails_check_and_record_check(project_copy: Path):
    _side(project_copy, "mcp-2.2.0/sdk_exchanges.json").unlink()
    for args in (("check", "scenarios/mcp.json"), ("record", "--check", "scenarios/mcp.json")):
        done = run_cli(*args, cwd=project_copy)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.strip() == ("error: recordings/raw/mcp-2.2.0/sdk_exchanges.json: no wire lines beside "
                                       "this recording (`python -m agent_loop_sim record` writes them)")


def test_a_misaligned_sidecar_fails_record_check_before_recording(project_copy: Path):
    _edit(_side(project_copy, "a2a_sdk_exchanges.json"), lambda d: d["sessions"][1]["wire"][4].update(http={"status": 200, "headers": []}))
    done = run_cli("record", "--check", "scenarios/a2a.json", cwd=project_copy)
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr.strip() == (
        "error: recordings/raw/a2a_sdk_exchanges.json, session 'a2a_stream', message 5, at "
        "$.sessions[1].wire[4]: not aligned with its recording: an envelope the recording's message has not")


def test_read_sidecar_names_the_file_for_what_is_not_a_sidecar(tmp_path: Path):
    path = tmp_path / "x.json"
    path.write_text('{"recording": "r", "sessions": [{"name": "a", "wire": [{"n": 2, "from": "c", "line": ""}]}]}')
    with pytest.raises(InputError) as caught:
        read_sidecar(path)
    assert str(caught.value) == (f"{path}, session 'a', message 1, at $.sessions[0].wire[0].n: entries are "
                                 "numbered 1, 2, ...: expected 1, got 2")


def test_record_writes_the_wire_lines_of_a_recording_that_had_none(project_copy: Path):
    """A recording without wire lines (as a new scenario file's) gets them from `record`, aligned,
    their plain normal form the recording; the recording itself is written as it was."""
    from plain_normal_form import NORMAL_FORMS, from_wire

    recording = project_copy / "recordings" / "a2a_sdk_exchanges_per_request.json"
    before = recording.read_bytes()
    side = _side(project_copy, "a2a_sdk_exchanges_per_request.json")
    side.unlink()
    done = run_cli("record", "scenarios/a2a_per_request.json", "--release", "1.2.2", cwd=project_copy)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote recordings/a2a_sdk_exchanges_per_request.json and "
                                  "recordings/raw/a2a_sdk_exchanges_per_request.json: 1 sessions")
    assert recording.read_bytes() == before
    wire = read_sidecar(side, load_recording(str(recording)))
    (session,) = json.loads(before)["sessions"]
    assert ([json.dumps(m) for m in NORMAL_FORMS["a2a"](from_wire("a2a", wire[session["name"]]))]
            == [json.dumps(m) for m in session["messages"]])


def test_a_recorder_that_keeps_no_wire_line_per_message_fails_the_recording(monkeypatch: pytest.MonkeyPatch):
    """`record_live_with_wire` refuses a recorder's output whose wire lines are not one per message."""
    import subprocess

    from agent_loop_sim import live

    project = Project(ROOT)
    file = next(f for f in project.scenario_files() if f.recording == "a2a_sdk_exchanges_per_request.json")
    data = json.loads((project.recording_dir / file.recording).read_text())
    session = data["sessions"][0]
    session["wire"] = [{"from": m["from"], "body": None} for m in session["messages"]]
    printed = {"sdk": data["sdk"], "transport": data["transport"], "sessions": data["sessions"]}

    def recorder(command, **kwargs):
        return subprocess.CompletedProcess(command, 0, json.dumps(printed), "")

    monkeypatch.setattr(live, "run_owned", recorder)
    recording, wire = live.record_live_with_wire(project, file, 10, 1)
    assert [name for name, _ in wire] == [session["name"]] and len(wire[0][1]) == len(recording.sessions[0].messages)
    session["wire"].pop()
    with pytest.raises(RecorderError, match="session 'a2a_release_failed_status': the recorder's wire lines are not one "
                                            "per message \\(13 for 14\\)"):
        live.record_live_with_wire(project, file, 10, 1)
