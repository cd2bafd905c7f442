"""The benchmark's way of measuring (`benchmarks/measure.py`) does what its figures claim:
the two sides alternate (A B A B ...), warm-up pairs are dropped, each ratio is taken pair by
pair, and a figure is quoted as its median with min-max. No clock is read here: the sides are
stand-ins that return set numbers, so these are facts about the method, not timings."""
from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT))  # benchmarks/ is not a package of the project
from benchmarks.measure import MIN_PAIRS, paired, ratios, run_command, spread  # noqa: E402
from benchmarks import run  # noqa: E402


def test_the_sides_alternate_and_warm_up_pairs_are_dropped():
    calls: list[str] = []
    figures = iter(range(100))

    def side(name: str):
        def call() -> float:
            calls.append(name)
            return float(next(figures))
        return call

    first, second = paired(side("A"), side("B"), pairs=3, warmup=1)
    assert calls == ["A", "B"] * 4
    assert first == [2.0, 4.0, 6.0] and second == [3.0, 5.0, 7.0]  # the first pair (0, 1) is dropped


def test_ratios_are_taken_pair_by_pair_and_quoted_as_median_with_min_max():
    assert ratios([2.0, 9.0, 4.0], [1.0, 3.0, 4.0]) == [2.0, 3.0, 1.0]
    assert spread([2.0, 3.0, 1.0], ".1f") == "2.0 (1.0-3.0)"
    assert spread([2.0, 3.0, 1.0], ".1f") != "3.0 (1.0-3.0)"  # the median, not the last or the mean


def test_a_full_run_takes_at_least_five_pairs_whatever_it_is_asked():
    assert MIN_PAIRS == 5
    seen: list[int] = []
    original = run.p9_bytecode
    run.p9_bytecode = lambda pairs: (seen.append(pairs), ("P9 stand-in", True))[1]
    try:
        run.main(["--only", "P9", "--pairs", "2"])
    finally:
        run.p9_bytecode = original
    assert seen == [MIN_PAIRS]


def test_a_command_is_credited_with_its_own_peak_memory_not_the_benchmarks():
    ballast = b"\x01" * (300 * 2**20)  # written, so resident: this process now peaks above 300 MiB
    started_here = subprocess.Popen([sys.executable, "-c", "pass"])
    _, _, usage = os.wait4(started_here.pid, 0)
    started_here.returncode = 0
    # Why `launch.py` exists: started straight from here, even `pass` is credited with our peak.
    assert usage.ru_maxrss * 1024 >= 300 * 2**20
    assert run_command([sys.executable, "-c", "pass"], ROOT).peak_bytes < 100 * 2**20
    assert run_command([sys.executable, "-c", "x = b'1' * 200 * 2**20"], ROOT).peak_bytes >= 200 * 2**20
    del ballast


def test_a_command_s_exit_status_is_reported():
    assert run_command([sys.executable, "-c", "raise SystemExit(3)"], ROOT).returncode == 3
