"""Under `mkdocs serve`, re-check and re-render only what an edit touched.

A `Memo` lives in the memory of the serving process and nowhere else: nothing is written to
disk, so a clean-clone ``mkdocs build --strict`` (a new process) checks everything from scratch.
Each entry is keyed on the content (SHA-256) of every file its result derives from, and the
whole memo on the content of the code that computes it (`code_fingerprint`: the package, with
the findings, and the fixture servers) and the limits' environment: when any of that changes,
the memo is dropped and everything is checked again. So a result taken from the memo is the
one a full build would compute from the same bytes.

What is kept, and what its key names:
- a scenario file's check (`file_result`): the scenario file and the recording it names;
- a release comparison (`release`): the family's scenario files and both releases' recordings;
- a session page, its exports, its features and its era page: the session itself, as its
  scenario file and its recording write it (one digest per session, `build._session_digest`,
  so that an edit re-renders only the sessions it changed), its wire-type verdicts, its era
  pairing and the page settings.
Everything else (indexes, findings, coverage) is rendered again on every build.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Callable, Hashable, TypeVar

from ...limits import LIMITS

T = TypeVar("T")

# What the site's results are computed by: a change here may change any of them.
CODE = ("agent_loop_sim", "conformance")


def code_fingerprint(root: Path) -> str:
    """One digest of every file under `CODE` (bytecode caches aside) and the limits' settings."""
    h = hashlib.sha256()
    for folder in CODE:
        base = root / folder
        for path in sorted(p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    for limit in LIMITS:
        h.update(f"{limit.env}={os.environ.get(limit.env)}\0".encode())
    return h.hexdigest()


class Memo:
    """Results by the content of what they derive from, for one version of the code."""

    def __init__(self, fingerprint: str) -> None:
        self.fingerprint = fingerprint
        self._digests: dict[Path, str] = {}
        self._entries: dict[Hashable, Any] = {}
        self._used: set[Hashable] = set()
        self.computed: list[Hashable] = []  # what the last build computed afresh (the tests read it)

    def start(self) -> None:
        """A new build: the files may have changed since the last one."""
        self._digests.clear()
        self._used.clear()
        self.computed = []

    def finish(self) -> None:
        """Drop what this build did not ask for (a removed session's page, an edit's old bytes)."""
        self._entries = {k: v for k, v in self._entries.items() if k in self._used}

    def digest(self, path: str | Path) -> str:
        """The content of a file, read once per build (``-`` for a missing or unreadable one)."""
        path = Path(path)
        if path not in self._digests:
            try:
                self._digests[path] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                self._digests[path] = "-"
        return self._digests[path]

    def scenario_files(self, project: Any) -> list[Any]:
        """The checkout's scenario files, loaded again only when one of them changed (an
        `InputError` as `Project.scenario_files` raises it)."""
        paths = project.scenario_paths()
        return self.get(("scenario files", tuple((str(p), self.digest(p)) for p in paths)), project.scenario_files)

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        self._used.add(key)
        if key not in self._entries:
            self._entries[key] = compute()
            self.computed.append(key)
        return self._entries[key]
