"""Scripted agent behaviour (agent_loop_sim.protocols.a2a.script) and the research agent written with it."""
from __future__ import annotations

import pytest

from agent_loop_sim.protocols.a2a import RESEARCH_AGENT, states
from agent_loop_sim.protocols.a2a.ids import Clock, IdSource
from agent_loop_sim.protocols.a2a.script import AgentCrash, Script, SetStatus, Turn


def _turn(*texts: str, task: dict | None = None) -> Turn:
    message = {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": t} for t in texts],
               "taskId": "t", "contextId": "c"}
    return Turn(message=message, task_id="t", context_id="c", current_task=task)


def _kinds(events):
    return [(e.kind, e.body.get("status", {}).get("state")) for e in events]


def test_a_greeting_is_one_message_without_a_task():
    (event,) = RESEARCH_AGENT.execute(_turn("hello there"), IdSource("a"), Clock())
    assert event.kind == "message" and "taskId" not in event.body and event.body["contextId"] == "c"


def test_a_summary_is_one_artifact_in_two_chunks():
    events = RESEARCH_AGENT.execute(_turn("summarise the notes"), IdSource("a"), Clock())
    assert _kinds(events) == [("task", states.SUBMITTED), ("statusUpdate", states.WORKING), ("artifactUpdate", None),
                              ("artifactUpdate", None), ("statusUpdate", states.COMPLETED)]
    first, second = events[2].body, events[3].body
    assert first["artifact"]["artifactId"] == second["artifact"]["artifactId"]
    assert first["artifact"]["parts"] == [{"text": "Summary of the notes: "}]
    assert (second.get("append"), second.get("lastChunk"), "append" in first) == (True, True, False)


def test_text_parts_are_joined_by_a_line_break():
    events = RESEARCH_AGENT.execute(_turn("summarise a", "b"), IdSource("a"), Clock())
    assert events[2].body["artifact"]["parts"] == [{"text": "Summary of a\nb: "}]


def test_a_follow_up_depends_on_the_state_the_task_waited_in():
    waiting = {"id": "t", "contextId": "c", "status": {"state": states.AUTH_REQUIRED}}
    events = RESEARCH_AGENT.execute(_turn("signed in", task=waiting), IdSource("a"), Clock())
    assert events[1].body["artifact"]["parts"] == [{"text": "Today: "}]
    waiting["status"]["state"] = states.INPUT_REQUIRED
    events = RESEARCH_AGENT.execute(_turn("hello", task=waiting), IdSource("a"), Clock())
    assert events[1].body["artifact"]["parts"] == [{"text": "Summary of hello's meeting: "}]


def test_an_update_after_a_terminal_one_is_an_agent_crash():
    from agent_loop_sim.protocols.a2a.script import CreateTask, Otherwise, Rule
    script = Script(first_message=(Rule(Otherwise(), (CreateTask(), SetStatus(states.COMPLETED),
                                                       SetStatus(states.WORKING))),), follow_up=())
    with pytest.raises(AgentCrash):
        script.execute(_turn("x"), IdSource("a"), Clock())
