"""The engine's copy of pydantic's lax validation and JSON floats (agent_loop_sim.protocols.mcp
.annotations, definition._float_text), value by value against pydantic itself."""
from __future__ import annotations

import pydantic
import pydantic_core
import pytest

from agent_loop_sim.protocols.mcp.annotations import Kind, Problem, coerce_scalar, validate
from agent_loop_sim.protocols.mcp.definition import _float_text

FLOATS = [1e-5, 1.5e-5, -1e-5, 3e-5, 1e-6, -2.5e-6, 1e-7, 1e-4, 0.00012, -1.25e-3, 1.0, 1e20,
          float("inf"), -float("inf"), float("nan")]


@pytest.mark.parametrize("x", FLOATS, ids=[f"float{i}" for i in range(len(FLOATS))])
def test_a_float_is_written_as_pydantic_writes_it(x):
    assert _float_text(x) == pydantic_core.to_json(x).decode()


BOOL_TEXTS = ["off", "OFF", "no", "F", "0", "false", "yes", "1", "On", "maybe", "", "2"]


@pytest.mark.parametrize("text", BOOL_TEXTS, ids=[f"text{i}" for i in range(len(BOOL_TEXTS))])
def test_a_boolean_from_text_is_pydantics(text):
    try:
        expected = (pydantic.TypeAdapter(bool).validate_python(text), None)
    except pydantic.ValidationError as exc:
        (error,) = exc.errors()
        expected = (None, (error["type"], error["msg"]))
    assert coerce_scalar("boolean", text) == expected


def test_a_problem_carries_its_kind_words_and_value():
    problems: list[Problem] = []
    validate(Kind("boolean"), "maybe", "flag", problems)
    validate(Kind("dict"), [1], "settings", problems)
    assert problems == [Problem("flag", "bool_parsing", "Input should be a valid boolean, unable to interpret input",
                                "maybe"),
                        Problem("settings", "dict_type", "Input should be a valid dictionary", [1])]


JSON_VALUES = [{"a": [1, 1e-5, "é"], "b": {}}, [], "é ✓", 1e-5, -0.0, {"k": None, "t": True}]


@pytest.mark.parametrize("value", JSON_VALUES, ids=[f"json{i}" for i in range(len(JSON_VALUES))])
def test_json_is_laid_out_as_pydantic_lays_it_out(value):
    from agent_loop_sim.protocols.mcp.definition import _pydantic_json

    assert _pydantic_json(value, "") == pydantic_core.to_json(value, indent=2).decode()


def test_a_drive_alone_is_an_absolute_path():
    from agent_loop_sim.protocols.mcp.definition import unsafe_path

    assert [unsafe_path(v) for v in ("C:", "C:x", "/", "a", "1:", "a/../..")] == [True, True, True, False, False, True]


def test_a_resource_is_read_from_its_blob_or_its_text():
    from agent_loop_sim.protocols.mcp.definition import Resource

    assert Resource("x://b", "b", "", "application/octet-stream", blob="aGk=").read() == "b'hi'"
    assert Resource("x://t", "t", "", "text/plain", text="hi").read() == "hi"


def test_a_tool_without_a_function_name_takes_its_own_name():
    from agent_loop_sim.protocols.mcp.definition import Tool

    assert Tool("add", "", (), None, None).function == "add"
    assert Tool("add", "", (), None, None, function="plus").function == "plus"
