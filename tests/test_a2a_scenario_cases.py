"""A2A scenario validation (agent_loop_sim.protocols.a2a.scenario), a case per branch called
directly: the exact one-line problem and the JSON path of the value at fault (tests/test_a2a_scenario.py
loads whole files; this states each refusal's words)."""
from __future__ import annotations

import pytest

from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.a2a.scenario import validate

AT = ["sessions", 0]


def _steps(*steps) -> dict:
    return {"steps": list(steps)}


def _raw(*posts) -> dict:
    return {"mode": "raw", "posts": list(posts)}


@pytest.mark.parametrize("raw, problem, path", [
    (_steps({"op": "send", "parts": [{"data": {"n": 10**400}}]}),  # an int no double holds (float() overflows)
     "a number must fit a finite double", "$.sessions[0].steps[0].parts[0].data.n"),
    (_raw(), "a raw session needs at least one post", "$.sessions[0].posts"),
    (_raw({"body": "{}", "headers": [["A", "b c "]]}), "a header is [NAME, VALUE], printable ASCII",
     "$.sessions[0].posts[0].headers[0]"),
    (_raw({"body": "{}", "headers": [["A"]]}), "a header is [NAME, VALUE], printable ASCII",
     "$.sessions[0].posts[0].headers[0]"),
    (_steps({"op": "get", "history_length": 2**31}), "a 32-bit integer is expected",
     "$.sessions[0].steps[0].history_length"),
    (_steps({"op": "list", "page_size": -2**31 - 1}), "a 32-bit integer is expected", "$.sessions[0].steps[0].page_size"),
    (_steps({"op": "card", "revalidate": True, "if_none_match": "x"}),
     "a card fetch has 'revalidate' or 'if_none_match', not both", "$.sessions[0].steps[0]"),
    (_steps({"op": "card", "if_none_match": " x"}), "a header value is printable ASCII without spaces around it",
     "$.sessions[0].steps[0].if_none_match"),
    (_steps({"op": "get", "task": "new"}),  # only a send may start a new task
     "'new' is not 'current', 'unknown' nor a label bound by an earlier send's 'as'", "$.sessions[0].steps[0].task"),
    (_steps({"op": "send", "parts": [{"raw": "aGVs!bG8="}]}), "raw is standard base64 with padding",
     "$.sessions[0].steps[0].parts[0].raw"),
    (_steps({"op": "send", "parts": [5]}), "a part must be an object, got an integer", "$.sessions[0].steps[0].parts[0]"),
    ({}, "missing field 'steps' in the session", "$.sessions[0]"),
    (_steps(), "a session needs at least one step", "$.sessions[0].steps"),
    (_steps({"op": "send", "text": "\ud800"}), "a string with a lone surrogate cannot be sent as UTF-8",
     "$.sessions[0].steps[0].text"),
    (_steps({"op": "send", "text": "a", "request_metadata": {"n": 10**400}}), "a number must fit a finite double",
     "$.sessions[0].steps[0].request_metadata.n"),
    (_steps({"op": "send", "text": "a", "as": "Bad"}),
     "a label is lower case letters, digits and _ (and not new, current, unknown)", "$.sessions[0].steps[0].as"),
    (_steps({"op": "send", "text": "a", "as": "current"}),  # (a well-formed word the steps keep for themselves)
     "a label is lower case letters, digits and _ (and not new, current, unknown)", "$.sessions[0].steps[0].as"),
], ids=[f"bad{i}" for i in range(17)])  # (plain ids: mutmut hands them back to pytest)
def test_a_bad_session_is_refused_with_its_path(raw, problem, path):
    with pytest.raises(InputError) as caught:
        validate(raw, AT)
    assert (caught.value.problem, caught.value.path) == (problem, path)


@pytest.mark.parametrize("raw", [
    _steps({"op": "send", "text": "a", "task": "new"}),
    _steps({"op": "card"}, {"op": "card", "revalidate": True}, {"op": "card", "if_none_match": "\"v1\""}),
    _steps({"op": "get", "history_length": 2**31 - 1}, {"op": "list", "page_size": -2**31}),
    _raw({"body": "{}", "headers": [["A", "b"]]}),
], ids=[f"good{i}" for i in range(4)])
def test_a_good_session_passes(raw):
    validate(raw, AT)


def test_an_empty_text_is_said_not_refused():
    """An empty text (or text part) is something a client can send: the scenario says it, and the
    agent's crash on it is the SDK's answer to model (`scenarios/a2a_values.json`), not a refusal."""
    validate(_steps({"op": "send", "text": ""}), AT)
    validate(_steps({"op": "send", "parts": [{"text": ""}]}), AT)
