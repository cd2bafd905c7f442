"""The A2A part of a scenario: what the orchestrating application does, step by step.

A session has ``steps``, played in order by the orchestrator (`orchestrator`)::

    {"op": "card", "revalidate": true?, "if_none_match": "W/\\"...\\""?}
    {"op": "send", "text": "..." | "parts": [...], "stream": true?, "task": REF?, "context": CTX?,
                   "as": LABEL?, "message": LABEL?, "history_length": N?}
    {"op": "get", "task": REF?, "history_length": N?}
    {"op": "cancel", "task": REF?}
    {"op": "subscribe", "task": REF?}
    {"op": "extended_card"}
    {"op": "list", "context": CTX?, "status": STATE?, "history_length": N?, "include_artifacts": BOOL?,
                   "page_size": N?, "page_token": TEXT? | "next_page": true?, "status_timestamp_after": TEXT?}
    {"op": "push_config", "action": "create" | "get" | "list" | "delete", "task": REF?, "id": TEXT?,
                          "url": TEXT?, "token": TEXT?, "page_size": N?, "page_token": TEXT?}

    {"op": "raw", "body": TEXT, "headers": [[NAME, VALUE], ...]?}

A send may also set the message's ``role`` (``ROLE_USER`` by default; any name or number, also
one the protocol does not define), ``metadata``,
``extensions`` and ``reference_tasks`` (task references, sent as ``referenceTaskIds``), the
request's ``request_metadata``, and the ``configuration``'s ``accepted_output_modes`` and
``push_url`` (a push-notification config for the task, with ``push_token`` its token) and
``return_immediately``, and ``blocking`` (a 0.3 field the 1.0 types do not have: sent as
written, which the agent ignores). Ids the application chooses itself are literal:
``task_id``, ``context_id`` and ``message_id`` on a send (``"message_id": null``: a message
without one), ``task_id`` on get, cancel, subscribe and push_config; ``list``'s ``status`` may
be any name or number too, and ``"next_page": true`` sends the page token of the last ListTasks
answer (``page_token`` is sent as written).

A ``raw`` step posts its body exactly as written among the other steps (as a raw session's
posts, below); the task its answer speaks of becomes the current one.

A ``raw`` session (``"mode": "raw"``) has ``posts`` instead of steps: exact HTTP bodies posted to
the agent's JSON-RPC URL, ``{"body": TEXT, "headers": [[NAME, VALUE], ...]?}`` (without
``headers``: ``Content-Type: application/json`` and ``A2A-Version: 1.0``).

``card`` fetches the agent card, conditionally with ``If-None-Match``: ``revalidate`` sends the
ETag of the last card answer, ``if_none_match`` a given value. Every other step is one
JSON-RPC request; it may rename the method (``"method": "message/send"``), set the
``A2A-Version`` header (``"version": "0.3"``, or ``null`` for no header; ``"1.0"`` otherwise)
and give the request its own JSON-RPC ``id`` (``"jsonrpc_id": true``; numbered from 1 otherwise).

``task`` names a task: ``"current"`` (the last task the agent spoke of; the default of get,
cancel and subscribe), ``"unknown"`` (a fresh ID the agent never saw), a label bound by an
earlier send's ``"as"``, or for ``send`` ``"new"`` (the default: no task ID). ``context``:
``"none"``, ``"last"`` (the last context ID the agent sent), ``"unknown"``; a send into a named
task carries that task's context unless told otherwise. ``message`` labels the message ID, so
that a later send can carry the same ID again. ``parts`` are A2A parts (``text``, ``url``,
``data`` or ``raw``, with ``mediaType``, ``filename``, ``metadata``); ``text`` is one text part.
"""
from __future__ import annotations

import base64
import binascii
import math
import re
from typing import Any

from ...errors import InputError
from ...jsonio import check_embedded_json, json_path
from ...schema import Field, check_object, describe, tag_of

SESSION_FIELDS = {"steps": Field(list, required=False), "mode": Field(str, required=False, choices=("jsonrpc", "raw")),
                  "posts": Field(list, required=False)}
POST_FIELDS = {"body": Field(str), "headers": Field(list, required=False)}
PUSH_ACTIONS = ("create", "get", "list", "delete")

TASK_WORDS = ("new", "current", "unknown")
CONTEXT_WORDS = ("none", "last", "unknown")
_LABEL = re.compile(r"\A[a-z][a-z0-9_]*\Z")
_HEADER_VALUE = re.compile(r"\A(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?\Z")

_REQUEST = {"method": Field(str, required=False), "version": Field(str, required=False, nullable=True),
            "jsonrpc_id": Field((str, int, bool), required=False, nullable=True)}
_TASK_ID = {"task_id": Field(str, required=False)}  # a literal task ID, in place of ``task``
STEP_FIELDS: dict[str, dict[str, Field]] = {
    "card": {"revalidate": Field(bool, required=False), "if_none_match": Field(str, required=False)},
    "send": {**_REQUEST, "text": Field(str, required=False), "parts": Field(list, required=False),
             "stream": Field(bool, required=False), "task": Field(str, required=False),
             "context": Field(str, required=False), "as": Field(str, required=False),
             "message": Field(str, required=False), "history_length": Field(int, required=False),
             "role": Field((str, int), required=False), "metadata": Field(dict, required=False),
             "extensions": Field(list, required=False), "reference_tasks": Field(list, required=False),
             "request_metadata": Field(dict, required=False), "accepted_output_modes": Field(list, required=False),
             "push_url": Field(str, required=False), "return_immediately": Field(bool, required=False),
             "push_token": Field(str, required=False), "blocking": Field(bool, required=False), **_TASK_ID,
             "context_id": Field(str, required=False), "message_id": Field(str, required=False, nullable=True)},
    "get": {**_REQUEST, "task": Field(str, required=False), "history_length": Field(int, required=False), **_TASK_ID},
    "cancel": {**_REQUEST, "task": Field(str, required=False), **_TASK_ID},
    "subscribe": {**_REQUEST, "task": Field(str, required=False), **_TASK_ID},
    "extended_card": dict(_REQUEST),
    "list": {**_REQUEST, "context": Field(str, required=False), "status": Field((str, int), required=False),
             "history_length": Field(int, required=False), "include_artifacts": Field(bool, required=False),
             "page_size": Field(int, required=False), "page_token": Field(str, required=False),
             "next_page": Field(bool, required=False), "status_timestamp_after": Field(str, required=False)},
    "push_config": {**_REQUEST, "action": Field(str, choices=PUSH_ACTIONS), "task": Field(str, required=False), **_TASK_ID,
                    "id": Field(str, required=False), "url": Field(str, required=False),
                    "token": Field(str, required=False), "page_size": Field(int, required=False),
                    "page_token": Field(str, required=False)},
    "raw": {"body": Field(str), "headers": Field(list, required=False)},
}

PART_FIELDS = {
    "text": Field(str, required=False), "url": Field(str, required=False), "raw": Field(str, required=False),
    "data": Field((dict, list, str, int, float, bool), required=False, nullable=True),
    "mediaType": Field(str, required=False), "filename": Field(str, required=False),
    "metadata": Field(dict, required=False),
}
PART_CONTENT = ("text", "url", "raw", "data")


def _fail(problem: str, path: list[str | int]) -> InputError:
    return InputError(problem, path=json_path(path))


def _check_wire_value(value: Any, path: list[str | int]) -> None:
    """Strings must be UTF-8 and numbers finite doubles: what protobuf can carry and give back."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _fail("a string with a lone surrogate cannot be sent as UTF-8", path) from None
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            finite = math.isfinite(float(value))
        except OverflowError:
            finite = False
        if not finite:
            raise _fail("a number must fit a finite double", path)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_wire_value(item, path + [i])
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_wire_value(key, path + [key])
            _check_wire_value(item, path + [key])


def check_parts(parts: list[Any], path: list[str | int], index: int | str = 0) -> None:
    """Check A2A parts (``index``: the first one's place in ``path``'s list)."""
    for i, part in enumerate(parts, start=index if isinstance(index, int) else 0):
        here = path + [i]
        check_object(part, PART_FIELDS, here, "a part")
        _check_wire_value(part, here)
        contents = [key for key in PART_CONTENT if key in part]
        if len(contents) > 1:
            raise _fail(f"a part has one content field, not {', '.join(contents)}", here)
        if "raw" in part:
            try:
                canonical = base64.b64encode(base64.b64decode(part["raw"], validate=True)).decode()
            except (binascii.Error, ValueError):
                canonical = None
            if canonical != part["raw"]:
                raise _fail("raw is standard base64 with padding", here + ["raw"])


def _check_int32(value: int, path: list[str | int]) -> None:
    if not -2**31 <= value < 2**31:
        raise _fail("a 32-bit integer is expected", path)


def validate(raw: dict[str, Any], path: list[str | int]) -> None:
    """Check an A2A session's steps; raise `InputError` naming the JSON path of a problem."""
    if raw.get("mode") == "raw":
        _validate_raw(raw, path)
        return
    if "posts" in raw:
        raise _fail("only raw sessions have 'posts'", path + ["posts"])
    if "steps" not in raw:
        raise _fail("missing field 'steps' in the session", path)
    steps = raw.get("steps")
    if not steps:
        raise _fail("a session needs at least one step", path + ["steps"])
    labels: set[str] = set()
    fetched_card = False
    for i, step in enumerate(steps):
        here = path + ["steps", i]
        if type(step) is not dict:
            raise _fail(f"a step must be an object, got {describe(step)}", here)
        op = tag_of(step, "op", STEP_FIELDS, here)
        check_object(step, {"op": Field(str), **STEP_FIELDS[op]}, here, f"a {op!r} step")
        if op == "raw":
            _check_post(step, here)
            continue
        for key in ("role", "status"):
            if isinstance(step.get(key), int):
                Field(int).check(step[key], here + [key])
                _check_int32(step[key], here + [key])
            elif key in step:
                _check_wire_value(step[key], here + [key])
        for key in ("task_id", "context_id", "message_id", "push_token"):
            if isinstance(step.get(key), str):
                _check_wire_value(step[key], here + [key])
        for literal, ref in (("task_id", "task"), ("context_id", "context")):
            if literal in step and ref in step:
                raise _fail(f"a step has {ref!r} or {literal!r}, not both", here + [literal])
        if "message_id" in step and "message" in step:
            raise _fail("a send has 'message' or 'message_id', not both", here + ["message_id"])
        if "next_page" in step and "page_token" in step:
            raise _fail("a list has 'page_token' or 'next_page', not both", here + ["next_page"])
        if "push_token" in step and "push_url" not in step:
            raise _fail("'push_token' is the token of the push config 'push_url' names", here + ["push_token"])
        if "method" in step and not step["method"]:
            raise _fail("a method name cannot be empty", here + ["method"])
        if isinstance(step.get("version"), str) and not _HEADER_VALUE.match(step["version"]):
            raise _fail("a header value is printable ASCII without spaces around it", here + ["version"])
        for key in ("history_length", "page_size"):
            if key in step:
                _check_int32(step[key], here + [key])
        for key in ("extensions", "accepted_output_modes"):
            for j, item in enumerate(step.get(key, [])):
                Field(str).check(item, here + [key, j])
        for key in ("metadata", "request_metadata"):
            if key in step:
                _check_wire_value(step[key], here + [key])
        for j, ref in enumerate(step.get("reference_tasks", [])):
            Field(str).check(ref, here + ["reference_tasks", j])
            if ref not in TASK_WORDS[1:] and ref not in labels:
                raise _fail(f"{ref!r} is not 'current', 'unknown' nor a label bound by an earlier send's 'as'",
                            here + ["reference_tasks", j])
        if op == "card":
            if "revalidate" in step and "if_none_match" in step:
                raise _fail("a card fetch has 'revalidate' or 'if_none_match', not both", here)
            if step.get("revalidate") and not fetched_card:
                raise _fail("'revalidate' needs an earlier card fetch (its ETag)", here + ["revalidate"])
            if "if_none_match" in step and not _HEADER_VALUE.match(step["if_none_match"]):
                raise _fail("a header value is printable ASCII without spaces around it", here + ["if_none_match"])
            fetched_card = True
        if "task" in step:
            task = step["task"]
            allowed = TASK_WORDS if op == "send" else TASK_WORDS[1:]
            if task not in allowed and task not in labels:
                raise _fail(f"{task!r} is not {', '.join(repr(w) for w in allowed)} nor a label bound by an "
                            "earlier send's 'as'", here + ["task"])
        if "context" in step and step["context"] not in CONTEXT_WORDS:
            raise _fail(f"{step['context']!r} is not one of {', '.join(repr(w) for w in CONTEXT_WORDS)}",
                        here + ["context"])
        if op == "send":
            if ("text" in step) == ("parts" in step):
                raise _fail("a send has 'text' or 'parts' (exactly one)", here)
            if "text" in step:
                _check_wire_value(step["text"], here + ["text"])
            if "parts" in step:
                check_parts(step["parts"], here + ["parts"])
            for key in ("as", "message"):
                if key in step and (not _LABEL.match(step[key]) or step[key] in TASK_WORDS):
                    raise _fail("a label is lower case letters, digits and _ (and not new, current, unknown)",
                                here + [key])
            if "as" in step:
                labels.add(step["as"])


def _validate_raw(raw: dict[str, Any], path: list[str | int]) -> None:
    if "steps" in raw:
        raise _fail("a raw session has 'posts', not 'steps'", path + ["steps"])
    posts = raw.get("posts")
    if not posts:
        raise _fail("a raw session needs at least one post", path + ["posts"])
    for i, post in enumerate(posts):
        here = path + ["posts", i]
        check_object(post, POST_FIELDS, here, "a post")
        _check_post(post, here)


def _check_post(post: dict[str, Any], here: list[str | int]) -> None:
    """A raw post's body and headers (a raw session's post, or a raw step)."""
    check_embedded_json(post["body"], here + ["body"])
    for j, pair in enumerate(post.get("headers", [])):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
                and all(_HEADER_VALUE.match(x) and x for x in pair)):
            raise _fail("a header is [NAME, VALUE], printable ASCII", here + ["headers", j])
