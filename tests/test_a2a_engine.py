"""The A2A engine against the committed A2A recordings, the seed page, and the ``check`` verb."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agent_loop_sim import engine, scenarios
from agent_loop_sim.compare import diff_sessions
from agent_loop_sim.recording import load_recording
from conftest import ROOT, run_cli
from seed_page import a2a_as_the_seed_wrote_it, checked_in_facts, digest

A2A_FILES = [scenarios.load(ROOT / "scenarios" / name) for name in ("a2a.json", "a2a_more.json")]
SESSIONS = [(f, s) for f in A2A_FILES for s in f.sessions]


@pytest.mark.parametrize("file, session", SESSIONS, ids=[s.name for _, s in SESSIONS])
def test_engine_equals_the_sdk_recording(file, session):
    committed = load_recording(str(ROOT / "recordings" / file.recording)).session(session.name)
    assert committed is not None
    assert [d.render() for d in diff_sessions([committed], [engine.run_session(session)])] == []


def test_every_committed_session_has_a_scenario():
    for file in A2A_FILES:
        recording = load_recording(str(ROOT / "recordings" / file.recording))
        assert [t.name for t in recording.sessions] == [s.name for s in file.sessions]
        assert recording.sdk == {"package": "a2a-sdk", "version": "1.2.2"}


def test_the_committed_recording_is_the_seed_page_message_for_message():
    """(The page's facts, checked in: tests/test_seed_page.py holds them to the page itself.)"""
    known = checked_in_facts()
    recording = load_recording(str(ROOT / "recordings" / "a2a_sdk_exchanges.json"))
    assert len(recording.sessions) == 8 and recording.message_count == 56
    for transcript in recording.sessions:
        messages = a2a_as_the_seed_wrote_it([m.to_dict(i) for i, m in enumerate(transcript.messages, 1)])
        assert digest(messages) == known[transcript.name]["sha256"], transcript.name



def test_the_engine_runs_without_any_recording(tmp_path: Path):
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "agent_loop_sim", copy / "agent_loop_sim", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "scenarios", copy / "scenarios")
    assert not (copy / "recordings").exists()
    for file in A2A_FILES:
        done = run_cli("run", f"scenarios/{Path(file.path).name}", cwd=copy)
        assert done.returncode == 0, done.stderr
        committed = json.loads((ROOT / "recordings" / file.recording).read_text())["sessions"]
        assert json.loads(done.stdout) == committed


def test_check_names_session_message_and_path_of_a_changed_value(project_copy: Path):
    path = project_copy / "recordings" / "a2a_sdk_exchanges.json"
    data = json.loads(path.read_text())
    assert data["sessions"][4]["name"] == "a2a_cancel"
    data["sessions"][4]["messages"][7]["json"]["error"]["code"] = -32004
    path.write_text(json.dumps(data, indent=2))
    done = run_cli("check", "scenarios/a2a.json", cwd=project_copy)
    assert done.returncode == 1
    assert "session 'a2a_cancel', message 8, $.error.code: committed -32004, engine -32002" in done.stdout
    assert run_cli("check", "scenarios/a2a_more.json", cwd=project_copy).returncode == 0
