"""The A2A TCK (a2aproject/a2a-tck) against the SDK's agent under uvicorn and against ``serve a2a``,
its verdict test by test for each, as Markdown tables.

The kit is not vendored: check it out (commit 410ba92 sends the 1.0 method names) and install it
into a venv of its own, then point this at it::

    git clone https://github.com/a2aproject/a2a-tck /tmp/tck && git -C /tmp/tck checkout 410ba92
    uv venv /tmp/tck/.venv && VIRTUAL_ENV=/tmp/tck/.venv uv pip install -e /tmp/tck
    .venv/bin/python scripts/a2a_tck.py /tmp/tck > tck.md

Each peer is a fresh process (its own task store); every test of ``tests/mandatory`` and
``tests/optional`` runs against it. Exit 0 when every verdict is the same on both, 1 otherwise.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEERS = {
    "the SDK's agent (uvicorn)": [str(ROOT / "tests" / "node" / "serve_sdk_agent.py")],
    "serve a2a": ["-m", "agent_loop_sim", "serve", "a2a", "--port", "0"],
}


def verdicts(tck: Path, peer: list[str]) -> dict[str, str]:
    """Each test's outcome (passed, failed, skipped, error, xfailed, xpassed) against a fresh ``peer``."""
    agent = subprocess.Popen([sys.executable, *peer], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert agent.stdout is not None
        url = agent.stdout.readline().decode().strip()
        if not url.startswith("http"):
            raise SystemExit(f"error: {' '.join(peer)} printed no URL")
        with tempfile.TemporaryDirectory(prefix="tck-") as tmp:
            report = Path(tmp) / "report.json"
            subprocess.run([str(tck / ".venv" / "bin" / "python"), "-m", "pytest", "tests/mandatory", "tests/optional",
                            f"--sut-url={url}", "--test-scope=all", "--tb=no", "-q", "-p", "no:cacheprovider",
                            "--json-report", f"--json-report-file={report}"],
                           cwd=tck, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
            if not report.exists():
                raise SystemExit(f"error: the TCK wrote no report against {' '.join(peer)}")
            tests = json.loads(report.read_text())["tests"]
        return {t["nodeid"]: t["outcome"] for t in tests}
    finally:
        agent.terminate()
        agent.wait(timeout=30)


def main() -> int:
    if len(sys.argv) != 2 or not (Path(sys.argv[1]) / "run_tck.py").exists():
        print("usage: scripts/a2a_tck.py TCK_CHECKOUT (with its venv in TCK_CHECKOUT/.venv)", file=sys.stderr)
        return 2
    tck = Path(sys.argv[1]).resolve()
    seen = {name: verdicts(tck, peer) for name, peer in PEERS.items()}
    names = list(seen)
    tests = sorted(set().union(*seen.values()))
    differ = [t for t in tests if len({seen[n].get(t) for n in names}) > 1]
    outcomes = sorted(set().union(*(v.values() for v in seen.values())))
    verdict = "the same verdict on both, test by test" if not differ else f"{len(differ)} with verdicts that differ"
    print(f"A2A TCK at `{_commit(tck)}`, {len(tests)} tests: {verdict}.")
    print()
    print("| outcome | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    counts = {n: Counter(seen[n].values()) for n in names}
    for outcome in outcomes:
        print(f"| {outcome} | " + " | ".join(str(counts[n][outcome]) for n in names) + " |")
    print()
    print("| test | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for test in tests:
        cells = [seen[n].get(test, "-") for n in names]
        mark = "" if len(set(cells)) == 1 else " **differs**"
        print(f"| `{test}`{mark} | " + " | ".join(cells) + " |")
    return 1 if differ else 0


def _commit(tck: Path) -> str:
    done = subprocess.run(["git", "-C", str(tck), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown commit"


if __name__ == "__main__":
    sys.exit(main())
