"""``Field``'s constraints as the engine applies them, against pydantic itself: for constraint sets
drawn from a seed and values at, inside and beyond each bound, the engine's validation error text
is pydantic's, word for word (or both accept, with the same value), and the JSON Schema the same.
The live tours (``verify``) show a few of these on the wire; this shows them on thousands."""
from __future__ import annotations

import random
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field, ValidationError, create_model

from agent_loop_sim.protocols.mcp.annotations import CONSTRAINTS, Kind, Param, rejection, top_schema, validate_fields

_PYTHON = {"integer": int, "number": float, "string": str, "list": list[int]}
_VALUES = {
    "integer": [-11, -5, -1, 0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 100, "7", 2.0, True],
    "number": [-2.5, -0.5, 0, 0.1, 0.3, 0.5, 0.75, 1, 1.5, 2.5, 3, 10.0, 1e20, 1e21, "0.5"],
    "string": ["", "a", "A", "ab", "AB", "abc", "ABC12", "123-4567", "a\n", "é", "text with blanks"],
    "list": [[], [1], [1, 2], [1, 2, 3], [1, "x"], [1, 2, 3, "x"]],
}
_PATTERNS = ["^[a-z]+$", "^[A-Z0-9]*$", r"^\d{3}-\d{4}$", "b", "^$", "[é]"]


def _draw(rng: random.Random, kind: str) -> dict[str, Any]:
    keys = [k for k in CONSTRAINTS[kind] if rng.random() < 0.5] or [rng.choice(CONSTRAINTS[kind])]
    given: dict[str, Any] = {}
    for key in keys:
        if key == "pattern":
            given[key] = rng.choice(_PATTERNS)
        elif key in ("min_length", "max_length"):
            given[key] = rng.randint(0, 3)
        elif key == "multiple_of":
            given[key] = rng.choice([1, 2, 3]) if kind == "integer" else rng.choice([0.1, 0.25, 0.5, 2])
        else:
            given[key] = rng.randint(-5, 5) if kind == "integer" else rng.choice([-1, 0, 0.5, 1.5, 3, 1e20])
    return given


def _engine(kind: str, given: dict[str, Any], value: Any) -> str:
    kinds = {"list": Kind("list", of=Kind("integer"))}
    param = Param("v", kinds.get(kind, Kind(kind)), constraints=tuple(given.items()))
    problems: list = []
    out = validate_fields((param,), {"v": value}, "", problems)
    return str(rejection("M", problems)) if problems else repr(out["v"])


def _pydantic(model: type[BaseModel], value: Any) -> str:
    try:
        return repr(model(v=value).v)
    except ValidationError as exc:
        return str(exc)


CASES = [(kind, _draw(random.Random(f"{kind}{i}"), kind)) for kind in CONSTRAINTS for i in range(40)]


@pytest.mark.parametrize("kind,given", CASES, ids=[f"{k}-{i % 40}" for i, (k, _) in enumerate(CASES)])
def test_the_engine_says_what_pydantic_says(kind, given):
    model = create_model("M", v=(Annotated[_PYTHON[kind], Field(**given)], ...))
    kinds = {"list": Kind("list", of=Kind("integer"))}
    assert top_schema("M", (Param("v", kinds.get(kind, Kind(kind)), constraints=tuple(given.items())),)) \
        == model.model_json_schema()
    for value in _VALUES[kind]:
        assert _engine(kind, given, value) == _pydantic(model, value), (given, value)


def test_a_bound_written_wrongly_is_caught():
    """The control: a ``le`` read as ``lt`` gives another verdict at the bound."""
    model = create_model("M", v=(Annotated[int, Field(le=3)], ...))
    assert _engine("integer", {"lt": 3}, 3) != _pydantic(model, 3)
