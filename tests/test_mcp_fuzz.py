"""Differential tests: random sessions the engine has never seen, recorded live from the SDK.

The seed moves with the commit (``conftest.fuzz_seed``: each commit draws sessions no earlier run
drew); pytest prints it, and ``AGENT_LOOP_SIM_FUZZ_SEED`` sets it to replay a run. Sessions a
seed found the engine wrong on are kept in ``tests/regressions/`` (``test_regressions.py``).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import fuzz_seed, live_vs_engine
from mcp_fuzz import EXPECTED, client_sessions, histogram, raw_sessions

SEED = fuzz_seed()[0]


@pytest.mark.parametrize("kind", ["raw", "client"])
def test_random_sessions_equal_the_live_sdk(tmp_path: Path, kind: str, op_histogram):
    sessions = raw_sessions(SEED, 40) if kind == "raw" else client_sessions(SEED, 40)
    if kind == "client":
        drawn = histogram(sessions)
        op_histogram(f"mcp client fuzz (seed {SEED}, {len(sessions)} sessions)", drawn)
        assert EXPECTED - set(drawn) == set(), "ops never drawn"
    assert live_vs_engine(tmp_path, "mcp", sessions) == []
