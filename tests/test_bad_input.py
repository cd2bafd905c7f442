"""R2: bad input gets one clear paragraph and a non-zero exit, never just a traceback.

Each case breaks one file of a copy of the project in one way and runs the check; the error
must name the file (and the session, message and path where there is one).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

from conftest import run_cli

REC = "recordings/sdk_exchanges.json"
SCN = "scenarios/mcp.json"


def _edit_json(rel: str, change: Callable[[dict], None]) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        path = root / rel
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data, indent=2))
    return apply


def _write(rel: str, content: bytes) -> Callable[[Path], None]:
    return lambda root: (root / rel).write_bytes(content)


def _set(obj: dict, path: list, value) -> None:
    for part in path[:-1]:
        obj = obj[part]
    obj[path[-1]] = value


CASES = {
    "malformed JSON": (_write(REC, b'{"family": "mcp",,}'), [REC, "not valid JSON", "line 1"]),
    "truncated JSON": (lambda r: (r / REC).write_text((r / REC).read_text()[:-200]), [REC, "not valid JSON"]),
    "missing recording": (lambda r: (r / REC).unlink(), [REC, "does not exist"]),
    "missing scenario file": (lambda r: (r / SCN).unlink(), [SCN, "does not exist"]),
    "two sessions with one name": (_edit_json(SCN, lambda d: d["sessions"].append(d["sessions"][0])),
                                   [SCN, "session 'legacy_tour'", "two sessions have this name"]),
    "unknown scenario op": (_edit_json(SCN, lambda d: _set(d, ["sessions", 1, "actions", 0, "op"], "jump")),
                            [SCN, "session 'modern_tour'", "$.sessions[1].actions[0].op", "unknown op 'jump'"]),
    "bad mode": (_edit_json(SCN, lambda d: _set(d, ["sessions", 2, "mode"], "2030-01-01")),
                 [SCN, "session 'auto_tour'", "$.sessions[2].mode", "'2030-01-01' is not one of"]),
    "empty session": (_edit_json(REC, lambda d: _set(d, ["sessions", 3, "messages"], [])),
                      [REC, "session 'legacy_three_ways'", "at least one message"]),
    "empty scenario session": (_edit_json(SCN, lambda d: _set(d, ["sessions", 3, "actions"], [])),
                               [SCN, "session 'legacy_three_ways'", "at least one action"]),
    "wrong type": (_edit_json(REC, lambda d: _set(d, ["sessions", 0, "messages", 4, "sse"], "no")),
                   [REC, "session 'legacy_tour'", "message 5", "$.sessions[0].messages[4].sse", "true or false"]),
    "wrong type in scenario": (_edit_json(SCN, lambda d: _set(d, ["sessions", 0, "title"], 7)),
                               [SCN, "session 'legacy_tour'", "$.sessions[0].title", "expected a string"]),
    "not UTF-8": (lambda r: (r / REC).write_bytes((r / REC).read_bytes().replace(b"Demo", b"D\xe9mo", 1)),
                  [REC, "not UTF-8"]),
    "unknown session": (None, ["no session named 'nope'"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_named_and_fails(project_copy: Path, case: str):
    breaker, expected = CASES[case]
    if breaker is None:
        done = run_cli("run", SCN, "--session", "nope", cwd=project_copy)
    else:
        breaker(project_copy)
        done = run_cli("check", SCN, cwd=project_copy)
    assert done.returncode == 2, (done.stdout, done.stderr)
    err = done.stderr.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    for text in expected:
        assert text in err, (text, err)
