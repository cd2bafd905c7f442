"""Recording many files at once (live.record_many): a file split among recorder processes is
joined in its own order and equals the whole; a session failing in any of them is named."""
from __future__ import annotations

import os
import sys

import pytest

from agent_loop_sim import live
from agent_loop_sim.check import live_differences
from agent_loop_sim.errors import RecorderError
from agent_loop_sim.project import Project
from agent_loop_sim.recording import load_recording
from conftest import ROOT

def test_a_file_split_among_processes_is_joined_in_its_order_and_equals_the_committed(monkeypatch):
    monkeypatch.setattr(live, "SESSIONS_PER_PROCESS", 5)
    project = Project(ROOT)
    files = project.scenario_files(["scenarios/mcp.json", "scenarios/a2a.json"])
    recorded = live.record_many(project, [live.Planned(f) for f in files], 20.0, 4, processes=3)
    for file, (recording, wire) in zip(files, recorded):
        assert [t.name for t in recording.sessions] == [s.name for s in file.sessions]  # 4 parts, in order
        assert [name for name, _ in wire] == [s.name for s in file.sessions]
        committed = load_recording(str(project.recording_path(file, None)))
        assert live_differences(committed, recording) == []


def test_a_session_failing_in_one_of_the_processes_fails_the_recording_by_name(monkeypatch):
    monkeypatch.setattr(live, "SESSIONS_PER_PROCESS", 6)
    project = Project(ROOT)
    (file,) = project.scenario_files(["scenarios/mcp.json"])
    env = dict(os.environ, AGENT_LOOP_SIM_MCP_SERVER=f"{sys.executable} {ROOT / 'tests' / 'fakes' / 'mcp_server_hangs.py'}")
    with pytest.raises(RecorderError) as failed:
        live.record_many(project, [live.Planned(file, env=env)], 1.0, 4, processes=3)
    # Every session hangs: the error is the first process's (its sessions run 4 at once: any of them).
    first = [s.name for s in file.sessions[:6]]
    assert any(f"session {name!r}: nothing crossed for 1 s" in str(failed.value) for name in first), failed.value
