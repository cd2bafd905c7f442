"""Hostile input the other bad-input tests do not try: a reader of standard output that goes
away, output paths that are not files, limits set absurdly high, and served peers fed lines and
bodies that Python's JSON parser takes but the SDKs' parsers refuse.

Each case must end with one line (no traceback) and the exit status the CLI promises, or, for a
served peer, an answer (as the SDK would give) or a clean refusal, never a crash.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SCN = "scenarios/mcp.json"


def _cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agent_loop_sim", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})}, **kw)


def _one_line(done: subprocess.CompletedProcess, code: int) -> str:
    err = done.stderr.strip()
    assert done.returncode == code, (done.returncode, err[-2000:])
    assert "Traceback" not in err and len(err.splitlines()) == 1, err[-2000:]
    return err


# --- a reader of standard output that has gone ---------------------------------------------------
def test_a_reader_that_stops_reading_is_no_traceback():
    """``run ... | head -1``: the pipe closes while the transcript is written. Python's default is a
    BrokenPipeError traceback; the CLI ends quietly, as a command killed by SIGPIPE does (141)."""
    process = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "run", SCN], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout and process.stderr
    process.stdout.readline()
    process.stdout.close()  # as `head -1` does once it has its line
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
