"""The tables of SDK releases read from their data (agent_loop_sim.protocols.releases). The tables
are read at import, before mutmut switches a mutant on: these read them again."""
from __future__ import annotations

from pathlib import Path

import pytest

import agent_loop_sim.protocols.a2a.releases as a2a_releases
import agent_loop_sim.protocols.mcp.releases as mcp_releases
from agent_loop_sim.errors import InputError
from agent_loop_sim.jsonio import load_json
from agent_loop_sim.protocols.releases import Releases

A2A_TABLE = Path(a2a_releases.__file__).with_name("releases.json")


def test_a_table_read_again_is_the_one_read_at_import():
    for path, table in ((A2A_TABLE, a2a_releases.A2A_RELEASES),
                        (Path(mcp_releases.__file__).with_name("releases.json"), mcp_releases.MCP_RELEASES)):
        again = Releases.from_file(path)
        assert again == table and type(again.versions) is tuple and len(again.versions) == 2
        assert again.pinned == load_json(path)["versions"][0]


def test_the_projects_own_table_is_not_held_to_the_input_file_limit(monkeypatch):
    monkeypatch.setenv("AGENT_LOOP_SIM_MAX_FILE_BYTES", "100")
    with pytest.raises(InputError):
        load_json(A2A_TABLE)  # a user's file this long would be refused
    assert Releases.from_file(A2A_TABLE) == a2a_releases.A2A_RELEASES


def test_a_family_read_again_is_the_one_read_at_import():
    import agent_loop_sim.protocols.a2a as a2a
    from agent_loop_sim.protocols.family import Family

    code = ("run_session", "normalise", "scenario", "rule_tables", "releases", "read_world")
    again = Family.from_file(Path(a2a.__file__).with_name("family.json"), **{k: getattr(a2a.FAMILY, k) for k in code})
    assert again == a2a.FAMILY and again.parties == ("orchestrator", "agent")
