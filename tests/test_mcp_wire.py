"""Per-revision wire shapes (agent_loop_sim.protocols.mcp.wire and its two revision modules)."""
from __future__ import annotations

from agent_loop_sim.protocols.mcp import FIXTURE_SERVER, wire_2025_11_25, wire_2026_07_28
from agent_loop_sim.protocols.mcp.eras import Era
from agent_loop_sim.protocols.mcp.wire import WIRES, wire_for


def test_one_module_per_era_and_each_version_finds_its_own():
    assert WIRES == {Era.HANDSHAKE: wire_2025_11_25, Era.STATELESS: wire_2026_07_28}
    assert wire_for("2026-07-28") is wire_2026_07_28
    assert wire_for("2024-11-05") is wire_2025_11_25 and wire_for(None) is wire_2025_11_25


def test_only_2026_types_the_input_responses():
    assert "inputResponses" in wire_2026_07_28.PARAMS_FIELDS["tools/call"]
    assert "inputResponses" not in wire_2025_11_25.PARAMS_FIELDS["tools/call"]
    assert wire_2026_07_28.PARAMS_FIELDS["tools/list"] == wire_2025_11_25.PARAMS_FIELDS["tools/list"]


def test_tool_listings_keep_each_revisions_key_order():
    add = FIXTURE_SERVER.tool("add")
    assert list(wire_2025_11_25.tool_listing(add)["inputSchema"])[:3] == ["properties", "required", "type"]
    assert list(wire_2026_07_28.tool_listing(add)["inputSchema"])[:3] == ["type", "properties", "required"]


def test_2026_results_are_stamped_and_cache_hinted():
    done = wire_2026_07_28.finish("tools/list", {"tools": []}, FIXTURE_SERVER)
    assert list(done) == ["cacheScope", "resultType", "tools", "ttlMs", "_meta"]
    assert done["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == FIXTURE_SERVER.name
    assert wire_2025_11_25.finish("tools/list", {"tools": []}, FIXTURE_SERVER) == {"tools": []}


def test_the_envelope_wraps_only_in_2026():
    assert wire_2025_11_25.envelope({"a": 1}, "2025-11-25", {}, {}) == {"a": 1}
    wrapped = wire_2026_07_28.envelope({"_meta": {"progressToken": 1}}, "2026-07-28", {"name": "c"}, {})
    assert wrapped["_meta"]["progressToken"] == 1 and wrapped["_meta"]["io.modelcontextprotocol/clientInfo"] == {"name": "c"}
