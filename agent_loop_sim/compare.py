"""Comparing two sets of transcripts message by message, as JSON.

Objects are compared key by key (as JSON: their members, in any order), arrays element by
element, scalars by type and value (``1``, ``1.0`` and ``true`` all differ). The order of an
object's keys is compared too, but reported apart, as a key-order difference: the SDKs write
keys in a fixed order and the engine must too, yet two messages in another order are the same
JSON. Every difference names the session, the message number, the JSON path and both values.
"""
from __future__ import annotations

import marshal
from dataclasses import dataclass
from typing import Any, Iterator

from .jsonio import json_path, short_json
from .transcript import Message, Transcript

MISSING = object()


@dataclass(frozen=True)
class Difference:
    session: str
    message: int | None
    path: str
    expected: Any
    actual: Any
    key_order: bool = False  #: the same keys in another order (``expected``/``actual`` are the key lists)

    def render(self, expected_label: str = "committed", actual_label: str = "engine") -> str:
        where = f"session {self.session!r}"
        if self.message is not None:
            where += f", message {self.message}"
        what = f"{self.path} (key order)" if self.key_order else self.path
        return f"{where}, {what}: {expected_label} {show(self.expected)}, {actual_label} {show(self.actual)}"

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session, "message": self.message, "path": self.path,
                "expected": None if self.expected is MISSING else self.expected,
                "actual": None if self.actual is MISSING else self.actual, "key_order": self.key_order}


def show(value: Any, limit: int = 200) -> str:
    """A value as a difference names it: JSON on one line, cut to ``limit``; ``(absent)`` if missing."""
    return "(absent)" if value is MISSING else short_json(value, limit)


def _same_scalar(a: Any, b: Any) -> bool:
    # Strict: 1 and 1.0 and true are three different things on the wire.
    return type(a) is type(b) and a == b


def identical(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same in value, in every scalar's type and in key order.

    Why marshal (version 2) rather than ``==``: ``==`` says ``1 == 1.0 == True`` and ignores key
    order. Marshal writes each value with its exact type and each object's keys in their order;
    version 2 because later versions write back-references that depend on which objects are
    shared, so equal values could be written differently. Anything marshal cannot write (not
    JSON data) is left to the walk."""
    try:
        return marshal.dumps(a, 2) == marshal.dumps(b, 2)
    except ValueError:
        return False


def _containers_alike(a: Any, b: Any) -> bool:
    # Two arrays or two objects that are `identical`: nothing below them differs, in value or key
    # order, so the walks skip them. ``==`` first: it stops at the first difference, where
    # marshal writes both sides whole.
    return type(a) is type(b) and type(a) in (dict, list) and a == b and identical(a, b)


def diff_json(a: Any, b: Any, path: list[str | int] | None = None) -> Iterator[tuple[str, Any, Any]]:
    """Every value difference between two JSON values, as (JSON path, one value, the other);
    the order of keys is not one (see `key_order_json`)."""
    path = path or []
    if _containers_alike(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            yield from diff_json(a.get(key, MISSING), b.get(key, MISSING), path + [key])
    elif isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            yield from diff_json(a[i] if i < len(a) else MISSING, b[i] if i < len(b) else MISSING, path + [i])
    elif a is MISSING or b is MISSING or not _same_scalar(a, b):
        yield json_path(path), a, b


def key_order_json(a: Any, b: Any, path: list[str | int] | None = None) -> Iterator[tuple[str, list[str], list[str]]]:
    """Every object that has the same keys on both sides in another order, as (JSON path, the
    keys of one, of the other); objects with other keys are value differences, not these."""
    path = path or []
    if _containers_alike(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() == b.keys() and list(a) != list(b):
            yield json_path(path), list(a), list(b)
        for key in a:
            if key in b:
                yield from key_order_json(a[key], b[key], path + [key])
    elif isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from key_order_json(x, y, path + [i])


def _message_fields(m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"from": m.sender, "to": m.receiver, "sse": m.sse}
    if m.http is not None:  # A2A's HTTP envelope: its method, path, status and headers compared too
        out["http"] = m.http
    if m.raw is not None:
        out["raw"] = m.raw
    else:
        out["json"] = m.json
    return out


def _shown_path(path: str) -> str:
    # "$.json.result" reads better as "$.result"; envelope fields keep their names.
    return "$" + path[len("$.json"):] if path.startswith("$.json") else path


def _marshalled(messages: list[Message]) -> list[bytes] | None:
    """Each message whole, as `identical` writes it (every field: a stricter test than
    `_message_fields`, as a raw message's stray ``json`` counts too), or None if one holds what
    marshal cannot write (then every message is walked)."""
    try:
        return [marshal.dumps((m.sender, m.receiver, m.sse, m.http, m.raw, m.json), 2) for m in messages]
    except ValueError:
        return None


def diff_transcripts(expected: Transcript, actual: Transcript) -> list[Difference]:
    """Every difference between two transcripts: the value differences (compared as JSON) and
    the key-order differences (``key_order=True``), message by message."""
    out: list[Difference] = []
    for key in ("mode", "title"):
        if getattr(expected, key) != getattr(actual, key):
            out.append(Difference(expected.name, None, key, getattr(expected, key), getattr(actual, key)))
    # Each message marshalled once on each side (not the session, then each message again): sessions
    # of two releases nearly always differ somewhere, and only the messages that differ are walked.
    expected_bytes, actual_bytes = _marshalled(expected.messages), _marshalled(actual.messages)
    if expected_bytes is not None and expected_bytes == actual_bytes:
        return out
    marshalled = expected_bytes is not None and actual_bytes is not None
    same = {i for i, (x, y) in enumerate(zip(expected_bytes, actual_bytes)) if x == y} if marshalled else set()
    for i in range(max(len(expected.messages), len(actual.messages))):
        if i in same:
            continue
        e = _message_fields(expected.messages[i]) if i < len(expected.messages) else MISSING
        a = _message_fields(actual.messages[i]) if i < len(actual.messages) else MISSING
        if e is MISSING or a is MISSING:
            shown = lambda m: m if m is MISSING else (m.get("json", m.get("raw")))  # noqa: E731
            out.append(Difference(expected.name, i + 1, "$", shown(e), shown(a)))
            continue
        if not marshalled and e == a and identical(e, a):
            continue
        for path, x, y in diff_json(e, a):
            out.append(Difference(expected.name, i + 1, _shown_path(path), x, y))
        for path, x, y in key_order_json(e, a):
            out.append(Difference(expected.name, i + 1, _shown_path(path), x, y, key_order=True))
    return out


def diff_sessions(expected: list[Transcript], actual: list[Transcript]) -> list[Difference]:
    """Every difference between two lists of sessions, matched by name."""
    out: list[Difference] = []
    by_name = {t.name: t for t in actual}
    for t in expected:
        other = by_name.pop(t.name, None)
        if other is None:
            out.append(Difference(t.name, None, "session", "present", MISSING))
        else:
            out.extend(diff_transcripts(t, other))
    for name in by_name:
        out.append(Difference(name, None, "session", MISSING, "present"))
    return out
