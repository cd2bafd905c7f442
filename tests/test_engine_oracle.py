"""The fast oracle, in one process: ``check`` (the engine against every committed recording of
every SDK release it speaks) and every finding held against the committed recordings. It is
what the mutation run (``benchmarks/mutation.py``) asks of each mutant, with the engine's unit
tests; in the suite it is the same check ``make test`` runs first."""
from __future__ import annotations

from agent_loop_sim.check import every_release, release_report
from agent_loop_sim.project import Project
from agent_loop_sim.site.findings.evidence import Recorded, check_findings
from agent_loop_sim.site.findings import FINDINGS
from conftest import ROOT


def test_the_engine_equals_every_committed_recording():
    project = Project(ROOT)
    files = project.scenario_files()
    for release in every_release(project, files):
        report = release_report(project, files, release)
        assert report.problems == [], (release, report.problems[:5])
        assert report.passed == len(report.sessions) > 0, release


def test_every_finding_holds_on_the_committed_recordings():
    project = Project(ROOT)
    report = release_report(project, project.scenario_files())
    results = check_findings(FINDINGS, Recorded(report.transcripts, report.scenarios), report.complete_families)
    assert [line for r in results for line in r.failures] == []
    assert sum(1 for r in results if r.checked) > 20
