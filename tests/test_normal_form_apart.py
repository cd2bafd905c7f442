"""The normal form judged by a second one written apart (``plain_normal_form``, no import from the
package). A bug in ``normalise.py`` would otherwise show on both sides of every comparison (engine
and recorder share it) and go unseen. Two inputs from before any normalising:

- the SDKs' own: the wire lines the recorders keep beside every committed recording
  (``recordings/raw/``, both releases, every transport). Read and normalised by the plain module
  alone, they must give the committed recording exactly; normalised by the package's module, the
  same messages must give the same;
- the engine's: on every committed session as the engine plays it, the two forms must agree, and
  the plain one must give the committed recording.

The fuzz tests (``conftest.live_vs_engine``) hold the SDK's normalised messages against the
second form of the engine's too.
"""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from agent_loop_sim import engine, normalise
from agent_loop_sim.project import Project
from agent_loop_sim.protocols import FAMILIES
from agent_loop_sim.transcript import Message
from conftest import ROOT
from plain_normal_form import NORMAL_FORMS, from_wire

#: Where the wire lines of ``recordings/X`` are kept: ``recordings/raw/X`` (the README's layout).
RAW = ROOT / "recordings" / "raw"


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


def _committed_recordings(family: str):
    """(recording path, its data, its wire lines by session) for every committed recording of ``family``."""
    project = Project(ROOT)
    for file in project.scenario_files():
        if file.family != family:
            continue
        for release in _releases(file.family):
            path = project.recording_path(file, release)
            if path.exists():
                side = RAW / path.relative_to(ROOT / "recordings")
                wire = {s["name"]: s["wire"] for s in json.loads(side.read_text(encoding="utf-8"))["sessions"]}
                yield path, json.loads(path.read_text(encoding="utf-8")), wire


def _package_form(family: str, before: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The package's normal form of messages as `plain_normal_form.from_wire` reads them."""
    messages = [Message(m["from"], m["to"], copy.deepcopy(m.get("json")), m.get("raw"), m["sse"],
                        copy.deepcopy(m.get("http"))) for m in before]
    return [m.to_dict(n) for n, m in enumerate(FAMILIES[family].normalise(messages), 1)]


def raw_disagreements(family: str, edit=lambda path, session, wire: wire) -> list[str]:
    """Every committed session of ``family`` whose wire lines, in the plain normal form, are not
    the committed recording, or where the package's normal form of them differs from the plain
    one. ``edit`` may change a session's wire lines first (to see the comparison fail)."""
    out = []
    count = 0
    for path, data, wire in _committed_recordings(family):
        for session in data["sessions"]:
            where = f"{path.relative_to(ROOT)}: {session['name']}"
            before = from_wire(family, edit(path, session["name"], wire[session["name"]]))
            plain = _exact(NORMAL_FORMS[family](before))
            committed = _exact(session["messages"])
            if plain != committed:
                first = next((n for n, (a, b) in enumerate(zip(plain, committed), 1) if a != b), None)
                out.append(f"{where}: the plain form of the wire lines is not the committed recording "
                           f"(message {first or min(len(plain), len(committed)) + 1})")
            package = _exact(_package_form(family, before))
            if package != plain:
                first = next(n for n, (a, b) in enumerate(zip(plain, package), 1) if a != b)
                out.append(f"{where}: normalise.py differs from the plain form at message {first}")
            count += 1
    assert count > 100, count  # the sessions of both releases were seen
    return out


@pytest.mark.parametrize("family", sorted(NORMAL_FORMS))
def test_the_sdks_wire_lines_in_the_plain_form_are_the_committed_recording(family: str):
    assert raw_disagreements(family) == []


def test_a_bug_planted_in_normalise_py_is_seen_on_the_sdks_wire_lines(monkeypatch: pytest.MonkeyPatch):
    """Two different MCP ids given one name by normalise.py: its form of the SDK's wire lines
    differs from the plain one (the committed recording, made before the bug, still agrees)."""
    def sides():
        client, server = _OneName(), _OneName()
        return {"client": (client, "c", server), "server": (server, "s", client)}

    monkeypatch.setattr(normalise, "_sides", sides)
    found = raw_disagreements("mcp")
    assert any("normalise.py differs" in line for line in found)
    assert not any("not the committed recording" in line for line in found)


def test_a_bug_planted_in_the_http_session_ids_is_seen(monkeypatch: pytest.MonkeyPatch):
    """Streamable HTTP's session ids left as issued by normalise.py: the plain form disagrees."""
    import agent_loop_sim.protocols.mcp as mcp  # (its family's normal form calls this name)

    monkeypatch.setattr(mcp, "normalise_mcp_http", lambda messages: messages)
    assert any("normalise.py differs" in line for line in raw_disagreements("mcp"))


def test_one_changed_wire_line_is_seen():
    """One id changed in one SDK line: its plain form is no longer the committed recording."""
    def edit(path, session, wire):
        if path.name != "sdk_exchanges.json" or session != "legacy_tour" or path.parent.name != "recordings":
            return wire
        wire = copy.deepcopy(wire)
        wire[1]["line"] = wire[1]["line"].replace('"id":1,', '"id":7,', 1)
        return wire

    assert raw_disagreements("mcp", edit) == [
        "recordings/sdk_exchanges.json: legacy_tour: the plain form of the wire lines is not the committed "
        "recording (message 2)"]


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
