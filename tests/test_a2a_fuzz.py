"""Differential tests for A2A: random sessions the engine has never seen, recorded live from the SDK.

The seed is fixed so a failure can be replayed; ``AGENT_LOOP_SIM_FUZZ_SEED`` picks others.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent_loop_sim import engine, scenarios
from agent_loop_sim.compare import diff_sessions
from agent_loop_sim.transcript import parse_recording
from a2a_fuzz import a2a_sessions
from conftest import ROOT

SEED = int(os.environ.get("AGENT_LOOP_SIM_FUZZ_SEED", "7"))


@pytest.mark.parametrize("part", [0, 1])
def test_random_a2a_sessions_equal_the_live_sdk(tmp_path: Path, part: int):
    sessions = a2a_sessions(SEED * 2 + part, 20)
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps({"recording": "fuzz.json", "sessions": sessions}))
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "record_a2a_sdk.py"), str(path), "--jobs", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    live = json.loads(done.stdout)
    assert [s["name"] for s in live["sessions"]] == [s["name"] for s in sessions]
    recording = parse_recording({"family": "a2a", "scenarios": str(path), **live}, "live")
    produced = [engine.run_session(s) for s in scenarios.load(path).sessions]
    assert [d.render("live", "engine") for d in diff_sessions(recording.sessions, produced)] == []


def test_the_generator_covers_every_step_kind():
    sessions = a2a_sessions(SEED * 2, 20) + a2a_sessions(SEED * 2 + 1, 20)
    steps = [step for session in sessions for step in session["steps"]]
    assert {step["op"] for step in steps} == {"card", "send", "get", "cancel", "subscribe", "extended_card", "list"}
    assert any(step.get("stream") for step in steps) and any("parts" in step for step in steps)
    assert any(step.get("task") not in (None, "new", "current", "unknown") for step in steps)  # a label
    assert a2a_sessions(SEED, 5) == a2a_sessions(SEED, 5)
