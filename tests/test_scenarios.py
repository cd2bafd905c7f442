from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_loop_sim import scenarios
from agent_loop_sim.errors import InputError

GOOD = {"name": "s1", "family": "mcp", "mode": "legacy", "title": "t", "actions": [{"op": "ping"}]}


def _load(tmp_path: Path, *sessions, recording="r.json"):
    path = tmp_path / "sc.json"
    path.write_text(json.dumps({"recording": recording, "sessions": list(sessions)}))
    return scenarios.load(path)


def test_a_good_file_loads(tmp_path: Path):
    (s,) = _load(tmp_path, GOOD).sessions
    assert (s.name, s.family, s.mode) == ("s1", "mcp", "legacy")


@pytest.mark.parametrize("change, message, path", [
    ({"mode": "modern"}, "'modern' is not one of", "$.sessions[0].mode"),
    ({"actions": [{"op": "dance"}]}, "unknown op 'dance'", "$.sessions[0].actions[0].op"),
    ({"actions": [{"op": "call"}]}, "missing field 'tool'", "$.sessions[0].actions[0]"),
    ({"actions": [{"op": "call", "tool": 3}]}, "expected a string, got an integer", "$.sessions[0].actions[0].tool"),
    ({"actions": [{"op": "ping", "loud": True}]}, "unknown field 'loud'", "$.sessions[0].actions[0].loud"),
    ({"actions": []}, "at least one action", "$.sessions[0].actions"),
    ({"colour": "red"}, "unknown field 'colour'", "$.sessions[0].colour"),
    ({"answers": {"elicitation": [{"action": "maybe"}]}}, "'maybe' is not one of",
     "$.sessions[0].answers.elicitation[0].action"),
    ({"lines": ["{}"]}, "only raw sessions have 'lines'", "$.sessions[0].lines"),
    ({"mode": "raw", "actions": None}, "a raw session has 'lines'", "$.sessions[0].actions"),
])
def test_bad_sessions_name_file_session_and_path(tmp_path: Path, change, message, path):
    session = {**GOOD, **change}
    if session.get("actions") is None:
        session.pop("actions")
        session["actions"] = [{"op": "ping"}]
    with pytest.raises(InputError) as caught:
        _load(tmp_path, session)
    text = str(caught.value)
    assert message in text and path in text and "session 's1'" in text and "sc.json" in text


def test_missing_family_and_duplicate_names(tmp_path: Path):
    with pytest.raises(InputError, match="missing field 'family'"):
        _load(tmp_path, {k: v for k, v in GOOD.items() if k != "family"})
    with pytest.raises(InputError, match="two sessions have this name"):
        _load(tmp_path, GOOD, GOOD)


def test_empty_file_and_wrong_top_level(tmp_path: Path):
    with pytest.raises(InputError, match="no sessions"):
        _load(tmp_path)
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    with pytest.raises(InputError, match="a scenario file must be an object"):
        scenarios.load(path)


def test_a_name_may_be_used_once_across_files(tmp_path: Path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for p in (a, b):
        p.write_text(json.dumps({"recording": p.name, "sessions": [GOOD]}))
    with pytest.raises(InputError, match="also used in"):
        scenarios.load_many([a, b])


def test_the_committed_scenarios_load():
    root = Path(__file__).resolve().parent.parent
    files = scenarios.load_many(sorted((root / "scenarios").glob("*.json")))
    assert sum(len(f.sessions) for f in files) >= 18
