"""The MCP part of a scenario: the mode, what the application does, the scripted answers.

``mode`` is how the SDK's ``Client`` connects: ``legacy`` (the ``initialize`` handshake),
``2026-07-28`` (the stateless revision, adopted without a probe), ``auto`` (``server/discover``
first); ``raw`` sessions are exact lines written to the server with no SDK client at all.

Actions (``actions``), in order::

    {"op": "ping"}
    {"op": "list", "what": "tools" | "resources" | "templates" | "prompts", "cursor": TEXT?,
     "cache_mode": "use" | "bypass" | "refresh"?}
    {"op": "call", "tool": NAME, "arguments": {...}?, "progress": true?, "cancel": true?,
     "read_timeout_seconds": SECONDS?}
    {"op": "read", "uri": URI, "cache_mode": ...?}
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

A call's ``read_timeout_seconds`` is ``call_tool``'s (the session's ``read_timeout_seconds``
otherwise); ``cache_mode`` is the cacheable verbs' own.

Session options (the ``Client``'s constructor): ``client_info`` (the SDK's ``Implementation``:
``name``, ``version``, and ``title``, ``description``, ``websiteUrl``, ``icons``: [{``src``,
``mimeType``?, ``sizes``?, ``theme``?}], each optional one may be null; ``website_url`` and
``mime_type`` as the models also take them, the wire's name winning when both are given), ``read_timeout_seconds``
(``read_timeout_seconds``: every request's), ``input_required_max_rounds``,
``roots`` (the roots a ``list_roots`` callback returns; declares the roots capability),
``log_level`` (the per-request log opt-in of 2026-07-28), ``logging_callback`` and
``message_handler`` (true: the callbacks exist; they change nothing on the wire),
``sampling_capabilities`` (``{"context": {}, "tools": {}}``-style sub-capabilities declared
with a sampling callback), ``extensions`` (identifier -> settings, advertised with
``mcp.client.advertise``). A call, read or get may seed its first request with
``input_responses`` (an object) and ``request_state`` (a string).

Scripted answers (``answers``): what the user says to each ``elicitation/create`` and what
the model says to each ``sampling/createMessage``, used in order, as the result objects the
client returns, or ``{"error": {"code": N, "message": TEXT, "data": VALUE?}}``: the callback
refuses the question with that ``ErrorData``. A session that scripts an answer of a kind declares
that capability. An answer may say ``"delay": SECONDS``: the callback returns it that late (a user
slow to answer).

Time is modelled only where it is the client's own: the server answers at once, and a read
timeout fires when the client's late answers to a call's questions outlast it, or when the
server never answers (a world's tool that waits forever; without a timeout such a call would
wait forever, and the session is refused). A timeout shorter
than `MIN_TIMEOUT` (or a late answer within that much of it) would race the server's own time
to answer: such a scenario is refused, not guessed.
"""
from __future__ import annotations

import math
from typing import Any

from ...errors import InputError
from ...jsonio import check_embedded_json, json_path
from ...schema import Field, check_object, describe, tag_of
from .http_scenario import check_transport, validate_requests  # noqa: F401  (check_transport: the file's)

MODES = ("legacy", "2026-07-28", "auto", "raw")
LISTABLE = ("tools", "resources", "templates", "prompts")
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
CACHE_MODES = ("use", "bypass", "refresh")
#: seconds: a timeout (or a late answer's distance from one) shorter than this is a race with the
#: server's own time to answer on a loaded machine, not a value the SDK's answer follows from
MIN_TIMEOUT = 0.1

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
    "read_timeout_seconds": Field((int, float), required=False),
    "input_required_max_rounds": Field(int, required=False),
}
CLIENT_OPTIONS = ("client_info", "roots", "log_level", "logging_callback", "message_handler", "sampling_capabilities",
                  "extensions", "read_timeout_seconds", "input_required_max_rounds")

_META = {"meta": Field(dict, required=False)}
_CACHE = {"cache_mode": Field(str, required=False, choices=CACHE_MODES)}
_SEEDS = {"input_responses": Field(dict, required=False), "request_state": Field(str, required=False)}
ACTION_FIELDS: dict[str, dict[str, Field]] = {
    "ping": {**_META},
    "list": {"what": Field(str, choices=LISTABLE), "cursor": Field(str, required=False), **_META, **_CACHE},
    "call": {"tool": Field(str), "arguments": Field(dict, required=False), "progress": Field(bool, required=False),
             "cancel": Field(bool, required=False), "read_timeout_seconds": Field((int, float), required=False),
             **_META, **_SEEDS},
    "read": {"uri": Field(str), **_META, **_SEEDS, **_CACHE},
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
#: mcp_types.Implementation and Icon, by their wire names and, as the models also take them, by
#: their Python names (null is what an unset optional field is)
CLIENT_INFO_FIELDS = {"name": Field(str), "title": Field(str, required=False, nullable=True), "version": Field(str),
                      "description": Field(str, required=False, nullable=True),
                      "websiteUrl": Field(str, required=False, nullable=True),
                      "website_url": Field(str, required=False, nullable=True),
                      "icons": Field(list, required=False, nullable=True)}
ICON_FIELDS = {"src": Field(str), "mimeType": Field(str, required=False, nullable=True),
               "mime_type": Field(str, required=False, nullable=True),
               "sizes": Field(list, required=False, nullable=True),
               "theme": Field(str, required=False, nullable=True, choices=("light", "dark"))}

ANSWER_FIELDS = {"elicitation": Field(list, required=False), "sampling": Field(list, required=False)}
ELICIT_FIELDS = {"action": Field(str, choices=("accept", "decline", "cancel")), "content": Field(dict, required=False)}
SAMPLING_FIELDS = {
    "role": Field(str, choices=("assistant",)),
    "content": Field(dict),
    "model": Field(str),
    "stopReason": Field(str, required=False),
}
_DELAY = {"delay": Field((int, float), required=False)}
#: mcp_types.ErrorData, which a callback may return instead of a result
ERROR_DATA_FIELDS = {"code": Field(int), "message": Field(str), "data": Field((str, int, float, bool, dict, list),
                                                                                required=False, nullable=True)}  # a scripted answer's only: the seeds are sent at once


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


def _check_client_info(info: Any, path: list[str | int]) -> None:
    """What ``Implementation.model_validate`` accepts, by the wire's names; an unknown field is
    refused (the model would drop it silently: a typo would never reach the wire)."""
    check_object(info, CLIENT_INFO_FIELDS, path, "the client info")
    for i, icon in enumerate(info.get("icons") or []):
        check_object(icon, ICON_FIELDS, path + ["icons", i], "an icon")
        for j, size in enumerate(icon.get("sizes") or []):
            Field(str).check(size, path + ["icons", i, "sizes", j])


def _check_seconds(value: float, path: list[str | int], what: str, least: float) -> None:
    if not math.isfinite(value) or value < least:
        shown = f"at least {least:g} s (shorter races the server's own time to answer)" if least else "not negative"
        raise InputError(f"{what} is {shown}, got {value!r}", path=json_path(path))


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
        if "read_timeout_seconds" in action:
            _check_seconds(action["read_timeout_seconds"], here + ["read_timeout_seconds"], "a read timeout",
                           MIN_TIMEOUT)
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
        _check_client_info(raw["client_info"], path + ["client_info"])
    if "read_timeout_seconds" in raw:
        _check_seconds(raw["read_timeout_seconds"], path + ["read_timeout_seconds"], "a read timeout", MIN_TIMEOUT)
    if raw.get("input_required_max_rounds", 0) < 0:
        raise InputError("input_required_max_rounds cannot be negative",
                         path=json_path(path + ["input_required_max_rounds"]))
    for i, root in enumerate(raw.get("roots", [])):
        check_object(root, ROOT_FIELDS, path + ["roots", i], "a root")
    answers = raw.get("answers", {})
    check_object(answers, ANSWER_FIELDS, path + ["answers"], "the answers")
    for kind, fields in (("elicitation", ELICIT_FIELDS), ("sampling", SAMPLING_FIELDS)):
        for i, answer in enumerate(answers.get(kind, [])):
            here = path + ["answers", kind, i]
            if type(answer) is dict and "error" in answer:
                check_object(answer, {"error": Field(dict), **_DELAY}, here, f"a scripted {kind} refusal")
                check_object(answer["error"], ERROR_DATA_FIELDS, here + ["error"], "the error")
            else:
                check_object(answer, {**fields, **_DELAY}, here, f"a scripted {kind} answer")
            if "delay" in answer:
                _check_seconds(answer["delay"], path + ["answers", kind, i, "delay"], "a delay", 0)
