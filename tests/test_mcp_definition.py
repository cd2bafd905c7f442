"""The declarative fixture against the SDK's own derivations, value by value.

The recordings show a few argument errors; this asks the SDK itself (its ``MCPServer`` tool
metadata, imported here only) about many more values, so the engine's copy of pydantic's lax
validation is checked well beyond the sessions recorded.
"""
from __future__ import annotations

import sys

import pytest
from pydantic import ValidationError

from agent_loop_sim.protocols.mcp import FIXTURE_SERVER
from agent_loop_sim.protocols.mcp.definition import ArgumentsRejected
from conftest import ROOT

sys.path.insert(0, str(ROOT / "conformance"))
import sdk_server  # noqa: E402

VALUES = [5, -3, 0, True, False, None, 2.0, 2.5, -0.0, 1e18, 1e19, 1e20, 1e308, float("inf"), "5", " 5 ", "+5",
          "-5", "1_000", "1__0", "5.0", "5.00", "5.", "1e3", "0x10", "", " ", "abc", "\u0663", "[1,2]", '{"a":1}',
          "true", "null", '"5"', "3.7", [1], {"a": 1}, [], {}, "x" * 49, "x" * 60, "9" * 30, 10**30, -(10**30)]


def _sdk(tool: str, arguments: dict):
    metadata = sdk_server.mcp._tool_manager.get_tool(tool).fn_metadata
    try:
        return "ok", metadata.validate_arguments(arguments)
    except ValidationError as exc:
        return "rejected", str(exc)


def _engine(tool: str, arguments: dict):
    try:
        return "ok", FIXTURE_SERVER.tool(tool).validate(arguments)
    except ArgumentsRejected as exc:
        return "rejected", str(exc)


# Plain ids (value0, value1, ...): mutmut hands the test ids to pytest, which cannot take some
# characters of the values' reprs back as an id.
@pytest.mark.parametrize("value", VALUES, ids=[f"value{i}" for i in range(len(VALUES))])
def test_argument_validation_says_what_pydantic_says(value):
    for tool, arguments in [("add", {"a": value, "b": 1}), ("add", {"b": value}), ("read_doc", {"uri": value}),
                            ("count", {"n": value, "extra": value})]:
        assert _engine(tool, arguments) == _sdk(tool, arguments), (tool, arguments)


def test_schemas_are_the_sdks():
    for tool in FIXTURE_SERVER.tools:
        sdk_tool = sdk_server.mcp._tool_manager.get_tool(tool.name)
        assert tool.input_schema() == sdk_tool.parameters
        assert tool.output_schema() == sdk_tool.fn_metadata.output_schema
        assert tool.description == sdk_tool.description


def test_what_a_server_derives_is_kept_with_its_definition():
    from agent_loop_sim.protocols.mcp.definition import ServerDefinition

    made: list[str] = []
    one, other = ServerDefinition("a", "1"), ServerDefinition("a", "1")  # equal, but two definitions
    assert one.derived("k", lambda: made.append("one") or 1) == 1
    assert one.derived("k", lambda: made.append("again") or 2) == 1  # made once
    assert other.derived("k", lambda: made.append("other") or 3) == 3  # not shared with an equal one
    assert made == ["one", "other"] and one == other
