"""A very small declarative validator for the scenario files.

Why not JSON Schema (``jsonschema``)? The engine has no runtime dependencies by design, and
the errors here must name the session and the JSON path in the project's own words. The rules
are few: an object's fields, each with a type, whether it is required and its allowed values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .jsonio import json_path

_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", dict: "an object", list: "an array"}


def describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    for kind, name in _TYPE_NAMES.items():
        if type(value) is kind:
            return name
    return type(value).__name__


@dataclass(frozen=True)
class Field:
    """One field of a JSON object: its type, whether it must be there, its allowed values."""

    kind: type | tuple[type, ...]
    required: bool = True
    choices: tuple[Any, ...] | None = None
    nullable: bool = False

    def check(self, value: Any, path: list[str | int]) -> None:
        kinds = self.kind if isinstance(self.kind, tuple) else (self.kind,)
        if value is None and self.nullable:
            return
        # bool is an int in Python; in JSON it is not.
        if not any(type(value) is k for k in kinds):
            wanted = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
            raise InputError(f"expected {wanted}, got {describe(value)}", path=json_path(path))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InputError(f"{value!r} is not one of {allowed}", path=json_path(path))


def check_object(obj: Any, fields: dict[str, Field], path: list[str | int], what: str) -> dict[str, Any]:
    """Check ``obj`` against ``fields``: no unknown field, no missing required one, right types."""
    if type(obj) is not dict:
        raise InputError(f"{what} must be an object, got {describe(obj)}", path=json_path(path))
    for key in obj:
        if key not in fields:
            known = ", ".join(sorted(fields))
            raise InputError(f"unknown field {key!r} in {what} (known: {known})", path=json_path(path + [key]))
    for key, field in fields.items():
        if key in obj:
            field.check(obj[key], path + [key])
        elif field.required:
            raise InputError(f"missing field {key!r} in {what}", path=json_path(path))
    return obj


def tag_of(obj: dict[str, Any], tag: str, known: Any, path: list[str | int]) -> str:
    """The value of ``obj[tag]`` that picks an object's kind (an action's ``op``), checked to be a
    string among ``known`` before anything looks it up (a list there is refused, not hashed)."""
    value = obj.get(tag)
    if type(value) is not str or value not in known:
        shown = repr(value) if type(value) is str else describe(value)
        raise InputError(f"unknown {tag} {shown} (known: {', '.join(known)})", path=json_path(path + [tag]))
    return value
