"""The MCP part of a scenario: the mode, what the application does, the scripted answers.

``mode`` is how the SDK's ``Client`` connects: ``legacy`` (the ``initialize`` handshake),
``2026-07-28`` (the stateless revision, adopted without a probe), ``auto`` (``server/discover``
first); ``raw`` sessions are exact lines written to the server with no SDK client at all.

Actions (``actions``), in order::

    {"op": "ping"}
    {"op": "list", "what": "tools" | "resources" | "templates" | "prompts", "cursor": TEXT?}
    {"op": "call", "tool": NAME, "arguments": {...}?, "progress": true?, "cancel": true?}
    {"op": "read", "uri": URI}
    {"op": "get", "prompt": NAME, "arguments": {...}?}
    {"op": "complete", "ref": {"type": "ref/prompt", "name": N} | {"type": "ref/resource", "uri": U},
     "argument": {"name": N, "value": V}, "context": {NAME: VALUE, ...}?}
    {"op": "set_level", "level": LEVEL}
    {"op": "subscribe" | "unsubscribe", "uri": URI}
    {"op": "roots_changed"}                      # notifications/roots/list_changed
    {"op": "progress", "token": T, "progress": P, "total": N?, "message": TEXT?}
    {"op": "listen", "tools": BOOL?, "prompts": BOOL?, "resources": BOOL?, "uris": [URI, ...]?}
                                                 # Client.listen(), entered and left at once

Every request op takes ``meta`` (an object: the request's own ``_meta``). ``cancel`` abandons a
call when the server asks its first question: the question is never answered and the client
sends ``notifications/cancelled`` for the call.

The SDK names listen streams ``listen-N`` from one counter per process, and the recorder records
a scenario file in one process: only one session of a file may listen (the engine counts per
session).

Session options (the ``Client``'s constructor): ``client_info`` ({"name", "version"}),
``roots`` (the roots a ``list_roots`` callback returns; declares the roots capability),
``log_level`` (the per-request log opt-in of 2026-07-28), ``logging_callback`` and
``message_handler`` (true: the callbacks exist; they change nothing on the wire),
``sampling_capabilities`` (``{"context": {}, "tools": {}}``-style sub-capabilities declared
with a sampling callback), ``extensions`` (identifier -> settings, advertised with
``mcp.client.advertise``). A call, read or get may seed its first request with
``input_responses`` (an object) and ``request_state`` (a string).

Scripted answers (``answers``): what the user says to each ``elicitation/create`` and what
the model says to each ``sampling/createMessage``, used in order, as the result objects the
client returns. A session that scripts an answer of a kind declares that capability.
"""
from __future__ import annotations

from typing import Any

from ...errors import InputError
from ...jsonio import check_embedded_json, json_path
from ...schema import Field, check_object, describe, tag_of
from .http_scenario import check_transport, validate_requests  # noqa: F401  (check_transport: the file's)

MODES = ("legacy", "2026-07-28", "auto", "raw")
LISTABLE = ("tools", "resources", "templates", "prompts")
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

SESSION_FIELDS = {
    "mode": Field(str, choices=MODES),
    "actions": Field(list, required=False),
    "answers": Field(dict, required=False),
    "lines": Field(list, required=False),
    "requests": Field(list, required=False),  # a raw session over HTTP (`http_scenario`)
    "client_info": Field(dict, required=False),
    "roots": Field(list, required=False),
    "log_level": Field(str, required=False, choices=LOG_LEVELS),
    "logging_callback": Field(bool, required=False),
    "message_handler": Field(bool, required=False),
    "sampling_capabilities": Field(dict, required=False),
    "extensions": Field(dict, required=False),
}
CLIENT_OPTIONS = ("client_info", "roots", "log_level", "logging_callback", "message_handler", "sampling_capabilities",
                  "extensions")

_META = {"meta": Field(dict, required=False)}
_SEEDS = {"input_responses": Field(dict, required=False), "request_state": Field(str, required=False)}
ACTION_FIELDS: dict[str, dict[str, Field]] = {
    "ping": {**_META},
    "list": {"what": Field(str, choices=LISTABLE), "cursor": Field(str, required=False), **_META},
    "call": {"tool": Field(str), "arguments": Field(dict, required=False), "progress": Field(bool, required=False),
             "cancel": Field(bool, required=False), **_META, **_SEEDS},
    "read": {"uri": Field(str), **_META, **_SEEDS},
    "get": {"prompt": Field(str), "arguments": Field(dict, required=False), **_META, **_SEEDS},
    "complete": {"ref": Field(dict), "argument": Field(dict), "context": Field(dict, required=False)},
    "set_level": {"level": Field(str, choices=LOG_LEVELS), **_META},
    "subscribe": {"uri": Field(str), **_META},
    "unsubscribe": {"uri": Field(str), **_META},
    "roots_changed": {},
    "listen": {"tools": Field(bool, required=False), "prompts": Field(bool, required=False),
               "resources": Field(bool, required=False), "uris": Field(list, required=False)},
    "progress": {"token": Field((str, int)), "progress": Field((int, float)), "total": Field((int, float), required=False),
                 "message": Field(str, required=False)},
}
REF_FIELDS = {"ref/prompt": {"type": Field(str), "name": Field(str)},
              "ref/resource": {"type": Field(str), "uri": Field(str)}}
ARGUMENT_FIELDS = {"name": Field(str), "value": Field(str)}
ROOT_FIELDS = {"uri": Field(str), "name": Field(str, required=False)}
CLIENT_INFO_FIELDS = {"name": Field(str), "version": Field(str)}

ANSWER_FIELDS = {"elicitation": Field(list, required=False), "sampling": Field(list, required=False)}
ELICIT_FIELDS = {"action": Field(str, choices=("accept", "decline", "cancel")), "content": Field(dict, required=False)}
SAMPLING_FIELDS = {
    "role": Field(str, choices=("assistant",)),
    "content": Field(dict),
    "model": Field(str),
    "stopReason": Field(str, required=False),
}


def _check_seed(seed: Any, path: list[str | int]) -> None:
    """A seeded answer is sent by the application itself, so the SDK's client validates it before
    anything is sent: one its result model refuses never reaches the wire (the application's call
    raises), and a scenario with one cannot be played; refuse it here, as that call would."""
    from .client import valid_answer  # the SDK's result rules live with the client model

    if type(seed) is not dict:
        raise InputError(f"a seeded answer must be an object, got {describe(seed)}", path=json_path(path))
    kind = "elicitation" if "action" in seed else "sampling"
    fields = ELICIT_FIELDS if kind == "elicitation" else {**SAMPLING_FIELDS, "role": Field(str, choices=("user", "assistant"))}
    check_object(seed, fields, path, f"a seeded {kind} answer")
    if not valid_answer(kind, seed):
        raise InputError(f"the SDK's client refuses this {kind} answer before sending it (its result model "
                         f"does not accept the content)", path=json_path(path + ["content"]))


def _non_empty(raw: dict[str, Any], key: str, path: list[str | int], what: str, item: str) -> list[Any]:
    if raw.get(key) is None:
        raise InputError(f"missing field {key!r} in {what}", path=json_path(path))
    if not raw[key]:
        raise InputError(f"{what} needs at least one {item}", path=json_path(path + [key]))
    return raw[key]


def validate(raw: dict[str, Any], path: list[str | int]) -> None:
    mode = raw["mode"]
    if mode == "raw" and "requests" in raw:
        for key in ("actions", "answers", *CLIENT_OPTIONS):
            if key in raw:
                raise InputError(f"a raw session has 'requests', not {key!r}", path=json_path(path + [key]))
        validate_requests(raw, path)
        return
    if "requests" in raw:
        raise InputError(f"only raw sessions have 'requests' (this one is {mode!r})", path=json_path(path + ["requests"]))
    if mode == "raw":
        for key in ("actions", "answers", *CLIENT_OPTIONS):
            if key in raw:
                raise InputError(f"a raw session has 'lines', not {key!r}", path=json_path(path + [key]))
        for i, line in enumerate(_non_empty(raw, "lines", path, "a raw session", "line")):
            Field(str).check(line, path + ["lines", i])
            if "\n" in line:
                raise InputError("a raw line cannot contain a newline", path=json_path(path + ["lines", i]))
            check_embedded_json(line, path + ["lines", i])
        return
    if "lines" in raw:
        raise InputError(f"only raw sessions have 'lines' (this one is {mode!r})", path=json_path(path + ["lines"]))
    for i, action in enumerate(_non_empty(raw, "actions", path, "the session", "action")):
        here = path + ["actions", i]
        if type(action) is not dict:
            raise InputError(f"an action must be an object, got {describe(action)}", path=json_path(here))
        op = tag_of(action, "op", ACTION_FIELDS, here)
        check_object(action, {"op": Field(str), **ACTION_FIELDS[op]}, here, f"a {op!r} action")
        for j, uri in enumerate(action.get("uris", []) if op == "listen" else []):
            Field(str).check(uri, here + ["uris", j])
        for key, seed in action.get("input_responses", {}).items():
            _check_seed(seed, here + ["input_responses", key])
        if op == "complete":
            ref = action["ref"]
            kind = ref.get("type")
            if type(kind) is not str or kind not in REF_FIELDS:
                raise InputError(f"a reference's type is 'ref/prompt' or 'ref/resource', got {kind!r}",
                                 path=json_path(here + ["ref", "type"]))
            check_object(ref, REF_FIELDS[kind], here + ["ref"], "a reference")
            check_object(action["argument"], ARGUMENT_FIELDS, here + ["argument"], "the argument")
            for key, value in action.get("context", {}).items():
                Field(str).check(value, here + ["context", key])
    for key in ("context", "tools"):
        if key in raw.get("sampling_capabilities", {}):
            Field(dict).check(raw["sampling_capabilities"][key], path + ["sampling_capabilities", key])
    unknown = set(raw.get("sampling_capabilities", {})) - {"context", "tools"}
    if unknown:
        raise InputError(f"sampling capabilities are 'context' and 'tools', not {sorted(unknown)[0]!r}",
                         path=json_path(path + ["sampling_capabilities", sorted(unknown)[0]]))
    for key, value in raw.get("extensions", {}).items():
        Field(dict).check(value, path + ["extensions", key])
    if "client_info" in raw:
        check_object(raw["client_info"], CLIENT_INFO_FIELDS, path + ["client_info"], "the client info")
    for i, root in enumerate(raw.get("roots", [])):
        check_object(root, ROOT_FIELDS, path + ["roots", i], "a root")
    answers = raw.get("answers", {})
    check_object(answers, ANSWER_FIELDS, path + ["answers"], "the answers")
    for kind, fields in (("elicitation", ELICIT_FIELDS), ("sampling", SAMPLING_FIELDS)):
        for i, answer in enumerate(answers.get(kind, [])):
            check_object(answer, fields, path + ["answers", kind, i], f"a scripted {kind} answer")
