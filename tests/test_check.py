"""The one checker (agent_loop_sim.check) the command line and the site share."""
from __future__ import annotations

import pytest

from agent_loop_sim import engine
from agent_loop_sim.check import build_report, load_engine
from agent_loop_sim.errors import InputError
from agent_loop_sim.project import Project
from conftest import ROOT


def test_the_checkout_passes_and_a_changed_engine_is_caught():
    files = [f for f in Project(ROOT).scenario_files() if f.path.endswith("mcp.json")]
    assert build_report(Project(ROOT), files=files).ok

    def off_by_one(session):
        t = engine.run_session(session)
        if session.name == "legacy_tour":
            t.messages[1].json["result"]["protocolVersion"] = "2025-06-18"
        return t

    report = build_report(Project(ROOT), off_by_one, files=files)
    assert report.problems == ["recordings/sdk_exchanges.json: session 'legacy_tour', message 2, "
                               '$.result.protocolVersion: committed "2025-11-25", engine "2025-06-18"']


def test_an_engine_that_raises_is_a_result_naming_the_session():
    files = [f for f in Project(ROOT).scenario_files() if f.path.endswith("a2a.json")]

    def broken(session):
        raise RuntimeError("no model")

    (first, *_) = build_report(Project(ROOT), broken, files=files).problems
    assert "the engine failed: RuntimeError: no model" in first and "session 'a2a_" in first


def test_another_engine_is_named_module_and_function():
    assert load_engine("agent_loop_sim.engine:run_session") is engine.run_session
    with pytest.raises(InputError, match="AGENT_LOOP_SIM_ENGINE=no_such_module:run"):
        load_engine("no_such_module:run")
