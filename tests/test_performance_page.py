"""The Performance page is drawn from the committed benchmark runs (``benchmarks/results/runs/``)
and shows every figure they hold; a run the page cannot trust (not a run, a quick run, a verdict
its goal does not give) is refused with its file and JSON path; the benchmark writes what the
page reads. The runs of ``make test`` (``benchmarks/results/suite/``, here the fixtures
``tests/data/suite_*.json``) are drawn too: each run's total against its goal, and its stages."""
from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

from conftest import ROOT

from agent_loop_sim.site.pages.performance import (FIGURES_MARK, PERFORMANCE_PAGE, PROSE, RUNS, SUITE_RUNS,
                                                    disagreements, load_runs, load_suite_runs, render_performance)

sys.path.insert(0, str(ROOT))  # benchmarks/ is not a package of the project
from benchmarks import figures  # noqa: E402


def copy_results(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / RUNS.parent, tmp_path / RUNS.parent)
    return tmp_path


def test_the_committed_runs_are_read_and_the_page_shows_every_figure():
    runs, problems = load_runs(ROOT)
    assert problems == []
    assert len(runs) >= 6 and not any(r.data["quick"] for r in runs)
    suite, problems = load_suite_runs(ROOT)  # (make test's runs, as many as are committed)
    assert problems == []
    page, problems = render_performance(ROOT)
    assert problems == []
    assert disagreements(page, runs, suite) == []
    assert FIGURES_MARK not in page and page.startswith("# Performance")
    for r in runs:
        assert r.label in page
    assert "## What makes it fast" in page and "## The goals, and why some are missed" in page


def test_a_figure_changed_in_the_data_is_a_disagreement_with_the_page(tmp_path):
    page, _ = render_performance(ROOT)
    root = copy_results(tmp_path)
    newest = sorted((root / RUNS).glob("*.json"))[-1]
    data = json.loads(newest.read_text())
    f = data["figures"][0]
    f["median"] = f["min"] = round(f["min"] - 0.1, 2)  # still a run (the median within min-max, no goal crossed)
    newest.write_text(json.dumps(data))
    runs, problems = load_runs(root)
    assert problems == []
    found = disagreements(page, runs)
    assert found and found[0].startswith(f"{f['id']}: the page does not show")
    assert disagreements(render_performance(root)[0], runs) == []  # the page drawn again agrees


def test_an_older_figure_changed_is_a_disagreement_in_its_history(tmp_path):
    page, _ = render_performance(ROOT)
    root = copy_results(tmp_path)
    oldest = sorted((root / RUNS).glob("*.json"))[0]
    data = json.loads(oldest.read_text())
    engine = next(f for f in data["figures"] if f["id"] == "P0.engine")
    engine["median"] = 1.41
    oldest.write_text(json.dumps(data))
    found = disagreements(page, load_runs(root)[0])
    assert found == [f"P0.engine: the page's history does not show 1.41x (min-max not recorded) (engine 19.0 ms "
                     f"(min-max not recorded)) from {RUNS.as_posix()}/{oldest.name}"]


def change_newest(folder: Path, change) -> Path:  # noqa: ANN001
    """The newest run file of ``folder``, rewritten with ``change`` applied to its data."""
    path = sorted(folder.glob("*.json"))[-1]
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


def problems_with(tmp_path: Path, change) -> list[str]:  # noqa: ANN001
    root = copy_results(tmp_path)
    path = change_newest(root / RUNS, change)
    runs, problems = load_runs(root)
    assert path.name not in [Path(r.file).name for r in runs]
    return problems


def test_a_quick_run_among_the_committed_ones_is_refused(tmp_path):
    (problem,) = problems_with(tmp_path, lambda d: d.update(quick=True))
    assert problem.startswith(f"{RUNS.as_posix()}/") and "at $.quick: a quick run" in problem


def test_a_verdict_the_goal_does_not_give_is_refused(tmp_path):
    def flip(data):  # noqa: ANN001, ANN202
        goal = next(f for f in data["figures"] if f.get("goal"))
        goal["verdict"] = "meets" if goal["verdict"] == "misses" else "misses"
    (problem,) = problems_with(tmp_path, flip)
    assert "at $.figures[0].verdict: the verdict is not what the median and the goal say" in problem


def test_a_figure_without_its_spread_or_outside_it_is_refused(tmp_path):
    (problem,) = problems_with(tmp_path, lambda d: d["figures"][0].pop("min"))
    assert "at $.figures[0].min: min is not a number" in problem
    (problem,) = problems_with(tmp_path / "2", lambda d: d["figures"][0].update(median=d["figures"][0]["max"] + 1))
    assert "at $.figures[0]: the median is not within min-max" in problem


def test_a_machine_or_sides_of_the_wrong_type_are_refused(tmp_path):
    (problem,) = problems_with(tmp_path, lambda d: d["machine"].update(cpu=5))
    assert "at $.machine.cpu: cpu is a string or null" in problem
    (problem,) = problems_with(tmp_path / "2", lambda d: d["figures"][0].update(sides="engine"))
    assert "at $.figures[0].sides: sides is a list" in problem


def test_a_file_that_is_not_json_is_named(tmp_path):
    root = copy_results(tmp_path)
    (root / RUNS / "2099-01-01T000000Z-abc.json").write_text("{not json")
    runs, problems = load_runs(root)
    assert len(problems) == 1 and problems[0].startswith(f"{RUNS.as_posix()}/2099-01-01T000000Z-abc.json")
    page, problems = render_performance(root)
    assert problems  # (the site build fails on them)


def test_the_page_needs_its_text_and_the_mark_in_it(tmp_path):
    root = copy_results(tmp_path)
    (root / PROSE).write_text("# Performance\n")
    assert render_performance(root)[1] == [f"{PROSE.as_posix()}: the mark {FIGURES_MARK} must be there once"]
    (root / PROSE).unlink()
    assert render_performance(root)[1] == [f"{PROSE.as_posix()}: cannot be read (No such file or directory)"]


def test_a_project_without_the_benchmark_has_a_page_that_says_so(tmp_path):
    page, problems = render_performance(tmp_path)
    assert problems == [] and "No benchmark run is committed yet" in page


def test_what_the_benchmark_writes_is_a_run_the_page_reads(tmp_path):
    figures.RECORDED.clear()
    try:
        figures.record("P0.engine", "the engine against the JSON floor", "the engine vs the floor", "x",
                       [1.5, 1.25, 2.5], 2, pairs=3, goal={"at_most": 2},
                       sides=[figures.side("engine", "ms", [40.0, 41.25, 39.0], 1)])
        figures.record("P3.serve_edit", "an edit served", "saving -> served", "s", [0.5, 1.5, 1.25], 2, runs=3,
                       goal={"at_most": 1})
        full = figures.run_data(figures.RECORDED, "benchmarks/run.py --only P0 P3", quick=False)
        quick = figures.run_data(figures.RECORDED, "benchmarks/run.py --quick", quick=True)
    finally:
        figures.RECORDED.clear()
    root = copy_results(tmp_path)
    path = figures.write_run(full, root / RUNS)
    assert path.name.endswith(f"Z-{full['commit']}.json") and path.name[:4].isdigit()
    runs, problems = load_runs(root)
    assert problems == [] and runs[-1].file == f"{RUNS.as_posix()}/{path.name}"
    assert [f["verdict"] for f in runs[-1].data["figures"]] == ["meets", "misses"]
    page, problems = render_performance(root)
    assert problems == [] and disagreements(page, runs) == []
    assert "| `P3.serve_edit` an edit served | 1.25 s (0.50-1.50) | 3 runs | <= 1 s | **misses** |" in page
    assert "- `P3.serve_edit`: saving \\-&gt; served" in page
    figures.write_run(quick, root / RUNS)  # a quick run written among the committed ones: refused
    assert any("at $.quick: a quick run" in p for p in load_runs(root)[1])


def test_the_guide_nav_has_the_page_where_the_hand_written_one_was():
    from agent_loop_sim.site.build import GUIDE_PAGES

    assert {"Performance": PERFORMANCE_PAGE} in GUIDE_PAGES
    assert not (ROOT / "docs" / PERFORMANCE_PAGE).exists()  # generated, not hand-written


SUITE_FIXTURES = sorted((ROOT / "tests" / "data").glob("suite_*.json"))


def with_suite_runs(tmp_path: Path) -> Path:
    """The committed results, with the fixtures as make test's only runs (named as make test names them)."""
    root = copy_results(tmp_path)
    shutil.rmtree(root / SUITE_RUNS, ignore_errors=True)
    (root / SUITE_RUNS).mkdir()
    for fixture in SUITE_FIXTURES:
        shutil.copy(fixture, root / SUITE_RUNS / fixture.name.removeprefix("suite_"))
    return root


def test_the_page_draws_each_make_test_run_its_total_and_its_stages(tmp_path):
    assert len(SUITE_FIXTURES) == 3
    root = with_suite_runs(tmp_path)
    suite, problems = load_suite_runs(root)
    assert problems == [] and [Path(r.file).name for r in suite] == [f.name.removeprefix("suite_") for f in SUITE_FIXTURES]
    page, problems = render_performance(root)
    assert problems == [] and disagreements(page, load_runs(root)[0], suite) == []
    part = page[page.index("## How long `make test` takes, run by run"):page.index("## The goals, and why some are missed")]
    assert "Each of the 3 runs, oldest first" in part and "<= 600 s (10 minutes)" in part
    assert "Goal missed in 1 of the 3 runs." in part
    assert "`make test` times each of its stages and writes one file per run into `benchmarks/results/suite/`" in part
    # the table: oldest first, the total and its verdict, then each stage's wall time / CPU time in
    # seconds (the set-up's CPU time is not measured; the stage the oldest run did not have is a dash);
    # each cell names its column, for a phone
    assert re.findall(r"<th>(.*?)</th>", part) == ["date (UTC)", "commit", "total", "verdict", "set-up", "pytest",
                                                   "swap", "record", "node-clients", "site", "conformance-suite",
                                                   "check", "wire-types"]
    body = part[part.index("<tbody>"):part.index("</tbody>")]
    rows = [[re.sub("<span style=\"white-space: nowrap\">(.*?)</span>", r"\1", cell).replace("\xa0", " ")
             for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)] for row in body.split("</tr>")[:-1]]
    assert rows == [
        ["2026-12-05 10:15:00", "<code>5e1f0aa</code>", "468", "meets", "31", "402 / 611", "71 / 52", "188 / 131",
         "48 / 21", "151 / 66", "\u2014", "13 / 4", "20 / 9"],
        ["2026-12-06 14:22:10", "<code>137190c</code>", "541", "meets", "29", "472 / 652", "75 / 54", "196 / 141",
         "50 / 22", "161 / 70", "134 / 71", "13 / 4", "22 / 10"],
        ["2026-12-07 17:30:00", "<code>fe770c0</code>", "634", "<strong>misses</strong>", "30", "561 / 761", "77 / 55",
         "205 / 150", "51 / 22", "172 / 80", "140 / 75", "13 / 4", "22 / 10"]]
    # (each on one line: the day, the time; no break around a slash)
    assert '<td><span style="white-space: nowrap">2026-12-07</span> 17:30:00</td>' in body
    assert '<td data-label="pytest">561\xa0/\xa0761</td>' in body  # (one line: no break around the slash)
    # the chart: one bar per figure of each run, the missed total open, the goal dashed
    svg = part[part.index("<svg"):part.index("</svg>")]
    assert svg.count("<rect") == (1 + 8) + (1 + 9) + (1 + 9)  # (the total and each stage the run had)
    assert '<title>2026-12-07T17:30:00Z fe770c0: total 634 s</title>' in svg
    assert '<title>2026-12-05T10:15:00Z 5e1f0aa: pytest 402 s, CPU 611 s</title>' in svg
    assert svg.count('fill="none" stroke="currentColor"><title>') == 1 and 'stroke-dasharray="4 3"' in svg
    assert "- conformance\\-suite: the official MCP conformance suite: the same verdicts" in part


def test_a_stage_changed_in_a_make_test_run_changes_the_page(tmp_path):
    root = with_suite_runs(tmp_path)
    before, _ = render_performance(root)
    newest = sorted((root / SUITE_RUNS).glob("*.json"))[-1]
    data = json.loads(newest.read_text())
    pytest_stage = next(f for f in data["figures"] if f["id"] == "suite.stage.pytest")
    pytest_stage["median"] = pytest_stage["min"] = pytest_stage["max"] = 498
    newest.write_text(json.dumps(data))
    suite, problems = load_suite_runs(root)
    assert problems == []
    assert disagreements(before, [], suite) == [
        f"make test: the page's table does not show {SUITE_RUNS.as_posix()}/{newest.name} as it is",
        f"make test: the page's chart has no bar for suite.stage.pytest 498 s, CPU 761 s from "
        f"{SUITE_RUNS.as_posix()}/{newest.name}"]
    after, problems = render_performance(root)
    assert problems == [] and after != before and disagreements(after, [], suite) == []
    assert '<td data-label="pytest">498\xa0/\xa0761</td>' in after and "561\xa0/\xa0761" not in after


def suite_problems(tmp_path: Path, change) -> list[str]:  # noqa: ANN001
    root = with_suite_runs(tmp_path)
    path = change_newest(root / SUITE_RUNS, change)
    suite, problems = load_suite_runs(root)
    assert path.name not in [Path(r.file).name for r in suite] and len(suite) == 2
    assert render_performance(root)[1] == problems  # (the site build fails on them)
    assert all(p.startswith(f"{SUITE_RUNS.as_posix()}/{path.name}, at $") for p in problems)
    return problems


def test_a_malformed_make_test_run_is_refused_naming_its_file_and_the_json_path(tmp_path):
    def stage(data, name):  # noqa: ANN001, ANN202
        return next(f for f in data["figures"] if f["id"] == f"suite.stage.{name}")
    (problem,) = suite_problems(tmp_path / "1", lambda d: stage(d, "check").update(cpu_seconds="4"))
    assert problem.endswith("at $.figures[8].cpu_seconds: cpu_seconds (user and system time of the stage's processes) "
                            "is a number, 0 or more")
    (problem,) = suite_problems(tmp_path / "2", lambda d: stage(d, "site").update(unit="ms"))
    assert problem.endswith("at $.figures[6].unit: make test's times are in seconds (s)")
    (problem,) = suite_problems(tmp_path / "3", lambda d: stage(d, "node-clients").update(id="node-clients"))
    assert problem.endswith("at $.figures[5].id: a figure of make test is suite.total or suite.stage.<name>")
    (problem,) = suite_problems(tmp_path / "4", lambda d: d["figures"].pop(0))
    assert problem.endswith("at $.figures: no suite.total (the whole run's wall time)")
    (problem,) = suite_problems(tmp_path / "5", lambda d: d["figures"][0].update(goal=None, verdict=None))
    assert problem.endswith("at $.figures[0].goal: suite.total has no goal")
    # what a benchmark run is refused for, a run of make test is refused for too
    (problem,) = suite_problems(tmp_path / "6", lambda d: d["figures"][0].update(verdict="meets"))
    assert problem.endswith("at $.figures[0].verdict: the verdict is not what the median and the goal say (misses)")
    (problem,) = suite_problems(tmp_path / "7", lambda d: d.update(quick=True))
    assert "at $.quick: a quick run" in problem


def test_a_make_test_run_that_is_not_json_is_named(tmp_path):
    root = with_suite_runs(tmp_path)
    (root / SUITE_RUNS / "2099-01-01T000000Z-abc1234.json").write_text("{not json")
    suite, problems = load_suite_runs(root)
    assert len(suite) == 3 and len(problems) == 1
    assert problems[0].startswith(f"{SUITE_RUNS.as_posix()}/2099-01-01T000000Z-abc1234.json")


def test_without_runs_of_make_test_the_page_says_where_they_would_come_from(tmp_path):
    root = copy_results(tmp_path)
    shutil.rmtree(root / SUITE_RUNS, ignore_errors=True)
    page, problems = render_performance(root)
    assert problems == []
    assert ("writes one file per run into `benchmarks/results/suite/`" in page
            and "No run of `make test` is committed yet." in page and "<svg class=\"suite-history\"" not in page)
