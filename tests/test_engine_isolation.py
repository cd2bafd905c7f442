"""What the engine hands out is its caller's alone: no array or object of a transcript is shared
with another message, with the scenario it was played from, or with anything the models keep
(a table, a cached tool listing, a constant), so a caller may change a transcript freely.

The models build every message from fresh objects instead of copying each message whole (a copy
of every message was an eighth of the engine's time); this test is what makes that safe.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

import a2a_fuzz
import mcp_fuzz
from agent_loop_sim import engine, scenarios
from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.mcp import fixture
from conftest import ROOT

FILES = scenarios.load_many(sorted((ROOT / "scenarios").glob("*.json")))
#: every committed session, and random ones (the fuzz tests' sessions, played but not recorded)
RANDOM = [scenarios.parse_session(raw, i, "fuzz") for i, raw in enumerate(
    mcp_fuzz.raw_sessions(11, 20) + mcp_fuzz.client_sessions(11, 40) + a2a_fuzz.a2a_sessions(11, 20)
    + a2a_fuzz.raw_sessions(11, 10))]
SESSIONS = [s for f in FILES for s in f.sessions] + RANDOM


def containers(value: Any) -> list[int]:
    """The id of every array and object in a JSON value (each as often as it is reached)."""
    out, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.append(id(item))
            stack.extend(item.values())
        elif isinstance(item, list):
            out.append(id(item))
            stack.extend(item)
    return out


def shared(first: list[Any], second: list[Any] | None = None) -> set[int]:
    """The arrays and objects reached twice in ``first``, or reached in both ``first`` and ``second``."""
    ids = [i for value in first for i in containers(value)]
    if second is None:
        return {i for i in ids if ids.count(i) > 1} if len(set(ids)) != len(ids) else set()
    return set(ids) & {i for value in second for i in containers(value)}


def bodies(messages: list[Any]) -> list[Any]:
    return [part for m in messages for part in (m.json, m.http)]


@pytest.mark.parametrize("session", SESSIONS, ids=[s.name for s in SESSIONS])
def test_nothing_a_session_hands_out_is_shared(session):
    try:
        first = engine.play(session)
    except InputError:  # a random session the engine refuses to play hands out nothing
        return  # the messages as played (the playground shows them)
    assert shared(bodies(first)) == set(), "two messages share an object"
    assert shared(bodies(first), [session.spec]) == set(), "a message shares an object with its scenario"
    again = engine.play(session)  # what a model keeps between sessions would be in both
    assert shared(bodies(first), bodies(again)) == set(), "two plays share an object"
    produced = engine.run_session(session).messages  # the normal form, what the check compares
    assert shared(bodies(produced)) == set()
    assert shared(bodies(produced), [session.spec] + bodies(engine.run_session(session).messages)) == set()


def test_a_shared_object_is_seen(monkeypatch):
    """The test above can fail: with the fixture's schema handed out as it is, not copied, the
    handshake era's elicitation shares it (with the next play of the session too)."""
    from agent_loop_sim.protocols.mcp import wire_2025_11_25

    session = next(s for s in SESSIONS if s.name == "legacy_elicit_accept")
    assert shared(bodies(engine.play(session)), bodies(engine.play(session))) == set()
    monkeypatch.setattr(wire_2025_11_25, "copy_json", lambda value: value)
    asked = next(fixture.FIXTURE_SERVER.tool("delete_file").behaviour(path="x"))  # the schema the engine holds
    assert shared(bodies(engine.play(session)), [asked.requested_schema]) != set()
    assert shared(bodies(engine.play(session)), bodies(engine.play(session))) != set()


class _RecordingStore(dict):
    """A task store that keeps each task saved, and its JSON at the time it was saved."""

    def __init__(self) -> None:
        super().__init__()
        self.saved: list[tuple[Any, str]] = []

    def __setitem__(self, key: str, task: Any) -> None:
        self.saved.append((task, json.dumps(task)))
        super().__setitem__(key, task)


A2A_SESSIONS = [s for s in SESSIONS if s.family == "a2a"]


@pytest.mark.parametrize("session", A2A_SESSIONS, ids=[s.name for s in A2A_SESSIONS])
def test_a_stored_task_is_never_changed(session, monkeypatch):
    """The agent's stored tasks share what they do not change with the versions saved before them
    (a task is copied only as far as the task manager changes it): no saved version changes, not
    while the session is played, nor when its messages are put in the normal form."""
    from agent_loop_sim.protocols.a2a import request_handler

    stores: list[_RecordingStore] = []
    setup = request_handler.RequestHandler.__init__

    def with_recording_store(self, *args, **kwargs):
        setup(self, *args, **kwargs)
        self.tasks = _RecordingStore()
        stores.append(self.tasks)

    monkeypatch.setattr(request_handler.RequestHandler, "__init__", with_recording_store)
    engine.run_session(session)  # (every committed session plays: `check`)
    changed = [text for store in stores for task, text in store.saved if json.dumps(task) != text]
    assert changed == [], "a stored version of a task changed after it was saved"
