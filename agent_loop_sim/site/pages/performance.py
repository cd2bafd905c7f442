"""The Performance page, drawn from the benchmark's committed runs (``benchmarks/results/runs/``).

``benchmarks/run.py`` writes each run as one JSON file: when, at which commit, on what machine,
and every figure it measured (what is compared, the median with its min-max, the pairs or runs,
the goal and its verdict). This module reads those files, refuses one that is not a run (naming
the file and the JSON path) or that is a quick run (a smoke run, not figures), and draws the page:
the hand-written text beside the data (``benchmarks/results/performance.md``), each figure from
the newest run that measured it, and each ratio's history across the runs. `disagreements` says
where a page does not show the data's figures (the test holds the page to the data with it).
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...jsonio import json_path, load_json
from ..parts.markdown import code, table, text

PERFORMANCE_PAGE = "guide/performance.md"
RESULTS = Path("benchmarks") / "results"
RUNS = RESULTS / "runs"
PROSE = RESULTS / "performance.md"
FORMAT = "agent-loop-sim benchmark run 1"
#: where the generated part goes in the hand-written text
FIGURES_MARK = "<!-- figures -->"
GOALS = {"at_most": "<=", "at_least": ">="}
VERDICTS = {True: "meets", False: "misses"}
SPREAD = ("min", "max")


@dataclass(frozen=True)
class BenchmarkRun:
    file: str  #: its path in the checkout
    data: dict[str, Any]

    @property
    def label(self) -> str:
        """The run's name: its file's, which starts with its date and ends with its commit."""
        return code(Path(self.file).stem)


def _need(cond: bool, problem: str, file: str, path: list[str | int]) -> None:
    if not cond:
        raise InputError(problem, file=file, path=json_path(path))


def _number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _check_value(value: dict[str, Any], file: str, path: list[str | int], missing: list[str]) -> None:
    _need(isinstance(value, dict), "a figure is an object", file, path)
    _need(isinstance(value.get("unit"), str) and value["unit"] != "", "no unit", file, [*path, "unit"])
    _need(_number(value.get("median")), "the median is not a number", file, [*path, "median"])
    for key in SPREAD:
        if key in missing:
            _need(value.get(key) is None, f"{key} is said not to be recorded, yet given", file, [*path, key])
        else:
            _need(_number(value.get(key)), f"{key} is not a number (list it in not_recorded if the run lacked it)",
                  file, [*path, key])
    digits = value.get("digits")
    _need(digits is None or (type(digits) is int and 0 <= digits <= 6), "digits (after the point) is 0 to 6", file,
          [*path, "digits"])
    if all(_number(value.get(k)) for k in SPREAD):
        _need(value["min"] <= value["median"] <= value["max"], "the median is not within min-max", file, path)


def check_run(data: Any, file: str) -> None:
    """Refuse what is not one benchmark run, naming the JSON path (`InputError`)."""
    _need(isinstance(data, dict), "a run is a JSON object", file, [])
    _need(data.get("format") == FORMAT, f"the format is not {FORMAT!r}", file, ["format"])
    _need(data.get("quick") is False, "a quick run (one pair each) is a smoke run, not figures: it is not history; "
          "delete the file", file, ["quick"])
    for key in ("date", "commit", "command"):
        _need(isinstance(data.get(key), str) and data[key] != "", f"no {key}", file, [key])
    machine = data.get("machine")
    _need(isinstance(machine, dict) and type(machine.get("cores")) is int, "no machine with its cores", file, ["machine"])
    for key in ("cpu", "python"):
        _need(machine.get(key) is None or isinstance(machine[key], str), f"{key} is a string or null", file, ["machine", key])
    _need(machine.get("load_average") is None or _number(machine["load_average"]), "load_average is a number or null",
          file, ["machine", "load_average"])
    _need(isinstance(data.get("note", ""), str), "a note is a string", file, ["note"])
    figures = data.get("figures")
    _need(isinstance(figures, list) and figures != [], "no figures", file, ["figures"])
    seen = set()
    for i, f in enumerate(figures):
        at: list[str | int] = ["figures", i]
        _need(isinstance(f, dict), "a figure is an object", file, at)
        for key in ("id", "title", "compares"):
            _need(isinstance(f.get(key), str) and f[key] != "", f"no {key}", file, [*at, key])
        _need(f["id"] not in seen, f"the figure {f['id']!r} twice", file, [*at, "id"])
        seen.add(f["id"])
        missing = f.get("not_recorded", [])
        _need(isinstance(missing, list) and set(missing) <= {*SPREAD, "count"}, "not_recorded lists min, max or count",
              file, [*at, "not_recorded"])
        _check_value(f, file, at, missing)
        counts = [k for k in ("pairs", "runs") if f.get(k) is not None]
        if "count" in missing:
            _need(not counts, "the count is said not to be recorded, yet given", file, at)
        else:
            _need(len(counts) == 1 and type(f[counts[0]]) is int and f[counts[0]] > 0,
                  "one of pairs (alternating pairs) or runs, a positive whole number", file, at)
        _need(isinstance(f.get("sides", []), list), "sides is a list", file, [*at, "sides"])
        for j, side in enumerate(f.get("sides", [])):
            _need(isinstance(side, dict) and isinstance(side.get("name"), str), "a side has a name", file, [*at, "sides", j])
            _check_value(side, file, [*at, "sides", j], side.get("not_recorded", []))
        goal = f.get("goal")
        if goal is None:
            _need(f.get("verdict") is None, "a verdict without a goal", file, [*at, "verdict"])
            continue
        _need(isinstance(goal, dict) and len(goal) == 1 and next(iter(goal)) in GOALS and _number(next(iter(goal.values()))),
              "a goal is {\"at_most\": N} or {\"at_least\": N}", file, [*at, "goal"])
        _need(f.get("verdict") == verdict(f["median"], goal),
              f"the verdict is not what the median and the goal say ({verdict(f['median'], goal)})", file, [*at, "verdict"])


def verdict(median: float, goal: dict[str, float]) -> str:
    (kind, bound), = goal.items()
    return VERDICTS[median <= bound if kind == "at_most" else median >= bound]


def load_runs(root: Path) -> tuple[list[BenchmarkRun], list[str]]:
    """The committed runs, oldest first (by file name: the date leads it), and the problems reading them."""
    runs, problems = [], []
    for path in sorted((root / RUNS).glob("*.json")) if (root / RUNS).is_dir() else []:
        name = path.relative_to(root).as_posix()
        try:
            data = load_json(path, limited=False)
            check_run(data, name)
        except InputError as exc:
            exc.file = name  # (the checkout's path, not this machine's)
            problems.append(str(exc))
            continue
        runs.append(BenchmarkRun(name, data))
    return runs, problems


def number(value: float, digits: int | None = None) -> str:
    """A figure with the digits the run measured it to (``digits``, when the run says), thousands separated."""
    if digits is not None:
        return format(value, f",.{digits}f")
    if type(value) is float and value.is_integer() and abs(value) >= 100:
        value = int(value)
    return format(value, ",")


def spread(value: dict[str, Any]) -> str:
    """The median, then (min-max), in its unit; "min-max not recorded" where the run lacked them."""
    unit, digits = value["unit"], value.get("digits")
    shown = f"{number(value['median'], digits)}{unit if unit == 'x' else ' ' + unit}"
    if value.get("min") is None or value.get("max") is None:
        return shown + " (min-max not recorded)"
    return f"{shown} ({number(value['min'], digits)}-{number(value['max'], digits)})"


def count(figure: dict[str, Any]) -> str:
    if figure.get("pairs") is not None:
        return f"{figure['pairs']} pairs"
    if figure.get("runs") is not None:
        return "1 run" if figure["runs"] == 1 else f"{figure['runs']} runs"
    return "not recorded"


def goal_text(figure: dict[str, Any]) -> str:
    goal = figure.get("goal")
    if not goal:
        return ""
    (kind, bound), = goal.items()
    return f"{GOALS[kind]} {number(bound)}{'x' if figure['unit'] == 'x' else ' ' + figure['unit']}"


def _verdict_cell(figure: dict[str, Any]) -> str:
    v = figure.get("verdict")
    return "" if v is None else ("meets" if v == "meets" else "**misses**")


def latest(runs: list[BenchmarkRun]) -> dict[str, tuple[BenchmarkRun, dict[str, Any]]]:
    """Each figure's id -> the newest run that measured it, and the figure, in the benchmark's order."""
    out: dict[str, tuple[BenchmarkRun, dict[str, Any]]] = {}
    for run in runs:
        for f in run.data["figures"]:
            out[f["id"]] = (run, f)
    return dict(sorted(out.items(), key=lambda item: _order(item[0])))


def _order(figure_id: str) -> int:
    """The benchmark's number (P0, P1 ...): figures in the order the benchmark runs them."""
    head = figure_id.split(".")[0]
    return int(head[1:]) if head[1:].isdigit() else 1_000


def history(runs: list[BenchmarkRun]) -> dict[str, list[tuple[BenchmarkRun, dict[str, Any]]]]:
    """Each ratio's id -> every run that measured it, oldest first; only ratios measured more than once."""
    out: dict[str, list[tuple[BenchmarkRun, dict[str, Any]]]] = {}
    for run in runs:
        for f in run.data["figures"]:
            if f["unit"] == "x":
                out.setdefault(f["id"], []).append((run, f))
    return {k: v for k, v in sorted(out.items(), key=lambda item: _order(item[0])) if len(v) > 1}


def sparkline(fid: str, seen: list[tuple[BenchmarkRun, dict[str, Any]]]) -> str:
    """A ratio across the runs as inline SVG (no script): each run's median as a dot on a line, its
    min-max as a bar where the run recorded it, the goal as a dashed line."""
    width, height, pad = 420, 90, 14
    goal = seen[-1][1].get("goal")
    bound = next(iter(goal.values())) if goal else None
    values = [v for _, f in seen for v in (f["median"], f.get("min"), f.get("max")) if v is not None]
    low, high = min(values + ([bound] if bound is not None else [])), max(values + ([bound] if bound is not None else []))
    span = (high - low) or 1.0

    def y(v: float) -> float:
        return round(height - pad - (v - low) / span * (height - 2 * pad), 1)

    step = (width - 2 * pad) / max(len(seen) - 1, 1)
    xs = [round(pad + i * step, 1) for i in range(len(seen))]
    out = [f'<svg class="ratio-history" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'xmlns="http://www.w3.org/2000/svg"><title>{html.escape(fid)} across {len(seen)} runs</title>',
           '<g fill="none" stroke="currentColor" stroke-width="1.2">']
    if bound is not None:
        out.append(f'<line x1="{pad}" y1="{y(bound)}" x2="{width - pad}" y2="{y(bound)}" stroke-dasharray="4 3" '
                   'stroke-opacity="0.6"/>')
    for x, (_, f) in zip(xs, seen):
        if f.get("min") is not None and f.get("max") is not None:
            out.append(f'<line x1="{x}" y1="{y(f["min"])}" x2="{x}" y2="{y(f["max"])}" stroke-opacity="0.5"/>')
    out.append('<polyline points="' + " ".join(f"{x},{y(f['median'])}" for x, (_, f) in zip(xs, seen)) + '"/>')
    out.append("</g>")
    for x, (_, f) in zip(xs, seen):
        fill = "none" if f.get("verdict") == "misses" else "currentColor"
        out.append(f'<circle cx="{x}" cy="{y(f["median"])}" r="3.5" fill="{fill}" stroke="currentColor"/>')
    if bound is not None:
        out.append(f'<text x="{pad}" y="{y(bound) - 4}" font-size="10" fill="currentColor">'
                   f'goal {html.escape(goal_text(seen[-1][1]))}</text>')
    return "".join(out) + "</svg>"


def _figure_cell(figure: dict[str, Any]) -> str:
    sides = "; ".join(f"{text(s['name'])} {spread(s)}" for s in figure.get("sides", []))
    shown = spread(figure) + (f" ({sides})" if sides else "")
    return shown


def _machine(run: BenchmarkRun) -> str:
    m = run.data["machine"]
    parts = [f"{m['cores']} cores", text(m.get("cpu") or "CPU not recorded"),
             f"Python {m['python']}" if m.get("python") else "Python not recorded"]
    if m.get("load_average") is not None:
        parts.append(f"load average {m['load_average']}")
    return ", ".join(parts)


def render_figures(runs: list[BenchmarkRun]) -> str:
    """The generated part of the page: the latest figures, the runs, each ratio's history."""
    if not runs:
        return "No benchmark run is committed yet (`make bench` writes one into `benchmarks/results/runs/`).\n"
    shown = latest(runs)
    rows = [[f"{code(fid)} {text(f['title'])}", _figure_cell(f), count(f), goal_text(f), _verdict_cell(f), run.label]
            for fid, (run, f) in shown.items()]
    missed = [fid for fid, (_, f) in shown.items() if f.get("verdict") == "misses"]
    out = ["## The latest figures", "",
           f"Each figure from the newest of the {len(runs)} committed runs that measured it: the median "
           "with its min-max, of alternating pairs for a ratio (`x`), of runs for a time alone; beside a "
           "ratio, the times of its sides. "
           + (f"Goals missed: {', '.join(code(m) for m in missed)}." if missed else "Every goal met."), "",
           table(["figure", "median (min-max)", "of", "goal", "verdict", "run"], rows), "",
           "What each figure compares:", "",
           *[f"- {code(fid)}: {text(f['compares'])}" for fid, (_, f) in shown.items()], "",
           "## The runs", "",
           f"Newest first; each is a file in {code(RUNS.as_posix() + '/')}.", "",
           table(["run", "date", "commit", "machine", "command", "figures", "note"],
                 [[r.label, text(r.data["date"]), code(r.data["commit"]), _machine(r), code(r.data["command"]),
                   str(len(r.data["figures"])),
                   text(r.data.get("note", ""))] for r in reversed(runs)]), "",
           "## Each ratio across the runs", "",
           "The machine is shared, and its speed moves from one run to the next: the two sides of a ratio "
           "do not slow down alike, so a ratio moves with whichever side the machine slows. Each ratio "
           "measured in more than one run, oldest first: its medians left to right, each run's min-max "
           "as a bar (where the run recorded it), the goal dashed, a missed goal an open dot.", ""]
    for fid, seen in history(runs).items():
        out += [f"### {code(fid)} {text(seen[-1][1]['title'])}", "",
                '<figure class="ratio-history">' + sparkline(fid, seen) + "</figure>", "",
                table(["run", "median (min-max)", "of", "goal", "verdict"],
                      [[run.label, _figure_cell(f), count(f), goal_text(f), _verdict_cell(f)] for run, f in seen]), ""]
    return "\n".join(out)


def render_performance(root: Path) -> tuple[str, list[str]]:
    """The page, and the problems reading its inputs (a run that is not one, the text missing)."""
    runs, problems = load_runs(root)
    if not (root / RESULTS).is_dir():  # a project without the benchmark (not this checkout): nothing to draw
        return "# Performance\n\n" + render_figures(runs), problems
    try:
        prose = (root / PROSE).read_text(encoding="utf-8")
    except OSError as exc:
        return "# Performance\n", problems + [f"{PROSE.as_posix()}: cannot be read ({exc.strerror})"]
    if prose.count(FIGURES_MARK) != 1:
        return "# Performance\n", problems + [f"{PROSE.as_posix()}: the mark {FIGURES_MARK} must be there once"]
    head, rest = prose.split(FIGURES_MARK)
    return head + render_figures(runs) + rest, problems


def disagreements(page: str, runs: list[BenchmarkRun]) -> list[str]:
    """Where ``page`` does not show the runs' figures: each latest figure's row and each ratio's history."""
    out = []
    for fid, (run, f) in latest(runs).items():
        if not any(code(fid) in line and _figure_cell(f) in line and run.label in line
                   and _verdict_cell(f) in line for line in page.splitlines()):
            out.append(f"{fid}: the page does not show {_figure_cell(f)} from {run.file}")
        if f"- {code(fid)}: {text(f['compares'])}" not in page:
            out.append(f"{fid}: the page does not say what it compares as {run.file} does")
    for fid, seen in history(runs).items():
        for run, f in seen:
            if f"| {run.label} | {_figure_cell(f)} |" not in page:
                out.append(f"{fid}: the page's history does not show {_figure_cell(f)} from {run.file}")
    return out
