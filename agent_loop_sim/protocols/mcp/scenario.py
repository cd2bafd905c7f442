"""The MCP part of a scenario: the mode, what the application does, the scripted answers.

``mode`` is how the SDK's ``Client`` connects: ``legacy`` (the ``initialize`` handshake),
``2026-07-28`` (the stateless revision, adopted without a probe), ``auto`` (``server/discover``
first); ``raw`` sessions are exact lines written to the server with no SDK client at all.

Actions (``actions``), in order::

    {"op": "ping"}
    {"op": "list", "what": "tools" | "resources" | "templates" | "prompts"}
    {"op": "call", "tool": NAME, "arguments": {...}?, "progress": true?}
    {"op": "read", "uri": URI}
    {"op": "get", "prompt": NAME, "arguments": {...}?}

Scripted answers (``answers``): what the user says to each ``elicitation/create`` and what
the model says to each ``sampling/createMessage``, used in order, as the result objects the
client returns. A session that scripts an answer of a kind declares that capability.
"""
from __future__ import annotations

from typing import Any

from ...errors import InputError
from ...jsonio import json_path
from ...schema import Field, check_object, describe

MODES = ("legacy", "2026-07-28", "auto", "raw")
LISTABLE = ("tools", "resources", "templates", "prompts")

SESSION_FIELDS = {
    "mode": Field(str, choices=MODES),
    "actions": Field(list, required=False),
    "answers": Field(dict, required=False),
    "lines": Field(list, required=False),
}

ACTION_FIELDS: dict[str, dict[str, Field]] = {
    "ping": {},
    "list": {"what": Field(str, choices=LISTABLE)},
    "call": {"tool": Field(str), "arguments": Field(dict, required=False), "progress": Field(bool, required=False)},
    "read": {"uri": Field(str)},
    "get": {"prompt": Field(str), "arguments": Field(dict, required=False)},
}

ANSWER_FIELDS = {"elicitation": Field(list, required=False), "sampling": Field(list, required=False)}
ELICIT_FIELDS = {"action": Field(str, choices=("accept", "decline", "cancel")), "content": Field(dict, required=False)}
SAMPLING_FIELDS = {
    "role": Field(str, choices=("assistant",)),
    "content": Field(dict),
    "model": Field(str),
    "stopReason": Field(str, required=False),
}


def _non_empty(raw: dict[str, Any], key: str, path: list[str | int], what: str, item: str) -> list[Any]:
    if raw.get(key) is None:
        raise InputError(f"missing field {key!r} in {what}", path=json_path(path))
    if not raw[key]:
        raise InputError(f"{what} needs at least one {item}", path=json_path(path + [key]))
    return raw[key]


def validate(raw: dict[str, Any], path: list[str | int]) -> None:
    mode = raw["mode"]
    if mode == "raw":
        for key in ("actions", "answers"):
            if key in raw:
                raise InputError(f"a raw session has 'lines', not {key!r}", path=json_path(path + [key]))
        for i, line in enumerate(_non_empty(raw, "lines", path, "a raw session", "line")):
            Field(str).check(line, path + ["lines", i])
            if "\n" in line:
                raise InputError("a raw line cannot contain a newline", path=json_path(path + ["lines", i]))
        return
    if "lines" in raw:
        raise InputError(f"only raw sessions have 'lines' (this one is {mode!r})", path=json_path(path + ["lines"]))
    for i, action in enumerate(_non_empty(raw, "actions", path, "the session", "action")):
        here = path + ["actions", i]
        if type(action) is not dict:
            raise InputError(f"an action must be an object, got {describe(action)}", path=json_path(here))
        op = action.get("op")
        if op not in ACTION_FIELDS:
            known = ", ".join(ACTION_FIELDS)
            raise InputError(f"unknown op {op!r} (known: {known})", path=json_path(here + ["op"]))
        check_object(action, {"op": Field(str), **ACTION_FIELDS[op]}, here, f"a {op!r} action")
    answers = raw.get("answers", {})
    check_object(answers, ANSWER_FIELDS, path + ["answers"], "the answers")
    for kind, fields in (("elicitation", ELICIT_FIELDS), ("sampling", SAMPLING_FIELDS)):
        for i, answer in enumerate(answers.get(kind, [])):
            check_object(answer, fields, path + ["answers", kind, i], f"a scripted {kind} answer")
