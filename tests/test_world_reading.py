"""World files read in process (agent_loop_sim.protocols.mcp.world and .a2a.world): every bad world
of tests/test_worlds.py, which checks them through the CLI (one line, exit 2), is refused here by
the reader itself at its JSON path, with its words: fast enough for the mutation run's oracle."""
from __future__ import annotations

import pytest

from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.a2a.world import read_world as read_agent
from agent_loop_sim.protocols.mcp.world import read_world
from test_worlds import BAD_AGENTS, BAD_WORLDS

GOOD_AGENT = {"kind": "a2a-agent", "card": {"name": "a", "description": "d", "version": "1", "url": "https://a.example/rpc"},
              "first_message": [{"when": "otherwise", "do": [{"reply": "hi"}]}]}


#: each bad world's refusal, word for word (test_worlds.py checks a part of it through the CLI)
WORLD_PROBLEMS = {
    'unknown type': "unknown type 'decimal' (known: integer, number, string, boolean, or an object with enum, list, optional or object)",
    'a name that does not exist': "'b' names nothing here (known: a)",
    'a template naming nothing': '{nope} is not a plain name known here (known: nothing; no format specs or conversions)',
    'a format spec': '{a} is not a plain name known here (known: a; no format specs or conversions)',
    'a recursive type': "the model 'Node' is named without its fields: a model refers to no other by name (recursive and forward references are not modelled)",
    'a hostile function name': 'a tool\'s function name (give "function" when the tool\'s name is not one) must be a Python identifier (ASCII letters, digits and _, not starting with _, not a keyword, not \'ctx\'), not "__import__(\'os\').system(\'x\')"',
    'a parameter named ctx': "a parameter name must be a Python identifier (ASCII letters, digits and _, not starting with _, not a keyword, not 'ctx'), not 'ctx'",
    'a reserved function name': '\'types\' is a name the SDK program uses itself: give another "function"',
    '10,000 tools': '10,000 tools, over the limit of 1,000',
    'an unknown step': 'a step is one of progress, for, if, ask_user, elicit, ask_model, read, log, wait, set, delete, append, notify, send, add_resource',
    'a store too large': 'the store is 1,000,012 characters as JSON, over the limit of 1,000,000',
    'a write to an undeclared store entry': "'b' is not in the world's store (it holds: a: the store's entries are declared with their first value)",
    'a read of the store without one': "'a' is not in the world's store (it holds: nothing)",
    'a resource update without its uri': 'a uri is given with resource_updated, and only with it',
    "a TypedDict field with a default": 'a TypedDict\'s field has no default (give "required": false to let it be left out)',
    'an elicitation asking for a list': "an elicitation's field is a text, number, integer, boolean or enumeration (or one of those or None): the SDK refuses any other",
    'an event the SDK does not publish': "'roots_changed' is not one of 'tools_changed', 'prompts_changed', 'resources_changed', 'resource_updated'",
    'two ends': 'a tool ends one way: result or tool_error or crash (result and crash given)',
    'bad base64': 'the blob is not base64',
    'a case without an end': 'a case ends the call one way: result or tool_error or crash (none given)',
    'a case naming nothing': "'x' names nothing here (known: nothing)",
    'a constraint of another type': 'ge constrains a parameter of type integer or number, not string',
    'a pattern that backtracks': 'a repeat inside a repeat is not modelled (its matching time can grow without bound)',
    'an optional argument before a required one': 'an argument without a default follows one with a default (Python refuses that)',
    'a completion of two things': 'a completion is for a prompt (by name) or a template (by its URI template)',
    "a template's case without an end": "a template's case refuses the read one way: not_found or resource_error",
    'an operator given too few operands': '$slice takes a list of 3 expressions',
}
AGENT_PROBLEMS = {
    'an unknown state': "'sleeping' is not one of 'working', 'input_required', 'auth_required', 'completed', 'failed', 'rejected', 'canceled'",
    'a template naming nothing': '{user} is not {text} or {subject} (no format specs or conversions)',
    'an unknown condition': "unknown condition 'contains': 'x' (known: starts_with TEXT, is TEXT, waiting_in input_required or auth_required)",
    'a card without a path': "the card's url is an http(s) address with a path, such as https://host/a2a",
}


@pytest.mark.parametrize("name", BAD_WORLDS, ids=[f"world{i}" for i in range(len(BAD_WORLDS))])
def test_a_bad_world_is_refused_at_its_path(name):
    body, path, said = BAD_WORLDS[name]
    with pytest.raises(InputError) as caught:
        read_world({"kind": "mcp-server", "name": "w", "version": "1", **body}, "w.json")
    assert (caught.value.path, caught.value.problem) == (path, WORLD_PROBLEMS[name]) and said in WORLD_PROBLEMS[name]


@pytest.mark.parametrize("name", BAD_AGENTS, ids=[f"agent{i}" for i in range(len(BAD_AGENTS))])
def test_a_bad_agent_world_is_refused_at_its_path(name):
    body, path, said = BAD_AGENTS[name]
    with pytest.raises(InputError) as caught:
        read_agent({**GOOD_AGENT, **body}, "a.json")
    assert (caught.value.path, caught.value.problem) == (path, AGENT_PROBLEMS[name]) and said in AGENT_PROBLEMS[name]
    assert read_agent(GOOD_AGENT, "a.json")[0].name == "a"  # the control


def _artifact_of(chunk) -> dict:
    return {"first_message": [{"when": "otherwise", "do": [{"artifact": "r", "chunks": [chunk]}]}]}


AGENT_CASES = [
    ({"card": {**GOOD_AGENT["card"], "default_input_modes": [5]}}, "input modes are at most 1,000 strings",
     "$.card.default_input_modes"),
    ({"card": {**GOOD_AGENT["card"], "default_output_modes": [5]}}, "output modes are at most 1,000 strings",
     "$.card.default_output_modes"),
    (_artifact_of({"text": "a", "metadata": {}}), "a chunk's metadata is not modelled",
     "$.first_message[0].do[0].chunks[0].metadata"),
    (_artifact_of({"text": "a", "filename": "f"}),
     "a text or data part's filename is not modelled (the SDK's helpers take none)",
     "$.first_message[0].do[0].chunks[0].filename"),
    (_artifact_of({"data": {"a": 1}, "filename": "f"}),
     "a text or data part's filename is not modelled (the SDK's helpers take none)",
     "$.first_message[0].do[0].chunks[0].filename"),
]


@pytest.mark.parametrize("body, problem, path", AGENT_CASES, ids=[f"case{i}" for i in range(len(AGENT_CASES))])
def test_an_agent_worlds_refusal_in_its_words(body, problem, path):
    with pytest.raises(InputError) as caught:
        read_agent({**GOOD_AGENT, **body}, "a.json")
    assert (caught.value.problem, caught.value.path) == (problem, path)


def test_a_url_part_may_name_its_file():
    read_agent({**GOOD_AGENT, **_artifact_of({"url": "https://x.example/f", "filename": "f"})}, "a.json")


def _prompt_world(text, arguments=()) -> dict:
    return {"kind": "mcp-server", "name": "w", "version": "1",
            "prompts": [{"name": "p", "description": "d", "arguments": [{"name": a} for a in arguments], "text": text}]}


PROMPT_CASES = [
    (_prompt_world({"$format": "{nobody}"}),
     "{nobody} is not a plain name known here (known: nothing; no format specs or conversions)",
     '$.prompts[0].text["$format"]'),
    (_prompt_world({"$format": "{nobody}"}, ["who"]),
     "{nobody} is not a plain name known here (known: who; no format specs or conversions)",
     '$.prompts[0].text["$format"]'),
    (_prompt_world({"$format": "x", "other": 1}), "an operator stands alone in its object", "$.prompts[0].text"),
    (_prompt_world({"$and": []}), "$and takes a non-empty list of expressions", '$.prompts[0].text["$and"]'),
    (_prompt_world({"$or": 5}), "$or takes a non-empty list of expressions", '$.prompts[0].text["$or"]'),  # (was a traceback)
    (_prompt_world("hi", ["1x"]), "an argument name must be a Python identifier (ASCII letters, digits and _, not "
     "starting with _, not a keyword, not 'ctx'), not '1x'", "$.prompts[0].arguments[0].name"),
    ({**_prompt_world("hi"), "prompts": [{"name": "p", "description": "d", "arguments": 5, "text": "hi"}]},
     "expected an array, got an integer", "$.prompts[0].arguments"),
    ({**_prompt_world("hi"), "prompts": [{"name": "p", "description": "d", "bogus": 1}]},
     "unknown field 'bogus' in a prompt (known: arguments, description, icons, messages, name, text, title)",
     "$.prompts[0].bogus"),
    ({**_prompt_world("hi"), "prompts": [{"name": "p", "description": "d", "messages": [{"role": "user"}]}]},
     "missing field 'text' in a prompt message", "$.prompts[0].messages[0]"),
    ({"kind": "mcp-server", "name": "w", "version": "1", "resources": [{"uri": "x://y", "name": "y"}]},
     "a resource has either text or blob (base64)", "$.resources[0]"),
]


@pytest.mark.parametrize("raw, problem, path", PROMPT_CASES, ids=[f"prompt{i}" for i in range(len(PROMPT_CASES))])
def test_a_bad_prompt_or_resource_is_refused_in_its_words(raw, problem, path):
    with pytest.raises(InputError) as caught:
        read_world(raw, "w.json")
    assert (caught.value.problem, caught.value.path) == (problem, path)
