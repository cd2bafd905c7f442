"""Sessions kept because they once caught something: a fuzz seed's session the engine (or a
recorder) got wrong, or a session that kills a mutant no committed scenario reached. Each is
recorded live from the SDK and played by the engine in every run, whatever seed the run draws;
``found`` in each file says what it caught."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import live_vs_engine

HERE = Path(__file__).resolve().parent / "regressions"


@pytest.mark.parametrize("family", ["a2a", "mcp"])
def test_kept_sessions_equal_the_live_sdk(tmp_path: Path, family: str):
    kept = json.loads((HERE / f"{family}.json").read_text(encoding="utf-8"))
    assert set(kept["found"]) == {s["name"] for s in kept["sessions"]}, "each session says what it caught"
    assert live_vs_engine(tmp_path, family, kept["sessions"], jobs=1) == []
