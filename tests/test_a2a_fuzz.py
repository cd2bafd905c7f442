"""Differential tests for A2A: random sessions the engine has never seen, recorded live from the SDK.

The seed moves with the commit (``conftest.fuzz_seed``: each commit draws sessions no earlier run
drew); pytest prints it, and ``AGENT_LOOP_SIM_FUZZ_SEED`` sets it to replay a run. Sessions a
seed found the engine wrong on are kept in ``tests/regressions/`` (``test_regressions.py``).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from a2a_fuzz import EXPECTED, a2a_sessions, histogram, raw_sessions
from conftest import fuzz_seed, live_vs_engine

SEED = fuzz_seed()[0]


@pytest.mark.parametrize("part", [0, 1])
def test_random_a2a_sessions_equal_the_live_sdk(tmp_path: Path, part: int, op_histogram):
    sessions = a2a_sessions(SEED * 2 + part, 20)
    drawn = histogram(sessions)
    op_histogram(f"a2a fuzz (seed {SEED * 2 + part}, {len(sessions)} sessions)", drawn)
    assert EXPECTED - set(drawn) == set(), "steps or fields never drawn"
    assert live_vs_engine(tmp_path, "a2a", sessions, jobs=2) == []


def test_random_raw_a2a_sessions_equal_the_live_sdk(tmp_path: Path, op_histogram):
    sessions = raw_sessions(SEED, 20)
    op_histogram(f"a2a raw fuzz (seed {SEED}, {len(sessions)} sessions)", histogram(sessions))
    assert live_vs_engine(tmp_path, "a2a", sessions, jobs=2) == []


def test_the_generator_covers_every_step_kind():
    sessions = a2a_sessions(SEED * 2, 20) + a2a_sessions(SEED * 2 + 1, 20)
    steps = [step for session in sessions for step in session["steps"]]
    assert {step["op"] for step in steps} == {"card", "send", "get", "cancel", "subscribe", "extended_card", "list",
                                              "push_config", "raw"}
    assert any(step.get("stream") for step in steps) and any("parts" in step for step in steps)
    assert any(step.get("task") not in (None, "new", "current", "unknown") for step in steps)  # a label
    assert a2a_sessions(SEED, 5) == a2a_sessions(SEED, 5)
