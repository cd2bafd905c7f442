"""The Performance page, drawn from the benchmark's committed runs (``benchmarks/results/runs/``)
and from the committed runs of ``make test`` (``benchmarks/results/suite/``).

``benchmarks/run.py`` writes each run as one JSON file: when, at which commit, on what machine,
and every figure it measured (what is compared, the median with its min-max, the pairs or runs,
the goal and its verdict). This module reads those files, refuses one that is not a run (naming
the file and the JSON path) or that is a quick run (a smoke run, not figures), and draws the page:
the hand-written text beside the data (``benchmarks/results/performance.md``), each figure from
the newest run that measured it, and each ratio's history across the runs. ``make test`` writes
its runs in the same format (`check_suite_run` says what more such a run holds: ``suite.total``,
the whole run's wall time against its goal, and one ``suite.stage.<name>`` per stage, with its
CPU time); the page draws each run's total and stages, oldest first. `disagreements` says where a
page does not show the data's figures (the test holds the page to the data with it).
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ...errors import InputError
from ...jsonio import json_path, load_json
from ..parts import rawhtml
from ..parts.markdown import code, table, text

PERFORMANCE_PAGE = "guide/performance.md"
RESULTS = Path("benchmarks") / "results"
RUNS = RESULTS / "runs"
SUITE_RUNS = RESULTS / "suite"  #: the runs of ``make test``, one file each
SUITE_TOTAL = "suite.total"
SUITE_STAGE = "suite.stage."
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


def check_suite_run(data: Any, file: str) -> None:
    """Refuse what is not one run of ``make test`` (`InputError`): a benchmark run (`check_run`)
    whose figures are times in seconds, ``suite.total`` (the whole run, set-up included) with its
    goal, and ``suite.stage.<name>`` for each stage, with ``cpu_seconds`` (the user and system time
    of the stage's processes) where it was measured."""
    check_run(data, file)
    total = None
    for i, f in enumerate(data["figures"]):
        at: list[str | int] = ["figures", i]
        stage = f["id"].startswith(SUITE_STAGE) and f["id"] != SUITE_STAGE
        _need(f["id"] == SUITE_TOTAL or stage, f"a figure of make test is {SUITE_TOTAL} or {SUITE_STAGE}<name>", file,
              [*at, "id"])
        _need(f["unit"] == "s", "make test's times are in seconds (s)", file, [*at, "unit"])
        if f.get("cpu_seconds") is not None:  # (not given where it was not measured: the set-up's)
            _need(_number(f["cpu_seconds"]) and f["cpu_seconds"] >= 0,
                  "cpu_seconds (user and system time of the stage's processes) is a number, 0 or more", file,
                  [*at, "cpu_seconds"])
        if f["id"] == SUITE_TOTAL:
            total = i
    _need(total is not None, f"no {SUITE_TOTAL} (the whole run's wall time)", file, ["figures"])
    _need(data["figures"][total].get("goal") is not None, f"{SUITE_TOTAL} has no goal", file,
          ["figures", total, "goal"])


def verdict(median: float, goal: dict[str, float]) -> str:
    (kind, bound), = goal.items()
    return VERDICTS[median <= bound if kind == "at_most" else median >= bound]


def load_runs(root: Path, folder: Path = RUNS, check: Callable[[Any, str], None] = check_run,
              ) -> tuple[list[BenchmarkRun], list[str]]:
    """The committed runs in ``folder``, oldest first (by file name: the date leads it), and the
    problems reading them (``check`` refuses a file that is not a run)."""
    runs, problems = [], []
    for path in sorted((root / folder).glob("*.json")) if (root / folder).is_dir() else []:
        name = path.relative_to(root).as_posix()
        try:
            data = load_json(path, limited=False)
            check(data, name)
        except InputError as exc:
            exc.file = name  # (the checkout's path, not this machine's)
            problems.append(str(exc))
            continue
        runs.append(BenchmarkRun(name, data))
    return runs, problems


def load_suite_runs(root: Path) -> tuple[list[BenchmarkRun], list[str]]:
    """The committed runs of ``make test``, oldest first, and the problems reading them."""
    return load_runs(root, SUITE_RUNS, check_suite_run)


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


def _svg(cls: str, width: float, height: float, title: str) -> str:
    """An inline SVG's opening (no script): its class, size and what it shows (its title)."""
    return (f'<svg class="{cls}" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'xmlns="http://www.w3.org/2000/svg"><title>{html.escape(title)}</title>')


def _scale(low: float, high: float, top: float, bottom: float) -> Callable[[float], float]:
    """Values from ``low`` to ``high`` -> heights from ``bottom`` up to ``top`` (SVG's y grows downwards)."""
    span = (high - low) or 1.0
    return lambda v: round(bottom - (v - low) / span * (bottom - top), 1)


def _goal_line(y: float, x1: float, x2: float, figure: dict[str, Any]) -> list[str]:
    """A figure's goal: a dashed line at its height, labelled above its left end."""
    return [f'<line x1="{x1}" y1="{y}" x2="{x2}" y2="{y}" stroke="currentColor" stroke-width="1.2" '
            'stroke-dasharray="4 3" stroke-opacity="0.6"/>',
            f'<text x="{x1}" y="{round(y - 4, 1)}" font-size="10" fill="currentColor">'
            f'goal {html.escape(goal_text(figure))}</text>']


def _bound(figure: dict[str, Any]) -> float | None:
    goal = figure.get("goal")
    return next(iter(goal.values())) if goal else None


def sparkline(fid: str, seen: list[tuple[BenchmarkRun, dict[str, Any]]]) -> str:
    """A ratio across the runs as inline SVG (no script): each run's median as a dot on a line, its
    min-max as a bar where the run recorded it, the goal as a dashed line."""
    width, height, pad = 420, 90, 14
    bound = _bound(seen[-1][1])
    values = [v for _, f in seen for v in (f["median"], f.get("min"), f.get("max")) if v is not None]
    values += [bound] if bound is not None else []
    y = _scale(min(values), max(values), pad, height - pad)
    step = (width - 2 * pad) / max(len(seen) - 1, 1)
    xs = [round(pad + i * step, 1) for i in range(len(seen))]
    out = [_svg("ratio-history", width, height, f"{fid} across {len(seen)} runs")]
    if bound is not None:
        out += _goal_line(y(bound), pad, width - pad, seen[-1][1])
    out.append('<g fill="none" stroke="currentColor" stroke-width="1.2">')
    for x, (_, f) in zip(xs, seen):
        if f.get("min") is not None and f.get("max") is not None:
            out.append(f'<line x1="{x}" y1="{y(f["min"])}" x2="{x}" y2="{y(f["max"])}" stroke-opacity="0.5"/>')
    out.append('<polyline points="' + " ".join(f"{x},{y(f['median'])}" for x, (_, f) in zip(xs, seen)) + '"/>')
    out.append("</g>")
    for x, (_, f) in zip(xs, seen):
        fill = "none" if f.get("verdict") == "misses" else "currentColor"
        out.append(f'<circle cx="{x}" cy="{y(f["median"])}" r="3.5" fill="{fill}" stroke="currentColor"/>')
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


def suite_stages(suite: list[BenchmarkRun]) -> dict[str, str]:
    """Each stage's id -> its title, in the newest run's order, then the stages only older runs had."""
    out: dict[str, str] = {}
    for run in reversed(suite):
        for f in run.data["figures"]:
            if f["id"] != SUITE_TOTAL:
                out.setdefault(f["id"], f["title"])
    return out


def _by_id(run: BenchmarkRun) -> dict[str, dict[str, Any]]:
    return {f["id"]: f for f in run.data["figures"]}


def _seconds(figure: dict[str, Any]) -> str:
    """A time of ``make test``: its median, with its min-max only where the run timed it more than once."""
    if figure.get("min") == figure.get("max") == figure["median"] or figure.get("min") is None:
        return f"{number(figure['median'], figure.get('digits'))} s"
    return spread(figure)


def _time_said(figure: dict[str, Any]) -> str:
    """A stage's wall time, then its CPU time where the run measured it: ``402 s, CPU 611 s``."""
    shown = _seconds(figure)
    if figure.get("cpu_seconds") is not None:
        shown += f", CPU {number(figure['cpu_seconds'], figure.get('digits'))} s"
    return shown


def _time_cell(figure: dict[str, Any] | None) -> str:
    """A time in the table, in seconds: the median, then after a slash its CPU time where the run
    measured it (``402 / 611``, kept on one line); a dash where the run had no such stage."""
    if figure is None:
        return "\u2014"
    shown = number(figure["median"], figure.get("digits"))
    if figure.get("cpu_seconds") is not None:
        shown += f"\u00a0/\u00a0{number(figure['cpu_seconds'], figure.get('digits'))}"
    return shown


def _suite_head(stages: dict[str, str]) -> list[str]:
    return ["date (UTC)", "commit", "total", "verdict", *[rawhtml.text(t) for t in stages.values()]]


def _suite_row(run: BenchmarkRun, stages: dict[str, str]) -> list[str]:
    """A run's row (HTML cells: the table is HTML, so that a phone shows each cell after its column's name)."""
    figures = _by_id(run)
    total = figures[SUITE_TOTAL]
    day, _, time = run.data["date"].partition("T")  # (the writer's dates are UTC: the column says so)
    when = f'<span style="white-space: nowrap">{rawhtml.text(day)}</span> {rawhtml.text(time.removesuffix("Z"))}'
    verdict = "" if total.get("verdict") is None else (
        "meets" if total["verdict"] == "meets" else "<strong>misses</strong>")
    return [when.strip(), rawhtml.code(run.data["commit"]), _time_cell(total), verdict,
            *[_time_cell(figures.get(sid)) for sid in stages]]


def _suite_row_html(run: BenchmarkRun, stages: dict[str, str]) -> str:
    """The run's row as the table writes it."""
    whole = rawhtml.table_html(_suite_head(stages), [_suite_row(run, stages)])
    return whole[whole.index("<tr>", whole.index("<tbody>")):whole.rindex("</tr>") + len("</tr>")]


def _bar_title(run: BenchmarkRun, label: str, figure: dict[str, Any]) -> str:
    """What a bar says when pointed at: the run, the row, the time."""
    return html.escape(f"{run.data['date']} {run.data['commit']}: {label} {_time_said(figure)}", quote=False)


def suite_chart(suite: list[BenchmarkRun], stages: dict[str, str]) -> str:
    """Each run of ``make test`` as inline SVG (no script), oldest first from left to right: a row of
    bars for the whole run's time, with its goal dashed and a missed goal an open bar, then a row
    for each stage. Each row has its own scale, from zero to its longest time (or its goal), so
    that a stage that grows is seen growing, whatever its size; the newest time stands at its right."""
    rows = [(SUITE_TOTAL, "total"), *stages.items()]
    longest = max(len(label) for _, label in rows)
    width, label_w, value_w, gap = 680, round(min(240, 16 + 6 * longest)), 52, 6  # (about 6 px a letter at 12 px)
    heights = [72] + [26] * len(stages)
    height = sum(heights) + gap * len(stages) + 18
    slot = (width - label_w - value_w) / len(suite)
    bar = round(min(slot * 0.7, 22), 1)
    xs = [round(label_w + i * slot + (slot - bar) / 2, 1) for i in range(len(suite))]
    figures = [_by_id(run) for run in suite]
    newest_total = figures[-1][SUITE_TOTAL]
    out = [_svg("suite-history", width, height, f"make test: the total and each stage's time, over {len(suite)} runs")]
    top = 0.0
    for (rid, label), row_h in zip(rows, heights):
        bottom = top + row_h
        bound = _bound(newest_total) if rid == SUITE_TOTAL else None
        values = [f[rid]["median"] for f in figures if rid in f] + ([bound] if bound is not None else [])
        y = _scale(0, max(values) or 1.0, top + (14 if bound is not None else 2), bottom)
        middle = round((top + bottom) / 2, 1)
        out.append(f'<text x="0" y="{middle}" dy="0.35em" font-size="12" fill="currentColor">{html.escape(label)}</text>')
        out.append(f'<line x1="{label_w}" y1="{bottom}" x2="{width - value_w}" y2="{bottom}" stroke="currentColor" '
                   'stroke-opacity="0.3"/>')
        for x, run, f in zip(xs, suite, figures):
            if rid not in f:
                continue
            top_y = y(f[rid]["median"])
            open_bar = f[rid].get("verdict") == "misses"
            fill = 'fill="none" stroke="currentColor"' if open_bar else 'fill="currentColor" fill-opacity="0.7"'
            out.append(f'<rect x="{x}" y="{top_y}" width="{bar}" height="{round(bottom - top_y, 1)}" {fill}>'
                       f'<title>{_bar_title(run, label, f[rid])}</title></rect>')
        if bound is not None:
            out += _goal_line(y(bound), label_w, width - value_w, newest_total)
        if rid in figures[-1]:
            out.append(f'<text x="{width}" y="{middle}" dy="0.35em" text-anchor="end" font-size="12" '
                       f'fill="currentColor">{html.escape(_seconds(figures[-1][rid]))}</text>')
        top = bottom + gap
    every = max(1, math.ceil(66 / slot))  # a date under every run there is room for, the newest always
    for i in range(len(suite) - 1, -1, -every):
        out.append(f'<text x="{round(xs[i] + bar / 2, 1)}" y="{height - 3}" text-anchor="middle" font-size="10" '
                   f'fill="currentColor">{html.escape(suite[i].data["date"][:10])}</text>')
    return "".join(out) + "</svg>"


def render_suite_times(suite: list[BenchmarkRun]) -> str:
    """The part of the page on ``make test``: each run's total against its goal, and its stages."""
    where = (f"`make test` times each of its stages and writes one file per run into {code(SUITE_RUNS.as_posix() + '/')} "
             "(`<date>T<time>Z-<commit>.json`, in the format of the benchmark's runs); the files are committed "
             "as data, and this part of the page is drawn from them when the site is built.")
    out = ["## How long `make test` takes, run by run", ""]
    if not suite:
        return "\n".join([*out, where + " No run of `make test` is committed yet.", ""])
    stages = suite_stages(suite)
    total = _by_id(suite[-1])[SUITE_TOTAL]
    bound = _bound(total)
    minutes = "" if bound is None or bound % 60 else f" ({int(bound // 60)} minute{'s' if bound != 60 else ''})"
    missed = sum(_by_id(run)[SUITE_TOTAL]["verdict"] == "misses" for run in suite)
    out += [where, "",
            f"Each of the {len(suite)} runs, oldest first: the whole run's wall time against its goal, "
            f"{goal_text(total)}{minutes}, then each stage's. The stages run partly at the same time, so "
            "their times do not add up to the total. In the chart each row has a scale of its own, from zero "
            "to its longest time (for the total, to its goal where that is longer), so that a stage that grows "
            "is seen growing whatever its size; the newest run's time stands at the right, and a missed goal "
            "is an open bar. "
            + (f"Goal missed in {missed} of the {len(suite)} runs." if missed else "Every run met its goal."), "",
            '<figure class="suite-history">' + suite_chart(suite, stages) + "</figure>", "",
            "In the table, times are in seconds: the total's wall time, and each stage's wall time, then, "
            "after a slash, its CPU time where the run measured it (the user and system time of the stage's "
            "processes: more than its wall time where they ran on both cores at once, less where they waited "
            "for a peer, a server, a browser or a free core); a dash where the run had no such stage.", "",
            rawhtml.table(_suite_head(stages), [_suite_row(run, stages) for run in suite]), "",
            "What each row measures (as the newest run that timed it says):", "",
            f"- total: {text(total['compares'])}",
            *[f"- {text(title)}: {text(_compares(suite, sid))}" for sid, title in stages.items()], ""]
    return "\n".join(out)


def _compares(suite: list[BenchmarkRun], sid: str) -> str:
    return next(_by_id(run)[sid]["compares"] for run in reversed(suite) if sid in _by_id(run))


def render_performance(root: Path) -> tuple[str, list[str]]:
    """The page, and the problems reading its inputs (a run that is not one, the text missing)."""
    runs, problems = load_runs(root)
    suite, suite_problems = load_suite_runs(root)
    problems += suite_problems
    drawn = render_figures(runs) + "\n" + render_suite_times(suite)
    if not (root / RESULTS).is_dir():  # a project without the benchmark (not this checkout): nothing to draw
        return "# Performance\n\n" + drawn, problems
    try:
        prose = (root / PROSE).read_text(encoding="utf-8")
    except OSError as exc:
        return "# Performance\n", problems + [f"{PROSE.as_posix()}: cannot be read ({exc.strerror})"]
    if prose.count(FIGURES_MARK) != 1:
        return "# Performance\n", problems + [f"{PROSE.as_posix()}: the mark {FIGURES_MARK} must be there once"]
    head, rest = prose.split(FIGURES_MARK)
    return head + drawn + rest, problems


def disagreements(page: str, runs: list[BenchmarkRun], suite: list[BenchmarkRun] | None = None) -> list[str]:
    """Where ``page`` does not show the runs' figures: each latest figure's row and each ratio's history;
    and each run of ``make test`` (``suite``): its row in the table, and its total's and stages' bars."""
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
    suite = suite or []
    stages = suite_stages(suite)
    for run in suite:
        if _suite_row_html(run, stages) not in page:
            out.append(f"make test: the page's table does not show {run.file} as it is")
        for f in run.data["figures"]:
            label = "total" if f["id"] == SUITE_TOTAL else stages[f["id"]]
            if f"<title>{_bar_title(run, label, f)}</title>" not in page:
                out.append(f"make test: the page's chart has no bar for {f['id']} {_time_said(f)} from {run.file}")
    return out
