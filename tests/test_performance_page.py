"""The Performance page is drawn from the committed benchmark runs (``benchmarks/results/runs/``)
and shows every figure they hold; a run the page cannot trust (not a run, a quick run, a verdict
its goal does not give) is refused with its file and JSON path; the benchmark writes what the
page reads."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from conftest import ROOT

from agent_loop_sim.site.pages.performance import (FIGURES_MARK, PERFORMANCE_PAGE, PROSE, RUNS, disagreements, load_runs,
                                                    render_performance)

sys.path.insert(0, str(ROOT))  # benchmarks/ is not a package of the project
from benchmarks import figures  # noqa: E402


def copy_results(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / RUNS.parent, tmp_path / RUNS.parent)
    return tmp_path


def test_the_committed_runs_are_read_and_the_page_shows_every_figure():
    runs, problems = load_runs(ROOT)
    assert problems == []
    assert len(runs) >= 6 and not any(r.data["quick"] for r in runs)
    page, problems = render_performance(ROOT)
    assert problems == []
    assert disagreements(page, runs) == []
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


def problems_with(tmp_path: Path, change) -> list[str]:  # noqa: ANN001
    root = copy_results(tmp_path)
    path = sorted((root / RUNS).glob("*.json"))[-1]
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
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
