"""The committed mutation results (benchmarks/results/mutation.json) are consistent, and the guide
page's figures are the file's (docs/guide/tests.md is written by hand: this holds it to the data)."""
from __future__ import annotations

import json

from conftest import ROOT

RESULTS = json.loads((ROOT / "benchmarks" / "results" / "mutation.json").read_text(encoding="utf-8"))
EQUIVALENT = json.loads((ROOT / "benchmarks" / "mutation_equivalent.json").read_text(encoding="utf-8"))["equivalent"]


def test_the_sample_score_is_its_counts():
    sample = RESULTS["sample"]
    counts = sample["counts"]
    assert sum(counts.values()) == sample["size"] == len(sample["mutants"])
    assert sample["score"] == round(counts["killed"] / (counts["killed"] + counts["survived"]), 4)


def test_every_equivalent_mutant_has_its_reason_and_is_no_survivor():
    assert all(e["reason"].strip() for e in EQUIVALENT)
    listed = {e["mutant"] for e in EQUIVALENT}
    assert len(listed) == len(EQUIVALENT)
    assert not listed & {s["mutant"] for s in RESULTS["survivors"]}


def test_the_guide_page_shows_the_results_figures():
    page = (ROOT / "docs" / "guide" / "tests.md").read_text(encoding="utf-8")
    counts = RESULTS["sample"]["counts"]
    for figure in (f"{counts['killed']} killed", f"{counts['survived']} survived",
                   f"{counts.get('equivalent', 0)} equivalent", f"a score of {RESULTS['sample']['score']:.2f}",
                   f"of its {RESULTS['mutants']:,} mutants"):
        assert figure in " ".join(page.split()), figure
