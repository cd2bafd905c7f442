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
to the next. A message's HTTP envelope (``http``, `agent_loop_sim.http_log`) is kept as it is.
The A2A form, too, is made in the messages given (the engine's and the recorders' logs, theirs to drop).
"""
from __future__ import annotations

import re
from typing import Any

from .transcript import Message

_ID_PREFIX = {"client": "c", "server": "s"}


class _Counter:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.names: dict[Any, str] = {}

    def name(self, value: Any) -> Any:
        # Only JSON-RPC's own id types are renumbered; a bad id (null, object, bool) stays as it is.
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            return value
        key = (type(value), value)  # (1 and "1" are two ids)
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = f"{self.prefix}{len(self.names) + 1}"
        return name

    def answered(self, value: Any) -> Any:
        """The name of the request a reply answers; a reply to no request keeps its id."""
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            return value
        return self.names.get((type(value), value), value)


def _renumber_mcp(obj: Any, sender: str, counters: dict[str, _Counter]) -> Any:
    if isinstance(obj, list):  # a JSON-RPC batch
        return [_renumber_mcp(item, sender, counters) for item in obj]
    if type(obj) is not dict or "id" not in obj:  # (JSON values only: exact types will do)
        return obj
    out = dict(obj)  # a message with nothing to rename is kept as it is, not copied
    if "method" in out:
        out["id"] = counters[sender].name(out["id"])
    else:
        out["id"] = counters["server" if sender == "client" else "client"].answered(out["id"])
    return out


def normalise_mcp(messages: list[Message]) -> list[Message]:
    """The messages in the normal form. A message's id is renamed in the message itself: the messages
    given are the caller's log, theirs to drop (the engine's, a recorder's), and a copy of nearly
    every message only to drop the original cost more than the renaming."""
    counters = {party: _Counter(prefix) for party, prefix in _ID_PREFIX.items()}
    out = []
    for m in messages:
        obj = m.json
        if m.raw is not None or (type(obj) is dict and "id" not in obj):  # nothing to rename (a notification)
            out.append(m)  # kept as it is (the messages given are the caller's to drop)
            continue
        if type(obj) is dict:  # nearly every message: its id renamed in place (see above)
            value = obj["id"]
            kind = type(value)
            if kind is int or kind is str:
                # `_Counter.name` / `answered` written out for the id types nearly every message has
                # (two calls a message cost more than the lookups themselves).
                if "method" in obj:
                    names = counters[m.sender].names
                    key = (kind, value)
                    name = names.get(key)
                    if name is None:
                        name = names[key] = f"{_ID_PREFIX[m.sender]}{len(names) + 1}"
                    obj["id"] = name
                else:
                    obj["id"] = counters["server" if m.sender == "client" else "client"].names.get((kind, value), value)
            else:
                obj["id"] = (counters[m.sender].name(value) if "method" in obj
                             else counters["server" if m.sender == "client" else "client"].answered(value))
            out.append(m)
            continue
        renumbered = _renumber_mcp(obj, m.sender, counters)
        out.append(m if renumbered is obj else Message(m.sender, m.receiver, renumbered, None, m.sse))
    return out


UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$")


#: The members whose values the SDK writes from a protobuf ``Struct``/``Value`` or a ``map``
#: (metadata, a data part, error details' metadata): their key order depends on the process's
#: hash seed, so below them keys are sorted. Everywhere else keys stay in the order sent.
UNORDERED = frozenset({"metadata", "data"})


def normalise_a2a(messages: list[Message]) -> list[Message]:
    ids: dict[str, str] = {}
    done: dict[str, str] = {}  # each string already put in the normal form in this session -> its form

    def rename(match: re.Match[str]) -> str:
        key = match.group(0).lower()
        if key not in ids:
            ids[key] = f"<id-{len(ids) + 1}>"
        return ids[key]

    def string(text: str) -> str:
        # (called only for a string with a "-": both a UUID and a timestamp have one.) A string met
        # again has every UUID in it named already, so its form is the one it had the first time:
        # a task's or context's id is met in nearly every message of a session.
        form = done.get(text)
        if form is None:
            # A bare id, as most are, is tried first (a string that is a UUID is no timestamp: a
            # timestamp has a "-" at index 4, a UUID a hex digit), and named without a substitution
            # and its callback.
            if len(text) == 36 and UUID.fullmatch(text):
                key = text.lower()
                form = ids.get(key)
                if form is None:
                    form = ids[key] = f"<id-{len(ids) + 1}>"
            elif TIMESTAMP.match(text):
                form = "<time>"
            else:
                form = UUID.sub(rename, text)
            done[text] = form
        return form

    def a2a_form(obj: Any, unordered: bool = False) -> Any:
        """``obj`` in the normal form, made in place where no key is reordered (the caller's messages
        are theirs to drop: no copy of every message is made only to be dropped with it). A string
        met before is looked up in ``done`` here (no form is empty), without a call of ``string``;
        and this is a closure over both rather than a function they are passed to, for every
        array and object of every message."""
        kind = type(obj)  # JSON values only, so exact types will do
        if kind is dict:
            if unordered:  # (a small part of a message, as an error's details: rebuilt in sorted order)
                out = {}
                for k, v in sorted(obj.items()):
                    kind = type(v)  # (scalars here too, without a call each)
                    if kind is str:
                        out[k] = (done.get(v) or string(v)) if "-" in v else v
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
                        obj[k] = done.get(v) or string(v)
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
                            v[i] = done.get(item) or string(item)
            return obj
        if kind is list:
            for i, v in enumerate(obj):
                kind = type(v)
                if kind is str:
                    if "-" in v:
                        obj[i] = done.get(v) or string(v)
                elif kind is dict or kind is list:
                    if unordered:
                        obj[i] = a2a_form(v, True)
                    else:
                        a2a_form(v)  # (made in place)
            return obj
        return string(obj) if kind is str and "-" in obj else obj

    for m in messages:  # (in place: see `a2a_form`)
        m.json = a2a_form(m.json)
    return messages
