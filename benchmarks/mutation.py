"""The engine's mutation score: mutmut (pyproject's ``[tool.mutmut]``) over the engine, with the
fast oracle (``check`` and the findings in one process, tests/test_engine_oracle.py, and the
engine's unit tests), summarised as data.

    .venv/bin/python benchmarks/mutation.py [--run] [--sample N [--seed S] | --sample-from FILE] [--max-children N] [--out FILE]

``--run`` runs ``mutmut run`` first; a full run is some 8,400 mutants, about 3 hours on one
shared core here (some 50 mutants a minute: each runs the oracle's tests that reach it).
``--sample N`` checks a seeded random sample of N mutants instead (those not yet checked) and
reports the sample's score apart: the estimate of the whole. Without ``--run``, the results of
the last run (``mutants/``) are summarised. The score is killed / (killed + survived): a mutant
no selected test reaches ("no tests") is counted apart, and so is one not checked. Every
survivor is listed with its diff, to be killed by a test or explained as equivalent.

Equivalent mutants (no observable difference possible) are kept, each with its reason, in
``benchmarks/mutation_equivalent.json``: a survivor listed there counts as "equivalent", outside
the score (the score is killed / (killed + survived) over the others). ``--sample-from FILE``
checks again the sample of an earlier results file (the mutants of it that still exist).
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
EQUIVALENT = Path(__file__).resolve().parent / "mutation_equivalent.json"
#: mutmut's exit codes (mutmut.stats.status_by_exit_code), by what they mean here
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 36: "timeout",
          -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", None: "not checked"}


_AT_IMPORT = r"""
import sys
seen = set()
def note(frame, event, arg):
    if event == "call" and "agent_loop_sim" in frame.f_code.co_filename:
        seen.add((frame.f_code.co_filename.split("agent_loop_sim/", 1)[1], frame.f_code.co_name))
sys.setprofile(note)
import agent_loop_sim.protocols, agent_loop_sim.normalise, agent_loop_sim.compare, agent_loop_sim.site.findings
sys.setprofile(None)
print("\n".join(f"{f} {n}" for f, n in sorted(seen)))
"""


def run_at_import() -> set[tuple[str, str]]:
    """(file under agent_loop_sim/, function) of every function the engine's modules call as they
    are imported (its tables are built so). mutmut turns a mutant on in the process it forks for
    it, after the imports: a mutant of such a function is not active where it runs then."""
    done = subprocess.run([sys.executable, "-c", _AT_IMPORT], cwd=ROOT, capture_output=True, text=True, check=True)
    return {tuple(line.split(" ", 1)) for line in done.stdout.splitlines()}  # type: ignore[misc]


def _function(key: str) -> str:
    """``pkg.mod.xǁClassǁmethod__mutmut_3`` / ``pkg.mod.x_function__mutmut_3`` -> the function's name."""
    name = key.rsplit(".", 1)[1].split("__mutmut_")[0]
    return name.rsplit("ǁ", 1)[1] if "ǁ" in name else name.removeprefix("x_")


def _source_file(meta: Path) -> str:
    return meta.relative_to(MUTANTS).as_posix().removesuffix(".meta")


def all_mutants() -> list[str]:
    return sorted(key for meta in MUTANTS.rglob("*.py.meta")
                  for key in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])


def draw_sample(size: int, seed: int) -> list[str]:
    return sorted(random.Random(seed).sample(all_mutants(), size))


def load_equivalent(path: Path = EQUIVALENT) -> dict[str, str]:
    """Mutant -> why it is equivalent (the reviewed list; a mutant that is killed needs none)."""
    if not path.is_file():
        return {}
    return {e["mutant"]: e["reason"] for e in json.loads(path.read_text(encoding="utf-8"))["equivalent"]}


def summarise(sample: list[str] | None = None, seed: int | None = None) -> dict:
    try:
        from mutmut.mutation.diff_apply import get_diff_for_mutant
    except ImportError:  # (mutmut's internals moved: the names alone)
        get_diff_for_mutant = None
    at_import = run_at_import()
    equivalent = load_equivalent()
    by_file: dict[str, Counter] = {}
    survivors = []
    equivalents: list[dict] = []
    status_of: dict[str, str] = {}
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        name = _source_file(meta)
        counts = by_file.setdefault(name, Counter())
        for key, code in sorted(codes.items()):
            status = STATUS.get(code, "suspicious")
            if status == "survived" and key in equivalent:
                status = "equivalent"
            status_of[key] = status
            counts[status] += 1
            if status == "survived":
                diff = ""
                if get_diff_for_mutant is not None:
                    try:
                        diff = get_diff_for_mutant(key, path=MUTANTS / name).replace(f"{MUTANTS}/", "")
                    except Exception as exc:  # noqa: BLE001 - a diff mutmut cannot make is said, not fatal
                        diff = f"(no diff: {exc})"
                imported = (name.removeprefix("agent_loop_sim/"), _function(key)) in at_import
                if imported:
                    counts["survived, run at import"] += 1
                survivors.append({"mutant": key, "file": name, "run_at_import": imported, "diff": diff})
            elif status == "equivalent":
                equivalents.append({"mutant": key, "file": name, "reason": equivalent[key]})
    total = sum(by_file.values(), Counter())
    judged = total["killed"] + total["survived"]
    outside = total["killed"] + total["survived"] - total["survived, run at import"]
    return {
        "tool": "mutmut 3.8.1",
        "oracle": "tests/test_engine_oracle.py (check of every committed recording of every release, every "
                  "finding) and the engine's unit tests (pyproject [tool.mutmut] pytest_add_cli_args_test_selection)",
        "scope": ["agent_loop_sim/protocols/", "agent_loop_sim/normalise.py", "agent_loop_sim/compare.py",
                  "agent_loop_sim/site/findings/evidence.py"],
        "mutants": sum(n for status, n in total.items() if status != "survived, run at import"),  # (a subset)
        "counts": dict(sorted(total.items())),
        "score": round(total["killed"] / judged, 4) if judged else None,
        "score_means": "killed / (killed + survived); 'equivalent' (a survivor no test can tell apart, each "
                       "with its reason), 'no tests' (no selected test runs the code) and 'not checked' (the run "
                       "stopped before it) are outside it",
        "score_without_import_time": round(total["killed"] / outside, 4) if outside else None,
        "import_time_means": "survivors in a function the engine's modules call while they are imported "
                             "(tables built at import); mutmut turns a mutant on after the fork, so there the "
                             "mutant never ran: not judged by the tests (they may run it later, too)",
        "by_file": {name: dict(sorted(c.items())) for name, c in sorted(by_file.items())},
        "sample": None if sample is None else _sample_summary(sample, seed, status_of, survivors),
        "survivors": survivors,
        "equivalent": equivalents,
    }


def _sample_summary(sample: list[str], seed: int | None, status_of: dict[str, str], survivors: list[dict]) -> dict:
    counts = Counter(status_of.get(key, "not checked") for key in sample)
    imported = sum(1 for s in survivors if s["mutant"] in set(sample) and s["run_at_import"])
    judged = counts["killed"] + counts["survived"]
    return {"seed": seed, "size": len(sample), "counts": dict(sorted(counts.items())),
            "survived_run_at_import": imported,
            "score": round(counts["killed"] / judged, 4) if judged else None,
            "score_without_import_time": round(counts["killed"] / (judged - imported), 4) if judged > imported else None,
            "mutants": sample}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="store_true", help="run mutmut first")
    parser.add_argument("--max-children", type=int, default=1)
    parser.add_argument("--sample", type=int, help="check a random sample of this many mutants")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--sample-from", help="check again the sample of this earlier results file")
    parser.add_argument("--note", default="", help="how this run was made, kept with the figures")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "mutation.json"))
    args = parser.parse_args(argv)
    mutmut = [str(Path(sys.executable).with_name("mutmut")), "run", "--max-children", str(args.max_children)]
    if args.run and args.sample is None and not args.sample_from:
        subprocess.run(mutmut, cwd=ROOT, check=False)
    elif args.run and not MUTANTS.is_dir():
        # mutmut makes every mutant (and its test map) as it runs any one: one is named to draw from them all.
        subprocess.run(mutmut + ["agent_loop_sim.normalise.x_normalise_mcp__mutmut_1"], cwd=ROOT, check=False)
    if not MUTANTS.is_dir():
        print("mutation: no mutants/ folder: run with --run first", file=sys.stderr)
        return 2
    sample = None
    if args.sample_from:
        earlier = json.loads(Path(args.sample_from).read_text(encoding="utf-8"))["sample"]
        present = set(all_mutants())
        sample = [key for key in earlier["mutants"] if key in present]
        args.seed = earlier["seed"]
        print(f"mutation: {len(sample)} of the {len(earlier['mutants'])} mutants of that sample still exist")
    elif args.sample is not None:
        sample = draw_sample(args.sample, args.seed)
    if sample is not None:
        if args.run:
            done = {key for meta in MUTANTS.rglob("*.py.meta")
                    for key, code in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].items()
                    if code is not None and code != 0}  # (a survivor is tried again: tests change)
            todo = [key for key in sample if key not in done]
            # In batches: mutmut 3.8.1 fails to start its clean run for a few hundred names at once.
            for at in range(0, len(todo), 40):
                subprocess.run(mutmut + todo[at:at + 40], cwd=ROOT, check=False)
    summary = {"note": args.note, **summarise(sample, args.seed if sample is not None else None)}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"mutation score {summary['score']}: {summary['counts']} -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
