"""Comparing two sets of transcripts message by message, as JSON.

Objects are compared key by key and then for the order of their keys (the SDKs write keys in a
fixed order, and the engine must too), arrays element by element, scalars by type and value
(``1``, ``1.0`` and ``true`` all differ). Every difference names the session, the
message number, the JSON path and both values.
"""
from __future__ import annotations

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

    def render(self, expected_label: str = "committed", actual_label: str = "engine") -> str:
        where = f"session {self.session!r}"
        if self.message is not None:
            where += f", message {self.message}"
        return f"{where}, {self.path}: {expected_label} {show(self.expected)}, {actual_label} {show(self.actual)}"

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session, "message": self.message, "path": self.path,
                "expected": None if self.expected is MISSING else self.expected,
                "actual": None if self.actual is MISSING else self.actual}


def show(value: Any, limit: int = 200) -> str:
    """A value as a difference names it: JSON on one line, cut to ``limit``; ``(absent)`` if missing."""
    return "(absent)" if value is MISSING else short_json(value, limit)


def _same_scalar(a: Any, b: Any) -> bool:
    # Strict: 1 and 1.0 and true are three different things on the wire.
    return type(a) is type(b) and a == b


def diff_json(a: Any, b: Any, path: list[str | int] | None = None) -> Iterator[tuple[str, Any, Any]]:
    path = path or []
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            yield from diff_json(a.get(key, MISSING), b.get(key, MISSING), path + [key])
        if a.keys() == b.keys() and list(a) != list(b):
            yield json_path(path) + " (key order)", list(a), list(b)
    elif isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            yield from diff_json(a[i] if i < len(a) else MISSING, b[i] if i < len(b) else MISSING, path + [i])
    elif a is MISSING or b is MISSING or not _same_scalar(a, b):
        yield json_path(path), a, b


def _message_fields(m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"from": m.sender, "to": m.receiver, "sse": m.sse}
    if m.http is not None:  # A2A's HTTP envelope: its method, path, status and headers compared too
        out["http"] = m.http
    if m.raw is not None:
        out["raw"] = m.raw
    else:
        out["json"] = m.json
    return out


def diff_transcripts(expected: Transcript, actual: Transcript) -> list[Difference]:
    out: list[Difference] = []
    for key in ("mode", "title"):
        if getattr(expected, key) != getattr(actual, key):
            out.append(Difference(expected.name, None, key, getattr(expected, key), getattr(actual, key)))
    for i in range(max(len(expected.messages), len(actual.messages))):
        e = _message_fields(expected.messages[i]) if i < len(expected.messages) else MISSING
        a = _message_fields(actual.messages[i]) if i < len(actual.messages) else MISSING
        if e is MISSING or a is MISSING:
            shown = lambda m: m if m is MISSING else (m.get("json", m.get("raw")))  # noqa: E731
            out.append(Difference(expected.name, i + 1, "$", shown(e), shown(a)))
            continue
        for path, x, y in diff_json(e, a):
            # "$.json.result" reads better as "$.result"; envelope fields keep their names.
            path = "$" + path[len("$.json"):] if path.startswith("$.json") else path
            out.append(Difference(expected.name, i + 1, path, x, y))
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
