"""Which expression language a world file's results are written in: the format's own JSON
operators, or a well-kept library (simpleeval, asteval, CEL, JSONata), measured.

Three measures, for each candidate:

- **exact**: the value of each case of `CASES` equal to the one Python gives (value and type), as
  the SDK program a world becomes is Python: a language that divides or rounds otherwise makes
  the stand-in answer what the server would not;
- **speed**: microseconds to evaluate one expression, parsed once (the median of `REPEATS` runs
  of `LOOPS` evaluations each);
- **size**: what the reader's browser would load beside the engine (the installed package and
  its dependencies, in kB), and whether all of it is pure Python (Pyodide loads no other wheel
  from the index).

The libraries are not the project's dependencies; run it in a throwaway environment that pins
them, from the checkout's root::

    .tools/bin/uv run --no-project --python 3.11 --with simpleeval==1.0.3 --with asteval==1.0.6 \\
        --with cel-python==0.5.0 --with jsonata-python==0.7.1 python benchmarks/expressions.py

It writes ``benchmarks/results/expressions.json``, which the World files page reads.
"""
from __future__ import annotations

import importlib.metadata
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_loop_sim.protocols.mcp.world import compile_expr  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "expressions.json"
LOOPS, REPEATS = 2000, 5

#: (what it tries, Python, the format's JSON, CEL, JSONata): each the same computation as its
#: language writes it (None: its standard library has no such operation), on the names ``a`` (7), ``b`` (-2) and ``s`` ("hello world")
CASES = [
    ("division", "a / 2", {"$div": [{"$": "a"}, 2]}, "a / 2", "a / 2"),
    ("floor division of a negative", "-a // 2", {"$floordiv": [{"$neg": {"$": "a"}}, 2]}, "-a / 2", "$floor(-a / 2)"),
    ("modulo of a negative", "-a % 2", {"$mod": [{"$neg": {"$": "a"}}, 2]}, "-a % 2", "-a % 2"),
    ("rounding half to even", "round(2.5)", {"$round": [2.5, None]}, None, "$round(2.5)"),
    ("an integer sum stays an integer", "a + b", {"$add": [{"$": "a"}, {"$": "b"}]}, "a + b", "a + b"),
    ("a float sum", "0.1 + 0.2", {"$add": [0.1, 0.2]}, "0.1 + 0.2", "0.1 + 0.2"),
    ("title case", "s.title()", {"$title": {"$": "s"}}, None, None),
    ("a slice", "s[1:4]", {"$slice": [{"$": "s"}, 1, 4]}, None, "$substring(s, 1, 3)"),
    ("a comparison", "a > b", {"$gt": [{"$": "a"}, {"$": "b"}]}, "a > b", "a > b"),
    ("an integer past 64 bits", "12345678901234567890 * 3", {"$mul": [12345678901234567890, 3]},
     "12345678901234567890 * 3", "12345678901234567890 * 3"),
]
NAMES = {"a": 7, "b": -2, "s": "hello world"}
#: the expression timed: a little arithmetic and a test, as a tool's result computes
TIMED = ("(a + b) * 2 > 10 and s.startswith('he')",
         {"$and": [{"$gt": [{"$mul": [{"$add": [{"$": "a"}, {"$": "b"}]}, 2]}, 10]},
                   {"$startswith": [{"$": "s"}, "he"]}]},
         "(a + b) * 2 > 10 && s.startsWith('he')",
         "(a + b) * 2 > 10 and $substring(s, 0, 2) = 'he'")


def _same(python: Any, other: Any) -> bool:
    return type(python) is type(other) and python == other


def _timed(run: Callable[[], Any]) -> float:
    """Microseconds a run takes, the median of the repeats."""
    runs = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(LOOPS):
            run()
        runs.append((time.perf_counter() - start) / LOOPS * 1e6)
    return round(statistics.median(runs), 2)


def _size(distribution: str) -> tuple[int, bool, list[str]]:
    """kB installed for a distribution and what it requires, whether every file is pure Python,
    and the distributions counted."""
    seen: list[str] = []
    todo = [distribution]
    total, pure = 0, True
    while todo:
        name = todo.pop()
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        if dist.metadata["Name"].lower() in seen:
            continue
        seen.append(dist.metadata["Name"].lower())
        for file in dist.files or []:
            path = Path(dist.locate_file(file))
            if path.is_file() and "__pycache__" not in path.parts:
                total += path.stat().st_size
                pure = pure and path.suffix not in (".so", ".pyd")
        for requirement in dist.requires or []:
            if "extra ==" not in requirement:
                todo.append(requirement.split(";")[0].split("[")[0].split()[0].split("=")[0].split("<")[0].split(">")[0])
    return total // 1024, pure, sorted(seen)


def python_value(text: str) -> Any:
    return eval(text, {"round": round}, dict(NAMES))  # noqa: S307 (our own fixed texts)


def measure() -> dict[str, Any]:
    import asteval
    import celpy
    import jsonata
    import simpleeval

    cel_env = celpy.Environment()

    def cel(text: str) -> Callable[[], Any]:
        program = cel_env.program(cel_env.compile(text))
        activation = {k: celpy.json_to_cel(v) for k, v in NAMES.items()}
        return lambda: program.evaluate(activation)

    def jsonata_(text: str) -> Callable[[], Any]:
        expression = jsonata.Jsonata(text)
        return lambda: expression.evaluate(NAMES)

    def simple(text: str) -> Callable[[], Any]:
        evaluator = simpleeval.EvalWithCompoundTypes(names=dict(NAMES), functions={"round": round})
        parsed = evaluator.parse(text)
        return lambda: evaluator.eval(text, previously_parsed=parsed)

    def ast_(text: str) -> Callable[[], Any]:
        interpreter = asteval.Interpreter(user_symbols=dict(NAMES))
        parsed = interpreter.parse(text)
        return lambda: interpreter.run(parsed)

    def ours(raw: Any) -> Callable[[], Any]:
        function = compile_expr(raw)
        return lambda: function(dict(NAMES))

    def plain(value: Any) -> Any:  # a CEL value as the Python one it stands for
        if isinstance(value, celpy.celtypes.BoolType):
            return bool(value)
        for kind in (bool, int, float, str):
            if isinstance(value, kind):
                return kind(value)
        return value

    candidates = {
        "the format's operators": (lambda case: ours(case[2]), TIMED[1], None),
        "simpleeval 1.0.3": (lambda case: simple(case[1]), TIMED[0], "simpleeval"),
        "asteval 1.0.6": (lambda case: ast_(case[1]), TIMED[0], "asteval"),
        "CEL (cel-python 0.5.0)": (lambda case: cel(case[3]) if case[3] else None, TIMED[2], "cel-python"),
        "JSONata (jsonata-python 0.7.1)": (lambda case: jsonata_(case[4]) if case[4] else None, TIMED[3],
                                           "jsonata-python"),
    }
    out: dict[str, Any] = {"cases": [case[0] for case in CASES], "candidates": {}}
    for name, (make, timed, distribution) in candidates.items():
        exact = []
        for case in CASES:
            expected = python_value(case[1])
            try:
                run = make(case)
                got = None if run is None else run()
            except Exception as exc:  # noqa: BLE001 (a language that refuses the case)
                exact.append(f"refused ({type(exc).__name__})")
                continue
            if run is None:
                exact.append("no such operation")
            elif name.startswith("CEL"):
                exact.append("same" if _same(expected, plain(got)) else f"{plain(got)!r} where Python gives {expected!r}")
            else:
                exact.append("same" if _same(expected, got) else f"{got!r} where Python gives {expected!r}")
        runner = (ours(timed) if distribution is None else simple(timed) if distribution == "simpleeval" else
                  ast_(timed) if distribution == "asteval" else cel(timed) if distribution == "cel-python" else
                  jsonata_(timed))
        size, pure, counted = (0, True, []) if distribution is None else _size(distribution)
        out["candidates"][name] = {"exact": exact, "microseconds": _timed(runner), "kilobytes": size,
                                   "pure_python": pure, "distributions": counted}
    return out


def main() -> int:
    OUT.write_text(json.dumps(measure(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
