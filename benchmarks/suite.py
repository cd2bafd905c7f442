"""``make test``'s stages, run side by side and timed: the suite's own figures, kept as a benchmark run.

    python benchmarks/suite.py [--since EPOCH] [--only NAME ...] [--no-write]
    python benchmarks/suite.py --quick       the inner loop (`QUICK`): nothing written

Every stage is a command that checks one thing (the table `STAGES`); they are independent, so
they run side by side, one per core (`LANES`), the longest first: each also waits on peers,
servers and browsers, and one after another they took twice as long. Each
stage's output is printed whole when it ends (never interleaved), then one line per stage: its
verdict, its wall time and the CPU time of its processes. The run exits 1 when any stage failed.

The times are written, in the benchmark's format (`figures.py`), to
``benchmarks/results/suite/<date>-<commit>.json``: the total (from ``--since``, the moment
``make test`` began, so that the set-up counts), the set-up, and each stage. Committed, they are
the history the Performance page draws, so that the suite's growth is seen.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import figures

ROOT = figures.ROOT
SUITE = ROOT / "benchmarks" / "results" / "suite"
PYTHON = str(ROOT / ".venv" / "bin" / "python")
GOAL_SECONDS = 600  # ten minutes on two cores, set-up included
QUICK_GOAL_SECONDS = 120  # the inner loop's two minutes, after set-up
#: Stages at once: one per core. Each stage runs several processes of its own (pytest's workers,
#: the recorders), so more lanes only crowd the cores: on a crowded machine every wait grows,
#: third-party clients' fixed timeouts are missed (the Inspector's 15 s connect), and the
#: recorders, which poll while they wait, burn more CPU for the same work.
LANES = os.cpu_count() or 1
#: A failed stage's last lines, printed again after the summary: a log that keeps only the end of
#: the run (CI's) still says why.
FAILED_TAIL = 40


@dataclass(frozen=True)
class Stage:
    name: str
    command: tuple[str, ...]
    checks: str  # what it proves, in a few words (the figure's "compares")


STAGES = (
    # The longest first: they set the run's length, so they must not wait for a free core.
    Stage("pytest", (PYTHON, "-m", "pytest", "--durations=20"),
          "the test suite (pytest, its workers side by side)"),
    Stage("swap", (PYTHON, "-m", "agent_loop_sim", "record", "--against", "engine", "--check"),
          "the simulated peers and the engine's client where the SDK's stood = the committed recordings"),
    Stage("record", (PYTHON, "-m", "agent_loop_sim", "record", "--check"),
          "the live SDKs, recorded again = the committed recordings"),
    Stage("node-clients", ("node", "--test", "tests/node/"),
          "clients nobody here wrote (the MCP TypeScript SDK's, the A2A JavaScript SDK's) against the simulated peers"),
    Stage("site", (str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--strict"),
          "the strict site build, which aborts on any difference between the engine and a recording"),
    Stage("conformance-suite", (PYTHON, "scripts/mcp_conformance_suite.py", "--check"),
          "the official MCP conformance suite: the same verdicts from the SDK's server and serve mcp --http"),
    CHECK := Stage("check", (PYTHON, "-m", "agent_loop_sim", "check"), "the engine = every committed recording"),
    WIRE_TYPES := Stage("wire-types", (PYTHON, "scripts/validate_wire.py", "--check"),
                        "every committed message valid against the SDK's own wire types"),
    SURFACE := Stage("sdk-surface", (PYTHON, "scripts/sdk_surface.py", "--check"),
                     "the SDK's declaring API as committed, which the World files page sets beside the world's keys"),
)


#: ``make quick``, the inner loop before a full run: what a change to the model needs. The engine
#: against every committed recording, the site's pages as Markdown (the findings' evidence
#: checked), and the tests not marked ``slow`` (those that record an SDK live, start a browser or
#: build the site with MkDocs).
QUICK = (
    Stage("pytest-quick", (PYTHON, "-m", "pytest", "-m", "not slow", "-q", "--durations=10"),
          "the tests that need no live SDK, browser or MkDocs build"),
    CHECK,
    Stage("site-markdown", (PYTHON, "-m", "agent_loop_sim", "site", ".cache/site-markdown"),
          "the site's pages as Markdown, every finding's evidence checked"),
    WIRE_TYPES,
    SURFACE,
)


@dataclass
class Result:
    stage: Stage
    returncode: int
    seconds: float
    cpu_seconds: float
    output: str


def run_stage(stage: Stage, logs: Path) -> Result:
    """Run one stage to its end, its output (stdout and stderr, as they came) kept in a file."""
    log = logs / f"{stage.name}.log"
    start = time.perf_counter()
    with open(log, "wb") as out:
        process = subprocess.Popen(stage.command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        # wait4: the CPU time of the stage's process and of every process it waited for.
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    return Result(stage, process.returncode, seconds, usage.ru_utime + usage.ru_stime,
                  log.read_text(encoding="utf-8", errors="replace"))


def run_all(stages: list[Stage], lanes: int = LANES) -> list[Result]:
    """The stages, ``lanes`` at once, each next one (in the table's order) as a lane comes free;
    each one's output printed whole as it ends."""
    results: dict[str, Result] = {}
    printing = threading.Lock()
    logs = Path(tempfile.mkdtemp(prefix="agent-loop-sim-suite-"))

    def one(stage: Stage) -> None:
        result = run_stage(stage, logs)
        with printing:
            verdict = "passed" if result.returncode == 0 else f"FAILED (exit {result.returncode})"
            print(f"\n===== {stage.name}: {' '.join(Path(c).name if c.startswith('/') else c for c in stage.command)}")
            print(result.output, end="" if result.output.endswith("\n") or not result.output else "\n")
            print(f"===== {stage.name} {verdict} in {result.seconds:.1f} s", flush=True)
            results[stage.name] = result

    try:
        with ThreadPoolExecutor(max(1, lanes)) as pool:  # (first come, first served: the table's order)
            for done in [pool.submit(one, s) for s in stages]:
                done.result()
    finally:
        shutil.rmtree(logs, ignore_errors=True)
    return [results[s.name] for s in stages]


def suite_figures(results: list[Result], total: float, setup: float | None) -> list[dict]:
    """The run's figures: the total against the goal, the set-up, then each stage (wall and CPU)."""
    out = [figures.record("suite.total", "make test, set-up included",
                          "the wall time of the whole run, from make's start to the last stage's end",
                          "s", [total], 0, runs=1, goal={"at_most": GOAL_SECONDS})]
    if setup is not None:
        out.append(figures.record("suite.stage.setup", "set-up", "make setup: the environments, the browser runtime, "
                                  "Chromium (nothing when they are up to date)", "s", [setup], 0, runs=1))
    for r in results:
        figure = figures.record(f"suite.stage.{r.stage.name}", r.stage.name, r.stage.checks, "s", [r.seconds], 0,
                                runs=1)
        figure["cpu_seconds"] = round(r.cpu_seconds)
        out.append(figure)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--since", type=float, help="when make test began (seconds since the epoch): the set-up counts")
    parser.add_argument("--only", action="append", choices=sorted({s.name for s in STAGES + QUICK}),
                        help="only this stage (repeatable)")
    parser.add_argument("--no-write", action="store_true", help="print the times, write no file")
    parser.add_argument("--lanes", type=int, default=LANES, help=f"stages at once (default {LANES}, one per core)")
    parser.add_argument("--quick", action="store_true", help="the inner loop's stages instead (nothing written)")
    args = parser.parse_args(argv)
    stages = [s for s in (QUICK if args.quick else STAGES) if not args.only or s.name in args.only]
    began = time.time()
    results = run_all(stages, args.lanes)
    ended = time.time()
    setup = None if args.since is None else began - args.since
    total = ended - (began if args.since is None else args.since)
    print("\n===== the stages, longest first (they ran side by side)")
    for r in sorted(results, key=lambda r: -r.seconds):
        print(f"  {'passed' if r.returncode == 0 else 'FAILED':6}  {r.seconds:7.1f} s wall  {r.cpu_seconds:7.1f} s CPU  "
              f"{r.stage.name}")
    if setup is not None:
        print(f"  {'':6}  {setup:7.1f} s wall  {'':13}  set-up")
    print(f"  total {total:.1f} s (goal: at most {QUICK_GOAL_SECONDS if args.quick else GOAL_SECONDS} s)")
    failed = [r.stage.name for r in results if r.returncode != 0]
    if not (args.no_write or args.only or args.quick):  # a partial run is no point of the history
        data = figures.run_data(suite_figures(results, total, setup), "make test", quick=False)
        path = figures.write_run(data, SUITE)
        print(f"wrote {os.path.relpath(path, ROOT)}")
    for r in results:
        if r.returncode != 0:  # again at the end, where a reader of the run's last lines looks
            lines = r.output.rstrip("\n").split("\n")
            print(f"\n===== {r.stage.name} failed; its last {min(len(lines), FAILED_TAIL)} lines again:")
            print("\n".join(lines[-FAILED_TAIL:]))
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
