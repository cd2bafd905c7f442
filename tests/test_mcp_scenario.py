"""MCP scenario validation (agent_loop_sim.protocols.mcp.scenario), a bad input per branch: each
refusal is one line, and names the JSON path of the value at fault."""
from __future__ import annotations

import pytest

from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.mcp.scenario import validate

AT = ["sessions", 0]
TEXT = {"type": "text", "text": "hi"}


def _call_seeded(seed) -> dict:
    return {"mode": "legacy", "actions": [{"op": "call", "tool": "t", "input_responses": {"a": seed}}]}


def _complete(ref: dict, **more) -> dict:
    return {"mode": "legacy", "actions": [{"op": "complete", "ref": ref, "argument": {"name": "a", "value": "b"}, **more}]}


def _pinging(**more) -> dict:
    return {"mode": "legacy", "actions": [{"op": "ping"}], **more}


@pytest.mark.parametrize("raw, problem, path", [
    (_call_seeded({"role": "system", "content": TEXT, "model": "m"}),
     "'system' is not one of 'user', 'assistant'", "$.sessions[0].actions[0].input_responses.a.role"),
    (_call_seeded({"role": "user", "content": {"type": "nope"}, "model": "m"}),
     "the SDK's client refuses this sampling answer before sending it (its result model does not accept the content)",
     "$.sessions[0].actions[0].input_responses.a.content"),
    (_call_seeded(5), "a seeded answer must be an object, got an integer", "$.sessions[0].actions[0].input_responses.a"),
    ({"mode": "raw", "lines": []}, "a raw session needs at least one line", "$.sessions[0].lines"),
    ({"mode": "raw", "lines": ["{}"], "actions": []}, "a raw session has 'lines', not 'actions'", "$.sessions[0].actions"),
    ({"mode": "raw", "lines": ["{}\n"]}, "a raw line cannot contain a newline", "$.sessions[0].lines[0]"),
    ({"mode": "raw", "lines": ['{"a": NaN}']},
     "in the text, at $.a: NaN is not a JSON number: JSON numbers are finite doubles (no NaN, no Infinity, nothing out "
     "of range like 1e400)", "$.sessions[0].lines[0]"),
    (_complete({"type": "ref/x"}), "a reference's type is 'ref/prompt' or 'ref/resource', got 'ref/x'",
     "$.sessions[0].actions[0].ref.type"),
    (_complete({"type": "ref/prompt", "name": "p"}, context={"k": 5}), "expected a string, got an integer",
     "$.sessions[0].actions[0].context.k"),
    (_pinging(sampling_capabilities={"context": 5}), "expected an object, got an integer",
     "$.sessions[0].sampling_capabilities.context"),
    (_pinging(sampling_capabilities={"tools": 5}), "expected an object, got an integer",
     "$.sessions[0].sampling_capabilities.tools"),
    (_pinging(sampling_capabilities={"x": {}}), "sampling capabilities are 'context' and 'tools', not 'x'",
     "$.sessions[0].sampling_capabilities.x"),
    (_pinging(roots=[5]), "a root must be an object, got an integer", "$.sessions[0].roots[0]"),
    (_pinging(answers={"bogus": []}), "unknown field 'bogus' in the answers (known: elicitation, sampling)",
     "$.sessions[0].answers.bogus"),
    ({"mode": "legacy", "actions": [5]}, "an action must be an object, got an integer", "$.sessions[0].actions[0]"),
    ({"mode": "legacy", "actions": [{"op": "ping", "x": 1}]}, "unknown field 'x' in a 'ping' action (known: meta, op)",
     "$.sessions[0].actions[0].x"),
    (_pinging(client_info={"name": "c", "version": "1", "icons": [{"src": "a", "sizes": [5]}]}),
     "expected a string, got an integer", "$.sessions[0].client_info.icons[0].sizes[0]"),
    ({"mode": "legacy", "actions": [{"op": "complete", "ref": {"type": "ref/prompt", "name": "p"},
                                     "argument": {"name": "a"}}]},
     "missing field 'value' in the argument", "$.sessions[0].actions[0].argument"),
    (_pinging(answers={"elicitation": [{"action": "maybe"}]}), "'maybe' is not one of 'accept', 'decline', 'cancel'",
     "$.sessions[0].answers.elicitation[0].action"),
    (_pinging(answers={"sampling": [{"role": "assistant", "content": TEXT, "model": "m", "delay": -1}]}),
     "a delay is not negative, got -1", "$.sessions[0].answers.sampling[0].delay"),
    (_pinging(answers={"elicitation": [{"action": "accept", "delay": -1}]}), "a delay is not negative, got -1",
     "$.sessions[0].answers.elicitation[0].delay"),
    ({"mode": "raw", "lines": [5]}, "expected a string, got an integer", "$.sessions[0].lines[0]"),
    ({"mode": "legacy", "lines": ["{}"], "actions": [{"op": "ping"}]}, "only raw sessions have 'lines' (this one is "
     "'legacy')", "$.sessions[0].lines"),
    ({"mode": "legacy", "actions": []}, "the session needs at least one action", "$.sessions[0].actions"),
], ids=[f"bad{i}" for i in range(24)])  # (plain ids: mutmut hands them back to pytest)
def test_a_bad_session_is_refused_with_its_path(raw, problem, path):
    with pytest.raises(InputError) as caught:
        validate(raw, AT)
    assert (caught.value.problem, caught.value.path) == (problem, path)


@pytest.mark.parametrize("raw", [
    _call_seeded({"role": "user", "content": TEXT, "model": "m"}),  # a seed may speak as the user (scripted answers can't)
    _call_seeded({"role": "assistant", "content": TEXT, "model": "m"}),
    _complete({"type": "ref/prompt", "name": "p"}, context={"k": "v"}),
    _pinging(sampling_capabilities={"context": {}, "tools": {}}, roots=[{"uri": "file:///a"}]),
    {"mode": "raw", "lines": ["{bad"]},  # a raw line may be broken JSON on purpose
], ids=[f"good{i}" for i in range(5)])
def test_a_good_session_passes(raw):
    validate(raw, AT)
