"""make test's stage runner (benchmarks/suite.py): every stage runs, a failing one fails the run
by name, and the times it writes are a run the Performance page accepts."""
from __future__ import annotations

import json
import sys
import time

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import suite  # noqa: E402

from agent_loop_sim.site.pages.performance import check_suite_run  # noqa: E402


def fake(name: str, code: str) -> suite.Stage:
    return suite.Stage(name, (sys.executable, "-c", code), f"a stage that runs {code!r}")


def test_every_stage_runs_and_a_failing_one_fails_the_run_by_name(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(suite, "STAGES", (fake("fine", "print('all well')"),
                                          fake("broken", "import sys; print('it broke'); sys.exit(3)")))
    monkeypatch.setattr(suite, "SUITE", tmp_path)
    assert suite.main(["--since", str(time.time() - 5)]) == 1
    out = capsys.readouterr().out
    assert "all well" in out and "it broke" in out  # each stage's output, whole
    assert "===== broken FAILED (exit 3)" in out and "===== fine passed" in out
    assert out.rstrip().endswith("FAILED: broken")
    (written,) = tmp_path.glob("*.json")  # a failed run is a point of the history too
    data = json.loads(written.read_text())
    check_suite_run(data, written.name)
    ids = [f["id"] for f in data["figures"]]
    assert ids == ["suite.total", "suite.stage.setup", "suite.stage.fine", "suite.stage.broken"]
    assert data["figures"][1]["median"] >= 5 and data["figures"][0]["median"] >= data["figures"][1]["median"]


def test_a_passing_run_exits_0_and_its_file_is_a_run_the_page_accepts(monkeypatch, tmp_path):
    monkeypatch.setattr(suite, "STAGES", (fake("a", "pass"), fake("b", "import time; time.sleep(0.3)")))
    monkeypatch.setattr(suite, "SUITE", tmp_path)
    assert suite.main([]) == 0
    (written,) = tmp_path.glob("*.json")
    data = json.loads(written.read_text())
    check_suite_run(data, written.name)
    by_id = {f["id"]: f for f in data["figures"]}
    assert "suite.stage.setup" not in by_id  # no --since: nothing known of the set-up
    assert by_id["suite.total"]["goal"] == {"at_most": suite.GOAL_SECONDS}
    assert by_id["suite.stage.b"]["median"] >= 0  # (rounded to whole seconds)


def test_the_stages_ran_side_by_side(monkeypatch, tmp_path):
    monkeypatch.setattr(suite, "STAGES", tuple(fake(f"s{n}", "import time; time.sleep(1)") for n in range(3)))
    results = suite.run_all(list(suite.STAGES), lanes=3)
    assert all(r.returncode == 0 for r in results) and all(r.seconds >= 1 for r in results)
    assert max(r.seconds for r in results) < 2.5  # one after another, 3 s


def test_a_lane_takes_the_next_stage_as_it_comes_free(monkeypatch, tmp_path):
    stages = [fake("long", "import time; time.sleep(1.5)"), *(fake(f"short{n}", "import time; time.sleep(0.5)")
                                                               for n in range(3))]
    started = time.perf_counter()
    results = suite.run_all(stages, lanes=2)
    assert [r.stage.name for r in results] == ["long", "short0", "short1", "short2"]  # (the table's order)
    assert 1.5 <= time.perf_counter() - started < 2.8  # the shorts one after another beside the long one


def test_a_quick_or_partial_run_writes_nothing(monkeypatch, tmp_path):
    monkeypatch.setattr(suite, "STAGES", (fake("a", "pass"), fake("b", "pass")))
    monkeypatch.setattr(suite, "SUITE", tmp_path)
    assert suite.main(["--only", "a"]) == 0
    assert suite.main(["--no-write"]) == 0
    assert list(tmp_path.iterdir()) == []


def test_the_tables_name_each_stage_once_and_quick_is_a_part_of_the_whole():
    names = [s.name for s in suite.STAGES]
    assert len(names) == len(set(names))
    whole = {s.command for s in suite.STAGES}
    assert {suite.CHECK.command, suite.WIRE_TYPES.command} <= whole
    assert all(s.command in whole or s.name in ("pytest-quick", "site-markdown") for s in suite.QUICK)


@pytest.mark.parametrize("argv", [["--only", "nothing"], ["--since", "soon"]])
def test_bad_arguments_are_refused(argv):
    with pytest.raises(SystemExit) as exited:
        suite.main(argv)
    assert exited.value.code == 2
