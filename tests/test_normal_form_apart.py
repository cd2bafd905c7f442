"""The normal form judged by a second one written apart (``plain_normal_form``, no import from the
package): on every committed session, as the engine plays it before any normalising, the two
must agree, and the second must give the committed recording itself, which the recorders
normalised with the package's module. A bug in ``normalise.py`` would otherwise show on both
sides of every comparison (engine and recorder share it) and go unseen.

The recorders keep no wire lines from before normalising, so the engine's own messages are the
un-normalised input here; the fuzz tests (``conftest.live_vs_engine``) hold the SDK's normalised
messages against the second form of the engine's too.
"""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from agent_loop_sim import engine, normalise
from agent_loop_sim.project import Project
from agent_loop_sim.protocols import FAMILIES
from conftest import ROOT
from plain_normal_form import NORMAL_FORMS


def _exact(messages: list[dict[str, Any]]) -> list[str]:
    """Each message as text, key order and number types included (dict equality ignores both)."""
    return [json.dumps(m, ensure_ascii=False) for m in messages]


def _releases(family: str) -> list[str | None]:
    releases = FAMILIES[family].releases
    return [None] + (list(releases.others) if releases else [])


def _committed_sessions(family: str):
    """(release, session, committed messages) for every committed recording of ``family``."""
    project = Project(ROOT)
    for file in project.scenario_files():
        if file.family != family:
            continue
        for release in _releases(file.family):
            path = project.recording_path(file, release)
            if not path.exists():
                continue
            committed = {s["name"]: s["messages"] for s in json.loads(path.read_text(encoding="utf-8"))["sessions"]}
            for session in file.sessions:
                yield release, session, committed[session.name]


def disagreements(family: str) -> list[str]:
    """Every committed session of ``family`` where the two normal forms differ, or the second
    form of the engine's messages is not the committed recording."""
    out = []
    count = 0
    for release, session, committed in _committed_sessions(family):
        played = engine.play(session, release)
        before = [m.to_dict(n) for n, m in enumerate(played, 1)]
        plain = NORMAL_FORMS[family](copy.deepcopy(before))
        package = [m.to_dict(n) for n, m in enumerate(FAMILIES[family].normalise(played), 1)]
        where = f"{session.name} ({release or 'pinned'})"
        if _exact(plain) != _exact(package):
            first = next(n for n, (a, b) in enumerate(zip(_exact(plain), _exact(package)), 1) if a != b)
            out.append(f"{where}: normalise.py differs from the plain form at message {first}")
        if _exact(plain) != _exact(committed):
            out.append(f"{where}: the plain form of the engine's messages is not the committed recording")
        count += 1
    assert count > 80, count  # the sessions of both releases were seen
    return out


@pytest.mark.parametrize("family", sorted(NORMAL_FORMS))
def test_the_two_normal_forms_agree_on_every_committed_session(family: str):
    assert disagreements(family) == []


class _OneName(dict):
    """A planted bug: after the first, every request of a side is given the first one's name."""

    def get(self, key, default=None):
        return next(iter(self.values())) if self else default


def test_a_bug_planted_in_normalise_py_is_seen(monkeypatch: pytest.MonkeyPatch):
    """Two different MCP ids given one name by normalise.py: the plain form disagrees."""
    def sides():
        client, server = _OneName(), _OneName()
        return {"client": (client, "c", server), "server": (server, "s", client)}

    monkeypatch.setattr(normalise, "_sides", sides)
    assert any("normalise.py differs" in line for line in disagreements("mcp"))


def test_a_bug_planted_in_the_a2a_form_is_seen(monkeypatch: pytest.MonkeyPatch):
    """``data`` dropped from the members whose keys are sorted: the plain form disagrees."""
    monkeypatch.setattr(normalise, "UNORDERED", frozenset({"metadata"}))
    assert any("normalise.py differs" in line for line in disagreements("a2a"))


def test_the_plain_form_by_hand():
    """The second form on messages written out, with their normal form written out."""
    log = [{"from": "client", "to": "server", "json": {"jsonrpc": "2.0", "id": 5, "method": "a"}},
           {"from": "server", "to": "client", "json": {"jsonrpc": "2.0", "id": 5, "method": "b"}},
           {"from": "client", "to": "server", "json": {"jsonrpc": "2.0", "id": "5", "method": "c"}},
           {"from": "server", "to": "client", "json": {"jsonrpc": "2.0", "id": "5", "result": {}}},
           {"from": "client", "to": "server", "json": [{"jsonrpc": "2.0", "id": 5, "result": {}},
                                                      {"jsonrpc": "2.0", "id": True, "method": "d"}]},
           {"from": "server", "to": "client", "json": {"jsonrpc": "2.0", "id": 8, "result": {}}}]
    assert [m["json"] for m in NORMAL_FORMS["mcp"](log)] == [
        {"jsonrpc": "2.0", "id": "c1", "method": "a"}, {"jsonrpc": "2.0", "id": "s1", "method": "b"},
        {"jsonrpc": "2.0", "id": "c2", "method": "c"}, {"jsonrpc": "2.0", "id": "c2", "result": {}},
        [{"jsonrpc": "2.0", "id": "s1", "result": {}}, {"jsonrpc": "2.0", "id": True, "method": "d"}],
        {"jsonrpc": "2.0", "id": 8, "result": {}}]
    a, b = "A0C789EA-44EB-4154-8DE8-BFEE2D00E741", "11111111-2222-3333-4444-555555555555"
    (m,) = NORMAL_FORMS["a2a"]([{"from": "agent", "to": "orchestrator", "json": {
        "z": b, "s": f"task {a.lower()} and {a}", "t": "2026-12-02T10:00:00Z", "u": "2026-12-02",
        "metadata": {"y": [{"q": a, "p": 1}], "x": 1}, "k": {"y": 1, "x": 2}}}])
    assert _exact([m["json"]]) == _exact([{
        "z": "<id-1>", "s": "task <id-2> and <id-2>", "t": "<time>", "u": "2026-12-02",
        "metadata": {"x": 1, "y": [{"p": 1, "q": "<id-2>"}]}, "k": {"y": 1, "x": 2}}])
