"""The MCP engine against every committed MCP recording, and the rules it is made of."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agent_loop_sim import engine, scenarios
from agent_loop_sim.compare import diff_sessions
from agent_loop_sim.protocols.mcp import ERA_TRANSITIONS, FIXTURE_SERVER, ServerConnection
from agent_loop_sim.protocols.mcp.eras import Era, Kind
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


def test_the_era_table_covers_every_era_and_kind():
    assert set(ERA_TRANSITIONS) == {(e, k) for e in Era for k in Kind}
    assert all(after is not Era.UNDECIDED for after, _ in ERA_TRANSITIONS.values())


def _line(obj) -> str:
    return json.dumps(obj)


ENVELOPE = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}}}


def test_a_line_that_is_not_json_gets_no_answer():
    assert ServerConnection(FIXTURE_SERVER).receive("{not json") == []


def test_the_first_request_locks_the_era():
    server = ServerConnection(FIXTURE_SERVER)
    (first,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": ENVELOPE}))
    assert first["result"]["resultType"] == "complete"
    (second,) = server.receive(_line({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}))
    assert second["error"]["code"] == -32022
    assert second["error"]["data"] == {"supported": ["2026-07-28"], "requested": "2025-11-25"}


def test_an_unknown_handshake_version_gets_the_servers_latest():
    server = ServerConnection(FIXTURE_SERVER)
    (reply,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}))
    assert reply["result"]["protocolVersion"] == "2025-11-25"


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
