"""How the benchmark measures: alternating pairs, ratios pair by pair, medians with min-max.

These machines are shared and their speed drifts with other people's jobs, so a figure means
something only beside another one measured at the same moment: every comparison runs its two
sides in turn (A B A B ...), takes the ratio of each pair, and quotes the median ratio with
the smallest and largest. Whole commands are timed from outside, with the peak memory the
kernel accounted for that one process (``os.wait4`` in `launch.py`).
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple

MIN_PAIRS = 5
LAUNCHER = Path(__file__).with_name("launch.py")


def paired(a: Callable[[], float], b: Callable[[], float], pairs: int, warmup: int = 0) -> tuple[list[float], list[float]]:
    """``pairs`` alternating runs of each (A B A B ...), after ``warmup`` uncounted pairs: their figures."""
    first, second = [], []
    for i in range(warmup + pairs):
        x, y = a(), b()
        if i >= warmup:
            first.append(x)
            second.append(y)
    return first, second


def timed(fn: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> Callable[[], float]:
    """``fn`` as a function that returns how long one call took (seconds, by ``clock``: wall time by
    default; ``time.process_time`` for work done in this process alone, which other people's jobs
    on the machine slow down far less than they slow the wall clock)."""
    def run() -> float:
        start = clock()
        fn()
        return clock() - start
    return run


def ratios(a: list[float], b: list[float]) -> list[float]:
    """a/b pair by pair."""
    return [x / y for x, y in zip(a, b)]


def spread(values: list[float], fmt: str) -> str:
    """The median, then (min-max)."""
    return f"{format(statistics.median(values), fmt)} ({format(min(values), fmt)}-{format(max(values), fmt)})"


class Run(NamedTuple):
    seconds: float
    peak_bytes: int  # the process's peak resident memory
    returncode: int


def run_command(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> Run:
    """Run a command to its end: wall time and that process's own peak memory (not its children's),
    taken by `launch.py` from a small process of its own (a child started from here would be
    credited with this process's peak as well)."""
    done = subprocess.run([sys.executable, "-I", "-S", str(LAUNCHER), *command], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True)
    seconds, peak, status = done.stdout.split()
    return Run(float(seconds), int(peak), int(status))
