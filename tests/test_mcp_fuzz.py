"""Differential tests: random sessions the engine has never seen, recorded live from the SDK.

The seeds are fixed so a failure can be replayed; ``AGENT_LOOP_SIM_FUZZ_SEED`` picks others.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import live_vs_engine
from mcp_fuzz import EXPECTED, client_sessions, histogram, raw_sessions

SEED = int(os.environ.get("AGENT_LOOP_SIM_FUZZ_SEED", "7"))


@pytest.mark.parametrize("kind", ["raw", "client"])
def test_random_sessions_equal_the_live_sdk(tmp_path: Path, kind: str, op_histogram):
    sessions = raw_sessions(SEED, 40) if kind == "raw" else client_sessions(SEED, 40)
    if kind == "client":
        drawn = histogram(sessions)
        op_histogram(f"mcp client fuzz (seed {SEED}, {len(sessions)} sessions)", drawn)
        assert EXPECTED - set(drawn) == set(), "ops never drawn"
    assert live_vs_engine(tmp_path, "mcp", sessions) == []
