"""The benchmark's figures as data: each figure is recorded as it is measured, and the run is
written as one JSON file (`write_run`), which the site's Performance page is drawn from
(``agent_loop_sim/site/pages/performance.py`` reads and checks the same format).

A run: its date, commit and command, the machine (cores, CPU model, Python, load average), and
every figure: an id (``P0.engine``), what it is and what it compares, its unit (``x`` for a
ratio), the median with its min-max, how many alternating pairs (or runs, for a time alone), the
goal (``{"at_most": 2}``, ``{"at_least": 1000}``) and its verdict, and the sides behind a ratio.
A full run goes to ``benchmarks/results/runs/`` (committed as history); a ``--quick`` run to
``benchmarks/output/quick/`` (not committed: one pair each is a smoke run, not figures).
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import statistics
import subprocess
from pathlib import Path
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parent.parent
FORMAT = "agent-loop-sim benchmark run 1"
RUNS = ROOT / "benchmarks" / "results" / "runs"
QUICK = ROOT / "benchmarks" / "output" / "quick"

#: the figures measured so far in this process, in the order measured
RECORDED: list[dict[str, Any]] = []


def value(values: Iterable[float], unit: str, digits: int) -> dict[str, Any]:
    """The median and min-max of ``values``, rounded to the digits the benchmark prints."""
    values = list(values)
    return {"unit": unit, "median": round(statistics.median(values), digits), "min": round(min(values), digits),
            "max": round(max(values), digits), "digits": digits}


def side(name: str, unit: str, values: Iterable[float], digits: int) -> dict[str, Any]:
    """One side of a ratio (its own times, in its own unit)."""
    return {"name": name, **value(values, unit, digits)}


def record(id: str, title: str, compares: str, unit: str, values: Iterable[float], digits: int, *,  # noqa: A002
           pairs: int | None = None, runs: int | None = None, goal: dict[str, float] | None = None,
           sides: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    """Record one figure: ``pairs`` for a ratio of alternating pairs, ``runs`` for a time alone."""
    figure: dict[str, Any] = {"id": id, "title": title, "compares": compares, **value(values, unit, digits)}
    figure["pairs" if pairs is not None else "runs"] = pairs if pairs is not None else runs
    figure["goal"] = goal
    figure["verdict"] = None if goal is None else verdict(figure["median"], goal)
    if sides:
        figure["sides"] = list(sides)
    RECORDED.append(figure)
    return figure


def verdict(median: float, goal: dict[str, float]) -> str:
    (kind, bound), = goal.items()
    return "meets" if (median <= bound if kind == "at_most" else median >= bound) else "misses"


def machine() -> dict[str, Any]:
    """The facts that make a run's figures comparable with another's (or not)."""
    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cores": os.cpu_count() or 1, "cpu": cpu or platform.processor() or None,
            "python": platform.python_version(), "load_average": round(os.getloadavg()[0], 1)}


def commit() -> str:
    """The checkout's commit, short, with ``+changes`` when tracked files differ from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                             text=True).stdout.strip()
    return (head or "unknown") + ("+changes" if changed else "")


def run_data(figures: list[dict[str, Any]], command: str, quick: bool,
             when: datetime.datetime | None = None) -> dict[str, Any]:
    when = when or datetime.datetime.now(datetime.timezone.utc)
    return {"format": FORMAT, "date": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "commit": commit(), "quick": quick,
            "machine": machine(), "command": command, "figures": list(figures)}


def write_run(data: dict[str, Any], folder: Path | None = None) -> Path:
    """Write a run as ``<date>T<time>Z-<commit>.json``: into the committed runs, or a quick run apart."""
    folder = folder or (QUICK if data["quick"] else RUNS)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = data["date"].replace(":", "").replace("-", "")[:15]  # 20261207T083012
    path = folder / f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}{stamp[8:]}Z-{data['commit']}.json"
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)  # whole or not at all
    return path
