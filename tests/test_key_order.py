"""The key-order verdict: `check` compares as JSON and tells the order of keys apart.

Two keys of one message swapped in a committed recording: the messages are still the same JSON
(the session passes as JSON), the key-order verdict fires naming the message and the object, and
`check` fails saying "KEY ORDER", for each family (MCP keeps the SDK's order; A2A's normal form
may sort its keys or keep the SDK's: either way the recording's order is what is compared).
"""
from __future__ import annotations

import json

import pytest

from agent_loop_sim.check import build_report
from agent_loop_sim.project import Project
from conftest import run_cli


def _swap_first_two_keys(obj: dict) -> dict:
    keys = list(obj)
    keys[0], keys[1] = keys[1], keys[0]
    return {k: obj[k] for k in keys}


@pytest.mark.parametrize("scenarios", ["scenarios/mcp.json", "scenarios/a2a.json"])
def test_two_swapped_keys_fire_the_key_order_verdict_only(project_copy, scenarios):
    project = Project(project_copy)
    (file,) = project.scenario_files([str(project_copy / scenarios)])
    path = project.recording_path(file)
    data = json.loads(path.read_text())
    session = data["sessions"][0]
    message = next(m for m in session["messages"] if isinstance(m.get("json"), dict) and len(m["json"]) > 1)
    message["json"] = _swap_first_two_keys(message["json"])
    path.write_text(json.dumps(data, indent=2))

    report = build_report(project, files=[file])
    result = report.session(session["name"])
    assert result.passed, result.problems()  # the same JSON
    assert result.key_order_verdict == f"differs at message {message['n']}, $"
    committed, produced = (json.dumps(list(m), separators=(",", ":"))
                           for m in (message["json"], _swap_first_two_keys(message["json"])))
    assert not report.ok and report.problems == [
        f"{project.relative(path)}: key order: session {session['name']!r}, message {message['n']}, $ (key order): "
        f"committed {committed}, engine {produced}"]
    others = [s for s in report.sessions if s.name != session["name"]]
    assert others and all(s.key_order_verdict == "same" for s in others)

    done = run_cli("check", scenarios, cwd=project_copy)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"KEY ORDER {project.relative(path)}" in done.stdout and "(key order)" in done.stdout


def test_a_clean_check_says_key_order_same(project_copy):
    done = run_cli("check", "scenarios/mcp.json", cwd=project_copy)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "key order: same" in done.stdout
