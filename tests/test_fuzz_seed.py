"""The differential tests' seed: set by the environment, else drawn from the commit under test."""
from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import FALLBACK_FUZZ_SEED, draw_fuzz_seed


def _commit(repo: Path, text: str) -> str:
    (repo / "f").write_text(text)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(git + ["add", "f"], check=True, capture_output=True)
    subprocess.run(git + ["commit", "-q", "-m", text], check=True, capture_output=True)
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()


def test_two_commits_draw_two_seeds(tmp_path: Path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    first = _commit(tmp_path, "one")
    seed_one, origin = draw_fuzz_seed({}, tmp_path)
    assert seed_one == int(first[:6], 16) and origin == f"commit {first[:12]}"
    _commit(tmp_path, "two")
    seed_two, _ = draw_fuzz_seed({}, tmp_path)
    assert seed_two != seed_one
    assert draw_fuzz_seed({}, tmp_path) == draw_fuzz_seed({}, tmp_path)  # a run can be replayed


def test_the_environment_sets_the_seed(tmp_path: Path):
    assert draw_fuzz_seed({"AGENT_LOOP_SIM_FUZZ_SEED": "12"}, tmp_path) == (12, "AGENT_LOOP_SIM_FUZZ_SEED")


def test_without_a_checkout_the_ci_commit_then_a_fixed_seed(tmp_path: Path):
    sha = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"
    assert draw_fuzz_seed({"GITHUB_SHA": sha}, tmp_path) == (0x0A1B2C, "commit 0a1b2c3d4e5f")
    assert draw_fuzz_seed({}, tmp_path) == (FALLBACK_FUZZ_SEED, "fixed: no commit to draw from")
