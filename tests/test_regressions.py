"""Sessions a fuzz seed found wrong, kept: each is recorded live from the SDK and played by the
engine in every run, whatever seed the run draws. ``found`` in each file says what the seed found."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import live_vs_engine

HERE = Path(__file__).resolve().parent / "regressions"


@pytest.mark.parametrize("family", ["a2a", "mcp"])
def test_sessions_a_seed_found_equal_the_live_sdk(tmp_path: Path, family: str):
    kept = json.loads((HERE / f"{family}.json").read_text(encoding="utf-8"))
    assert set(kept["found"]) == {s["name"] for s in kept["sessions"]}, "each session says what it found"
    assert live_vs_engine(tmp_path, family, kept["sessions"], jobs=1) == []
