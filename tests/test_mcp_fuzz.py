"""Differential tests: random sessions the engine has never seen, recorded live from the SDK.

The seeds are fixed so a failure can be replayed; ``AGENT_LOOP_SIM_FUZZ_SEED`` picks others.
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
from conftest import ROOT
from mcp_fuzz import client_sessions, raw_sessions

SEED = int(os.environ.get("AGENT_LOOP_SIM_FUZZ_SEED", "7"))


@pytest.mark.parametrize("kind", ["raw", "client"])
def test_random_sessions_equal_the_live_sdk(tmp_path: Path, kind: str):
    sessions = raw_sessions(SEED, 40) if kind == "raw" else client_sessions(SEED, 40)
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps({"recording": "fuzz.json", "sessions": sessions}))
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "record_sdk.py"), str(path), "--jobs", "4"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    live = json.loads(done.stdout)
    recording = parse_recording({"family": "mcp", "scenarios": str(path), **live}, "live")
    produced = [engine.run_session(s) for s in scenarios.load(path).sessions]
    assert [d.render("live", "engine") for d in diff_sessions(recording.sessions, produced)] == []
