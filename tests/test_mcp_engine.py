"""The MCP engine against every committed MCP recording, and the rules it is made of."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agent_loop_sim import engine, scenarios
from agent_loop_sim.compare import diff_sessions
from agent_loop_sim.protocols.mcp import FIXTURE_SERVER
from agent_loop_sim.recording import load_recording
from conftest import ROOT, run_cli

MCP_FILES = [f for f in scenarios.load_many(sorted((ROOT / "scenarios").glob("*.json"))) if f.family == "mcp"]
SESSIONS = [(f, s) for f in MCP_FILES for s in f.sessions]


@pytest.mark.parametrize("file, session", SESSIONS, ids=[s.name for _, s in SESSIONS])
def test_engine_equals_the_sdk_recording(file, session):
    committed = load_recording(str(ROOT / "recordings" / file.recording)).session(session.name)
    produced = engine.run_session(session)
    assert [d.render() for d in diff_sessions([committed], [produced])] == []


def test_the_engine_never_reads_a_recording(project_copy: Path):
    shutil.rmtree(project_copy / "recordings")
    for f in MCP_FILES:
        done = run_cli("run", f"scenarios/{Path(f.path).name}", cwd=project_copy)
        assert done.returncode == 0, done.stderr
        produced = json.loads(done.stdout)
        committed = json.loads((ROOT / "recordings" / f.recording).read_text())["sessions"]
        assert produced == committed


def test_tool_input_schema_is_derived_from_the_parameters():
    add = FIXTURE_SERVER.tool("add")
    assert add.input_schema() == {"properties": {"a": {"title": "A", "type": "integer"},
                                                 "b": {"title": "B", "type": "integer"}},
                                  "required": ["a", "b"], "title": "addArguments", "type": "object"}
    assert add.validate({"a": "7", "b": 1.0}) == {"a": 7, "b": 1}


def test_key_order_is_the_sdks_too():
    """Not required by the JSON comparison, but the pages show it: the engine writes each MCP
    message with its keys in the order the SDK sent them."""
    for f in MCP_FILES:
        committed = load_recording(str(ROOT / "recordings" / f.recording))
        for session in f.sessions:
            produced = engine.run_session(session)
            expected = committed.session(session.name)
            for n, (a, b) in enumerate(zip(produced.messages, expected.messages), 1):
                assert json.dumps(a.json) == json.dumps(b.json), (session.name, n)
