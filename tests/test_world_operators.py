"""Every operator of a world's expressions, as the engine computes it and as the program the SDK
side runs computes it (``conformance/mcp_world.py``'s source text, executed here): the same value,
or the same exception, for values of every JSON kind. The live tours (``tests/test_worlds.py``,
``verify``) then show the program's values on the wire; this shows the two readings agree on far
more values than a tour can call."""
from __future__ import annotations

import itertools
import math
import sys
from pathlib import Path

import pytest

from agent_loop_sim.protocols.mcp.world import _ARITY, _OPERATORS, BeyondLimit, compile_expr

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
import mcp_world  # noqa: E402  (the SDK side's generator: it imports no SDK itself)

#: operand values of every JSON kind, and the edges of Python's own operators
VALUES = [0, 1, -3, 7, 2.5, -0.0, 1e308, True, False, None, "", "a", "Abc d ", "a,b", ",", [], [1, 2, 3], ["x", "y"],
          {}, {"k": 1, "j": 2}]


def _outcome(compute):
    try:
        value = compute()
    except BeyondLimit:
        return "beyond"
    except Exception as exc:  # noqa: BLE001 (the exception's type is the outcome)
        return type(exc)
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return type(value), value


def _program(expr: dict, names: dict) -> object:
    source = mcp_world._Writer().expr(expr)
    return eval(source, {"_v": names, "_get": None})  # noqa: S307 (the generator's own text)


def _cases(op: str):
    arity = _ARITY[op]
    refs = [{"$": f"v{i}"} for i in range(arity)]
    for values in itertools.product(VALUES, repeat=arity) if arity < 3 else itertools.product(VALUES[:12], repeat=3):
        yield ({op: refs[0] if arity == 1 else refs}, {f"v{i}": v for i, v in enumerate(values)})


@pytest.mark.parametrize("op", sorted(_ARITY))
def test_each_operator_gives_the_programs_value_or_exception(op):
    compared = 0
    for expr, names in _cases(op):
        engine = _outcome(lambda: compile_expr(expr)(names))
        if engine == "beyond":  # the engine declines, by name, where Python would go on
            continue
        assert engine == _outcome(lambda: _program(expr, names)), (expr, names)
        compared += 1
    assert compared >= len(VALUES)


def test_the_two_tables_name_the_same_operators():
    assert set(_ARITY) == set(mcp_world._OPERATORS)
    assert {op for op, n in _ARITY.items() if n == 1} == mcp_world._ONE_OPERAND
    assert _OPERATORS >= set(_ARITY)


def test_a_differing_operator_is_caught():
    """The control: an engine whose ``$floordiv`` divided exactly would fail the comparison."""
    expr, names = {"$floordiv": [{"$": "v0"}, {"$": "v1"}]}, {"v0": 7, "v1": 2}
    wrong = {"$div": expr["$floordiv"]}
    assert _outcome(lambda: compile_expr(wrong)(names)) != _outcome(lambda: _program(expr, names))


def test_what_would_grow_without_bound_is_declined_by_name():
    for expr in ({"$mul": ["ab", 10**6]}, {"$join": ["," * 20_000, ["x"] * 10]},
                 {"$replace": ["a" * 1000, "a", "b" * 1000]}, {"$mod": ["%0999999999d", 1]}):
        with pytest.raises(BeyondLimit):
            compile_expr(expr)({})
