"""The normal form in which recordings are stored and compared.

MCP: request ids are renumbered in order of appearance, ``c1, c2, ...`` for the client's
requests and ``s1, ...`` for the server's, and a response takes the name of the request it
answers (looked up on the other side's counter). Nothing else is renamed: every other id (a
progress token, the ``requestId`` of ``notifications/cancelled``, a subscription id) stays
exactly as written. Key order is kept as the SDK sent it. Ids are renamed in the messages given.

A2A: every UUID, wherever it stands (inside strings too), becomes ``<id-N>`` in order of
appearance over the session; every timestamp becomes ``<time>``. Keys are kept in the order the
SDK sent them, except below ``metadata`` and ``data`` (`UNORDERED`), where they are sorted: the
SDK writes those from protobuf ``Struct``/``map`` values, whose order changes from one process
to the next. A ListTasks page token (a task's place: URL-safe base64 of ``{"ts", "id"}``)
becomes ``<page after <id-N> <time>>`` where the answer gives it and where a request sends it
back. A message's HTTP envelope (``http``, `agent_loop_sim.http_log`) is kept as it is.
The A2A form, too, is made in the messages given (the engine's and the recorders' logs, theirs to drop).
"""
from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass
from typing import Any

from .transcript import Message

# --- the forms, each written once: the renaming below writes them, the pages spot them ---------

#: An MCP request id, renamed on its sender's counter: the client's ``c1, c2, ...``, the server's ``s1, ...``.
CLIENT_PREFIX, SERVER_PREFIX = "c", "s"
#: A UUID, wherever it stands in an A2A message: ``<id-1>``, ``<id-2>``, ... in order of appearance.
ID_FORM = "<id-{n}>"
#: An A2A timestamp.
TIME_FORM = "<time>"
#: A ListTasks page token: the task it points after and its status timestamp (or ``null``).
PAGE_FORM = "<page after {id} {time}>"
#: A session id an MCP server issues over HTTP (``Mcp-Session-Id``).
SESSION_FORM = "<session-{n}>"


@dataclass(frozen=True)
class NormalForm:
    """One rule of the normal form, as a page explains it beside the values it made: where it
    applies (``where``: ``"id"``, a JSON-RPC message's own ``id``; ``"string"``, inside any
    string; ``"header"``, a header's value), what the SDK sent there (``sent``), what it becomes
    (``form``, written from the templates the renaming uses, and ``how`` it is numbered).
    ``pattern`` spots the form."""

    family: str
    where: str
    form: str
    how: str
    sent: str
    pattern: re.Pattern[str]


def _spotting(template: str) -> re.Pattern[str]:
    """A template's forms as a pattern: each ``{n}`` a number, ``{id}`` an id's form, ``{time}``
    the time's form or ``null`` (a page token's task may have no timestamp)."""
    id_form = re.escape(ID_FORM).replace(re.escape("{n}"), r"\d+")
    out = re.escape(template)
    for name, part in (("n", r"\d+"), ("id", id_form), ("time", f"(?:{re.escape(TIME_FORM)}|null)")):
        out = out.replace(re.escape("{" + name + "}"), part)
    return re.compile(out)


#: Every rule of the normal form, by family (the site lists and marks them from here).
NORMAL_FORMS: dict[str, tuple[NormalForm, ...]] = {
    "mcp": (
        NormalForm("mcp", "id", f"{CLIENT_PREFIX}1, {CLIENT_PREFIX}2, … {SERVER_PREFIX}1, …",
                   f"each side's requests counted in order, {CLIENT_PREFIX} for the client's and {SERVER_PREFIX} "
                   "for the server's; a reply takes the name of the request it answers",
                   "its own request number", re.compile(f"[{CLIENT_PREFIX}{SERVER_PREFIX}]" + r"\d+")),
        NormalForm("mcp", "header", SESSION_FORM.format(n=1) + ", …", "in the order the server issued them",
                   "the random session id the server issued", _spotting(SESSION_FORM)),
    ),
    "a2a": (
        NormalForm("a2a", "string", ID_FORM.format(n=1) + ", " + ID_FORM.format(n=2) + ", …",
                   "in order of appearance, one UUID one name throughout the session", "a random UUID",
                   _spotting(ID_FORM)),
        NormalForm("a2a", "string", TIME_FORM, "every timestamp alike", "a timestamp of the run", _spotting(TIME_FORM)),
        NormalForm("a2a", "string", PAGE_FORM.format(id=ID_FORM.format(n="N"), time=TIME_FORM),
                   "the task it points after, named as everywhere else",
                   "a ListTasks page token (base64 of a task's timestamp and id)", _spotting(PAGE_FORM)),
    ),
}

#: Each party's side of the renaming: (the names of its own requests, their prefix, the names of
#: the requests it answers), made for a session by `_sides`.
_Side = tuple[dict[Any, str], str, dict[Any, str]]


def _sides() -> dict[str, _Side]:
    """A session's sides, by sender. The names are keyed by the id itself: only an exact int or
    string is named, and 1 and "1" are two keys (a bool or a float, which would meet an int's key,
    is never one)."""
    client: dict[Any, str] = {}
    server: dict[Any, str] = {}
    return {"client": (client, CLIENT_PREFIX, server), "server": (server, SERVER_PREFIX, client)}


def _renamed_id(message: dict[str, Any], side: _Side) -> Any:
    """The id of ``message`` in the normal form: a request's named on its sender's counter, a
    reply's the name of the request it answers (a reply to no request keeps its id)."""
    value = message["id"]
    if type(value) is not int and type(value) is not str:
        return value  # no JSON-RPC id (null, a bool, an object): it stays as it is
    names, prefix, answered = side
    if "method" in message:
        name = names.get(value)
        if name is None:
            name = names[value] = f"{prefix}{len(names) + 1}"
        return name
    return answered.get(value, value)


def _renumber_mcp(obj: Any, side: _Side) -> Any:
    if isinstance(obj, list):  # a JSON-RPC batch
        return [_renumber_mcp(item, side) for item in obj]
    if type(obj) is not dict or "id" not in obj:  # (JSON values only: exact types will do)
        return obj
    out = dict(obj)  # a message with nothing to rename is kept as it is, not copied
    out["id"] = _renamed_id(out, side)
    return out


def normalise_mcp(messages: list[Message]) -> list[Message]:
    """The messages in the normal form. A message's id is renamed in the message itself: the messages
    given are the caller's log, theirs to drop (the engine's, a recorder's)."""
    sides = _sides()
    for m in messages:
        obj = m.json
        if m.raw is not None:
            continue  # nothing to rename
        if type(obj) is dict:  # nearly every message: its id renamed in place (see above)
            if "id" not in obj:
                continue  # a notification
            # (`_renamed_id` written out here; tests/test_normalise.py runs both on the same ids)
            value = obj["id"]
            kind = type(value)
            if kind is not int and kind is not str:
                continue  # no JSON-RPC id (null, a bool, an object): it stays as it is
            names, prefix, answered = sides[m.sender]
            if "method" in obj:
                name = names.get(value)
                if name is None:
                    name = names[value] = f"{prefix}{len(names) + 1}"
                obj["id"] = name
            else:
                obj["id"] = answered.get(value, value)
        elif type(obj) is list:  # a batch, as a raw session may send: renamed in a copy
            m.json = _renumber_mcp(obj, sides[m.sender])
    return messages


UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$")


#: The members whose values the SDK writes from a protobuf ``Struct``/``Value`` or a ``map``
#: (metadata, a data part, error details' metadata): their key order depends on the process's
#: hash seed, so below them keys are sorted. Everywhere else keys stay in the order sent.
UNORDERED = frozenset({"metadata", "data"})


class _Forms(dict):
    """The strings met in one session's messages (each with a "-": both a UUID and a timestamp have
    one) -> their normal form. A string met again has every UUID in it named already, so its form
    is the one it had the first time (a task's or context's id is met in nearly every message of a
    session); one not met yet is put in the form by `__missing__`, so that a string is looked up
    with a subscript alone (no call for a string met before)."""

    __slots__ = ("ids",)

    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[str, str] = {}  # each UUID met, lower-cased -> its name

    def _rename(self, match: re.Match[str]) -> str:
        key = match.group(0).lower()
        if key not in self.ids:
            self.ids[key] = ID_FORM.format(n=len(self.ids) + 1)
        return self.ids[key]

    def __missing__(self, text: str) -> str:
        # A bare id, as most are, is tried first (a string that is a UUID is no timestamp: a
        # timestamp has a "-" at index 4, a UUID a hex digit), and named without a substitution
        # and its callback.
        if len(text) == 36 and UUID.fullmatch(text):
            key = text.lower()
            form = self.ids.get(key)
            if form is None:
                form = self.ids[key] = ID_FORM.format(n=len(self.ids) + 1)
        elif TIMESTAMP.match(text):
            form = TIME_FORM
        else:
            form = UUID.sub(self._rename, text)
        self[text] = form
        return form


def normalise_a2a(messages: list[Message]) -> list[Message]:
    forms = _Forms()  # (in this session)

    def a2a_form(obj: Any, unordered: bool = False) -> Any:
        """``obj`` in the normal form, made in place where no key is reordered (the caller's messages
        are theirs to drop: no copy of every message is made only to be dropped with it). A closure
        over ``forms`` rather than a function it is passed to, for every array and object of every
        message."""
        kind = type(obj)  # JSON values only, so exact types will do
        if kind is dict:
            if unordered:  # (a small part of a message, as an error's details: rebuilt in sorted order)
                out = {}
                for k, v in sorted(obj.items()):
                    kind = type(v)  # (scalars here too, without a call each)
                    if kind is str:
                        out[k] = forms[v] if "-" in v else v
                    elif kind is dict or kind is list:
                        out[k] = a2a_form(v, True)
                    else:
                        out[k] = v
                return out
            for k, v in obj.items():  # (values replaced, no key added or removed: safe while iterating)
                # Scalars are handled here rather than by a call each: most values are scalars.
                kind = type(v)
                if kind is str:
                    if "-" in v:
                        obj[k] = forms[v]
                elif kind is dict:
                    if k in UNORDERED:
                        obj[k] = a2a_form(v, True)  # (a new object, its keys sorted)
                    else:
                        a2a_form(v)  # (made in place)
                elif kind is list:
                    if k in UNORDERED:
                        obj[k] = a2a_form(v, True)
                        continue
                    # An array's items are handled here, without a call for the array: most
                    # arrays (parts, history, artifacts) are a member of an object.
                    for i, item in enumerate(v):
                        kind = type(item)
                        if kind is dict or kind is list:
                            a2a_form(item)  # (made in place)
                        elif kind is str and "-" in item:
                            v[i] = forms[item]
            return obj
        if kind is list:
            for i, v in enumerate(obj):
                kind = type(v)
                if kind is str:
                    if "-" in v:
                        obj[i] = forms[v]
                elif kind is dict or kind is list:
                    if unordered:
                        obj[i] = a2a_form(v, True)
                    else:
                        a2a_form(v)  # (made in place)
            return obj
        return forms[obj] if kind is str and "-" in obj else obj

    for m in messages:  # (in place: see `a2a_form`)
        m.json = a2a_form(m.json)
        if type(m.json) is dict:
            _page_tokens(m.json, forms)
    return messages


def normalise_mcp_http(messages: list[Message]) -> list[Message]:
    """MCP over Streamable HTTP: the session ids a server issues (its replies' ``Mcp-Session-Id``,
    random each run) become ``<session-1>``, ``<session-2>``, ... in the order issued, wherever
    they stand in a header; an id no reply issued (a client's made-up one) stays as written.
    Made in the messages given, as `normalise_mcp`'s renaming is."""
    issued: dict[str, str] = {}
    for m in messages:
        if m.http is not None and "status" in m.http:
            for name, value in m.http["headers"]:
                if name == "Mcp-Session-Id" and value not in issued:
                    issued[value] = SESSION_FORM.format(n=len(issued) + 1)
    if issued:
        for m in messages:
            if m.http is not None:
                m.http["headers"] = [[name, issued.get(value, value) if name == "Mcp-Session-Id" else value]
                                     for name, value in m.http["headers"]]
    return messages


def _page_tokens(message: dict[str, Any], forms: _Forms) -> None:
    """A ListTasks page token names a task and its status timestamp (URL-safe base64 of
    ``{"ts", "id"}``): random, so it becomes ``<page after <id-N> <time>>`` (the ID named as
    everywhere else), in the answer that gives it and in the request that sends it back."""
    for outer, key in (("result", "nextPageToken"), ("params", "pageToken")):
        holder = message.get(outer)
        if type(holder) is dict and type(holder.get(key)) is str:
            cursor = _cursor(holder[key])
            if cursor is not None:
                stamp, task_id = cursor
                holder[key] = PAGE_FORM.format(id=forms[task_id], time=TIME_FORM if stamp is not None else "null")


def _cursor(token: str) -> tuple[int | None, str] | None:
    """(timestamp, task ID) of a cursor page token whose ID is a UUID, else None."""
    try:
        data = json.loads(base64.urlsafe_b64decode((token + "=" * (-len(token) % 4)).encode()))
    except (binascii.Error, ValueError):
        return None
    if type(data) is not dict or data.keys() != {"ts", "id"} or type(data["id"]) is not str:
        return None
    stamp = data["ts"]
    if not (stamp is None or type(stamp) is int) or not UUID.fullmatch(data["id"]):
        return None
    return stamp, data["id"]
