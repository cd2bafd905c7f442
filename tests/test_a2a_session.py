"""Playing one A2A scenario session (agent_loop_sim.protocols.a2a.session): what the engine cannot
play is refused in one line naming the file and the session."""
from __future__ import annotations

import json

import pytest

from agent_loop_sim import scenarios
from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.a2a.session import run_session


def _session(tmp_path, **session):
    path = tmp_path / "a2a_x.json"
    path.write_text(json.dumps({"recording": "x.json", "sessions": [{"name": "s1", "family": "a2a", "title": "t",
                                                                      **session}]}))
    (loaded,) = scenarios.load(path).sessions
    return path, loaded


def test_a_step_the_orchestrator_cannot_make_names_file_session_message_and_path(tmp_path):
    """The JSON path is the file's, as the validator's is, and the message the step would have sent."""
    path = tmp_path / "a2a_x.json"
    path.write_text(json.dumps({"recording": "x.json", "sessions": [
        {"name": "s1", "family": "a2a", "title": "t", "steps": [{"op": "card"}]},
        {"name": "s2", "family": "a2a", "title": "t", "steps": [{"op": "card"}, {"op": "get", "task": "current"}]}]}))
    session = scenarios.load(path).sessions[1]
    with pytest.raises(InputError) as caught:
        run_session(session)
    assert str(caught.value) == (f"{path}, session 's2', message 3, at $.sessions[1].steps[1].task: no current task: "
                                 "the agent has not spoken of a task yet")


def test_an_agent_crash_is_answered_as_the_sdk_answers_it(tmp_path):
    """The agent raises (a message not from a user): the SDK answers -32603 with the exception's
    text (`scenarios/a2a_values.json` records it live), and so does the engine."""
    message = {"messageId": "m1", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": message}})
    path, session = _session(tmp_path, mode="raw", posts=[{"body": body, "headers": [["A2A-Version", "1.0"]]}])
    assert run_session(session)[-1].json == {"error": {"code": -32603, "message": "Message must be from a user"},
                                             "id": 1, "jsonrpc": "2.0"}


def test_a_request_with_several_unknown_members_is_not_played(tmp_path):
    # (the SDK names them as a Python set: their order depends on the hash seed)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t"}, "x": 1, "y": 2})
    path, session = _session(tmp_path, mode="raw", posts=[{"body": body}])
    with pytest.raises(InputError) as caught:
        run_session(session)
    assert str(caught.value) == (f"{path}, session 's1': the engine cannot play this session: the SDK names several "
                                 "fields as a Python set, whose order depends on the hash seed "
                                 "(finding a2a-envelope-field-sets)")
