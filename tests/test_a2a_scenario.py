"""A2A scenario validation (agent_loop_sim.protocols.a2a.scenario): every problem names the file,
the session and the JSON path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_loop_sim import scenarios
from agent_loop_sim.errors import InputError
from conftest import ROOT


def _load(tmp_path: Path, steps) -> None:
    path = tmp_path / "a2a_bad.json"
    session = {"name": "broken", "family": "a2a", "title": "t"}
    if steps is not None:
        session["steps"] = steps
    path.write_text(json.dumps({"recording": "x.json", "sessions": [{"name": "fine", "family": "a2a", "title": "t",
                                                                      "steps": [{"op": "card"}]}, session]}))
    scenarios.load(path)


@pytest.mark.parametrize("steps, where, words", [
    ([{"op": "teleport"}], "$.sessions[1].steps[0].op", "unknown op 'teleport'"),
    (None, "$.sessions[1]", "missing field 'steps'"),
    ([{"op": "send"}], "$.sessions[1].steps[0]", "'text' or 'parts'"),
    ([{"op": "send", "text": "hi", "stream": "yes"}], "$.sessions[1].steps[0].stream", "expected true or false"),
    ([{"op": "get", "history_length": "2"}], "$.sessions[1].steps[0].history_length", "expected an integer"),
    ([{"op": "send", "text": "hi", "colour": "red"}], "$.sessions[1].steps[0].colour", "unknown field 'colour'"),
    ([{"op": "get", "task": "meeting"}], "$.sessions[1].steps[0].task", "not 'current', 'unknown'"),
    ([{"op": "card", "revalidate": True}], "$.sessions[1].steps[0].revalidate", "earlier card fetch"),
    ([{"op": "send", "parts": [{"text": "a", "url": "b"}]}], "$.sessions[1].steps[0].parts[0]", "one content field"),
    ([{"op": "send", "parts": [{"raw": "aGVsbG8"}]}], "$.sessions[1].steps[0].parts[0].raw", "base64"),
    ([{"op": "get", "task": "current", "task_id": "t-1"}], "$.sessions[1].steps[0].task_id", "not both"),
    ([{"op": "send", "text": "hi", "context": "last", "context_id": "c"}], "$.sessions[1].steps[0].context_id",
     "not both"),
    ([{"op": "send", "text": "hi", "message": "m", "message_id": "x"}], "$.sessions[1].steps[0].message_id",
     "not both"),
    ([{"op": "send", "text": "hi", "push_token": "s"}], "$.sessions[1].steps[0].push_token", "push_url"),
    ([{"op": "send", "text": "hi", "role": 2**40}], "$.sessions[1].steps[0].role", "32-bit"),
    ([{"op": "list", "status": ["x"]}], "$.sessions[1].steps[0].status", "expected"),
    ([{"op": "raw", "body": "{}", "headers": [["A", " b"]]}], "$.sessions[1].steps[0].headers[0]", "header"),
    ([{"op": "raw"}], "$.sessions[1].steps[0]", "body"),
    ([{"op": "get", "version": " 1.0"}], "$.sessions[1].steps[0].version", "header value"),
    ([], "$.sessions[1].steps", "at least one step"),
    ([{"op": "send", "parts": [{"data": {"n": 1e400}}]}], "$.sessions[1].steps[0].parts[0].data.n", "finite double"),
])
def test_a_bad_step_is_named_by_file_session_and_path(tmp_path, steps, where, words):
    with pytest.raises(InputError) as caught:
        _load(tmp_path, steps)
    message = str(caught.value)
    assert message.startswith(str(tmp_path / "a2a_bad.json") + ", session 'broken', at " + where + ": "), message
    assert words in message


def test_labels_bind_only_after_their_send(tmp_path):
    _load(tmp_path, [{"op": "send", "text": "summarise the meeting", "as": "meeting"}, {"op": "get", "task": "meeting"}])
    with pytest.raises(InputError):
        _load(tmp_path, [{"op": "get", "task": "meeting"}, {"op": "send", "text": "x", "as": "meeting"}])


def test_the_committed_scenarios_are_valid():
    seed, more = scenarios.load_many([ROOT / "scenarios" / "a2a.json", ROOT / "scenarios" / "a2a_more.json"])
    assert len(seed.sessions) == 8 and len(more.sessions) >= 12
