"""Shared fixtures: the checkout, and a throw-away copy of it for tests that break things."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float = 300):
    """``python -m agent_loop_sim ARGS`` in ``cwd``; returns the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "agent_loop_sim", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, timeout=timeout)


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A copy of what the engine and the recorders need: the package, data and scripts."""
    dest = tmp_path / "project"
    for name in ("agent_loop_sim", "scenarios", "recordings", "scripts", "conformance"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest
