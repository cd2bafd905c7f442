"""Every MkDocs hook is a thin adapter: what it does lives in ``agent_loop_sim.site`` (plain
functions the tests and the benchmarks call without MkDocs), so each hook stays small enough to
read at a glance. Lines of code as ``grep -cvE '^\\s*(#|$)'`` counts them (docstrings count)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MOST = 40
HOOKS = sorted((ROOT / "hooks").glob("*.py"))


def lines_of_code(text: str) -> int:
    return sum(1 for line in text.splitlines() if not re.match(r"\s*(#|$)", line))


def test_the_count_is_greps():
    assert lines_of_code("a = 1\n\n  # why\n\t\n'''doc\n\nmore'''\nb = 2  # kept\n") == 4


def test_the_hooks_are_found():
    assert {p.name for p in HOOKS} >= {"conformance_site.py", "browser_engine.py", "raw_html.py"}


@pytest.mark.parametrize("hook", HOOKS, ids=lambda p: p.name)
def test_a_hook_is_a_thin_adapter(hook):
    count = lines_of_code(hook.read_text(encoding="utf-8"))
    assert count <= MOST, f"hooks/{hook.name} has {count} lines of code (at most {MOST}): move the work into agent_loop_sim.site"
