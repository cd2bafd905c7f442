"""What pydantic derives from a tool function's annotations: JSON Schemas and lax validation.

The SDK's ``MCPServer`` makes a pydantic model of a tool's parameters (``<function>Arguments``)
and of its return annotation (``<function>Output``, one ``result`` field, unless the function
returns a model of its own). This module says the same for the annotations a world file can
name, as data (`Kind`):

========================  ==================================  ===========================
world file                Python annotation                    JSON Schema
========================  ==================================  ===========================
``"integer"``             ``int``                              ``{"type": "integer"}``
``"number"``              ``float``                            ``{"type": "number"}``
``"string"``              ``str``                              ``{"type": "string"}``
``"boolean"``             ``bool``                             ``{"type": "boolean"}``
``"null"``                ``None`` (a return only)             ``{"type": "null"}``
``"object"``              ``dict`` (a return only)             (no output schema)
``{"enum": [...]}``       ``Literal["a", "b"]``                ``{"enum": [...], "type": "string"}``
``{"list": K}``           ``list[K]``                          ``{"items": ..., "type": "array"}``
``{"optional": K}``       ``K | None`` (default ``None``)      ``{"anyOf": [..., {"type": "null"}]}``
``{"object": N, ...}``    a ``BaseModel`` subclass ``N``       ``{"$ref": "#/$defs/N"}``
========================  ==================================  ===========================

Validation follows pydantic 2's lax mode for JSON input: each problem has a location (``p.x``,
``tags.1``), an error type and pydantic's own message, in field order.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

#: pydantic 2.14 (the version the recordings were made with) links each error to its docs.
PYDANTIC_ERRORS_URL = "https://errors.pydantic.dev/2.14/v/"

SCALARS = ("integer", "number", "string", "boolean")
_SCALAR_SET = frozenset(SCALARS + ("null",))
MISSING: Any = object()  # a parameter without a default


@dataclass(frozen=True)
class Kind:
    """One annotation. ``name`` is a scalar's JSON type, or ``enum``, ``list``, ``optional``,
    ``model``, ``null`` or ``dict``; ``of`` the inner kind of a list or an optional; ``values``
    an enumeration's; ``model`` a nested model's name and ``fields`` its fields."""

    name: str
    of: "Kind | None" = None
    values: tuple[str, ...] = ()
    model: str = ""
    fields: tuple["Param", ...] = ()


@dataclass(frozen=True)
class Param:
    """One parameter of a tool, or one field of a nested model."""

    name: str
    kind: Kind
    default: Any = field(default=MISSING, compare=False)
    #: an optional without a default defaults to None (a world's parameters); a return's does not
    none_default: bool = True

    @property
    def title(self) -> str:
        # pydantic's default field title (``GenerateJsonSchema.get_title_from_name``), in its
        # order: "max_tokens" -> "Max Tokens", "from_" -> "From" (the blank stripped).
        return self.name.title().replace("_", " ").strip()

    @property
    def required(self) -> bool:
        return self.default is MISSING and not (self.none_default and self.kind.name == "optional")

    def default_value(self) -> Any:
        return None if self.default is MISSING else self.default


def scalar(name: str) -> Kind:
    return Kind(name)


# --- schemas ----------------------------------------------------------------------------------

def field_schema(kind: Kind, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of ``kind`` where it is used (without a title); nested models go to ``defs``."""
    name = kind.name
    if name in SCALARS or name == "null":
        return {"type": name}
    if name == "enum":  # (one value: pydantic writes a constant)
        return {"const": kind.values[0], "type": "string"} if len(kind.values) == 1 else \
            {"enum": list(kind.values), "type": "string"}
    if name == "list":
        return {"items": field_schema(kind.of, defs), "type": "array"}  # type: ignore[arg-type]
    if name == "optional":
        return {"anyOf": [field_schema(kind.of, defs), {"type": "null"}]}  # type: ignore[arg-type]
    if name == "model":
        if kind.model not in defs:
            defs[kind.model] = {}  # (a place kept first: pydantic lists a model before those it uses)
            defs[kind.model] = model_schema(kind.model, kind.fields, defs)
        return {"$ref": f"#/$defs/{kind.model}"}
    if name == "dict":
        return {"additionalProperties": True, "type": "object"}
    raise ValueError(f"unknown kind {name!r}")


def _is_ref(kind: Kind) -> bool:
    # A field whose schema is (or holds at its top) a reference gets no title of its own.
    return kind.name == "model" or (kind.name == "optional" and kind.of is not None and kind.of.name == "model")


def property_schema(param: Param, defs: dict[str, Any]) -> dict[str, Any]:
    schema = field_schema(param.kind, defs)
    if not param.required:
        schema["default"] = param.default_value()
    if not _is_ref(param.kind):
        schema["title"] = param.title
    return dict(sorted(schema.items()))


def model_schema(title: str, params: tuple[Param, ...], defs: dict[str, Any]) -> dict[str, Any]:
    """A model's schema, as pydantic writes it (its ``$defs`` are the caller's to place)."""
    out: dict[str, Any] = {"properties": {p.name: property_schema(p, defs) for p in params}}
    required = [p.name for p in params if p.required]
    if required:
        out["required"] = required
    out["title"] = title
    out["type"] = "object"
    return out


def top_schema(title: str, params: tuple[Param, ...]) -> dict[str, Any]:
    """A whole model's schema, with the nested models it uses under ``$defs`` (first, as pydantic does)."""
    defs: dict[str, Any] = {}
    body = model_schema(title, params, defs)
    return {"$defs": dict(sorted(defs.items())), **body} if defs else body


# --- lax validation ----------------------------------------------------------------------------

class Rejected(Exception):
    """pydantic's ``ValidationError``, as its text."""


@dataclass(frozen=True)
class Problem:
    loc: str
    kind: str
    text: str
    value: Any


# What pydantic's lax int accepts from a string: ASCII digits, single underscores between them,
# a sign, surrounding blanks, and a fractional part of zeros only ("5.0" is 5, "5." is not).
_INT_TEXT = re.compile(r"^\s*([+-]?[0-9]+(?:_[0-9]+)*)(?:\.0+)?\s*$")


_TRUE_TEXT = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE_TEXT = frozenset({"0", "off", "f", "false", "n", "no"})


def coerce_scalar(kind: str, value: Any) -> tuple[Any, tuple[str, str] | None]:
    """(coerced value, None) or (None, (error type, message)) for one lax-mode scalar."""
    if kind == "integer":
        if type(value) is bool:
            return int(value), None
        if type(value) is int:
            return value, None
        if type(value) is float:
            if not math.isfinite(value):
                return None, ("finite_number", "Input should be a finite number")
            if not value.is_integer():
                return None, ("int_from_float", "Input should be a valid integer, got a number with a fractional part")
            if abs(value) > 2**63:
                return None, ("int_parsing_size", "Unable to parse input string as an integer, exceeded maximum size")
            return int(value), None
        if isinstance(value, str):
            if (match := _INT_TEXT.match(value)):
                return int(match.group(1).replace("_", "")), None
            return None, ("int_parsing", "Input should be a valid integer, unable to parse string as an integer")
        return None, ("int_type", "Input should be a valid integer")
    if kind == "string":
        if isinstance(value, str):
            return value, None
        return None, ("string_type", "Input should be a valid string")
    if kind == "number":
        if type(value) in (int, float, bool):
            return float(value), None
        if isinstance(value, str):
            try:
                return float(value), None  # (Python's float() reads what pydantic's does: blanks, _, inf, nan)
            except ValueError:
                return None, ("float_parsing", "Input should be a valid number, unable to parse string as a number")
        return None, ("float_type", "Input should be a valid number")
    if kind == "boolean":
        if type(value) is bool:
            return value, None
        if type(value) is float and not value.is_integer():
            return None, ("bool_type", "Input should be a valid boolean")
        if type(value) in (int, float):
            if value in (0, 1):
                return bool(value), None
            return None, ("bool_parsing", "Input should be a valid boolean, unable to interpret input")
        if isinstance(value, str):
            if value.lower() in _TRUE_TEXT:
                return True, None
            if value.lower() in _FALSE_TEXT:
                return False, None
            return None, ("bool_parsing", "Input should be a valid boolean, unable to interpret input")
        return None, ("bool_type", "Input should be a valid boolean")
    if kind == "null":
        if value is None:
            return None, None
        return None, ("none_required", "Input should be None")
    raise ValueError(f"unknown scalar {kind!r}")


def _choices(values: tuple[str, ...]) -> str:
    shown = [repr(v) for v in values]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def validate(kind: Kind, value: Any, loc: str, problems: list[Problem]) -> Any:
    """``value`` as the function receives it; each problem found is added to ``problems``."""
    name = kind.name
    if name in _SCALAR_SET:  # (first: nearly every parameter is one)
        coerced, problem = coerce_scalar(name, value)
        if problem:
            problems.append(Problem(loc, problem[0], problem[1], value))
        return coerced
    if name == "optional":
        return None if value is None else validate(kind.of, value, loc, problems)  # type: ignore[arg-type]
    if name == "enum":
        if isinstance(value, str) and value in kind.values:
            return value
        problems.append(Problem(loc, "literal_error", f"Input should be {_choices(kind.values)}", value))
        return None
    if name == "list":
        if type(value) is not list:
            problems.append(Problem(loc, "list_type", "Input should be a valid list", value))
            return None
        return [validate(kind.of, item, f"{loc}.{i}", problems) for i, item in enumerate(value)]  # type: ignore[arg-type]
    if name == "model":
        if type(value) is not dict:
            problems.append(Problem(loc, "model_type", f"Input should be a valid dictionary or instance of {kind.model}",
                                    value))
            return None
        return validate_fields(kind.fields, value, f"{loc}.", problems)
    if name == "dict":
        if type(value) is not dict:
            problems.append(Problem(loc, "dict_type", "Input should be a valid dictionary", value))
            return None
        return value
    coerced, problem = coerce_scalar(name, value)
    if problem:
        problems.append(Problem(loc, problem[0], problem[1], value))
    return coerced


def validate_fields(params: tuple[Param, ...], data: dict[str, Any], prefix: str,
                    problems: list[Problem]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in params:
        if p.name not in data:
            if p.required:
                problems.append(Problem(prefix + p.name, "missing", "Field required", data))
            else:
                out[p.name] = copy_default(p.default_value())
            continue
        out[p.name] = validate(p.kind, data[p.name], prefix + p.name, problems)
    return out


def copy_default(value: Any) -> Any:
    # pydantic copies a mutable default for each instance (a list default is never shared).
    if isinstance(value, list):
        return [copy_default(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_default(v) for k, v in value.items()}
    return value


def python_repr(value: Any) -> str:
    # pydantic prints the input as Python would (JSON values map onto Python values one to one),
    # cutting a long one down to its first 25 and last 24 characters.
    text = repr(value)
    return text if len(text) <= 50 else f"{text[:25]}...{text[-24:]}"


def rejection(model: str, problems: list[Problem]) -> Rejected:
    count = f"{len(problems)} validation error{'s' if len(problems) > 1 else ''} for {model}"
    lines = [count]
    for pr in problems:
        lines.append(pr.loc)
        lines.append(f"  {pr.text} [type={pr.kind}, input_value={python_repr(pr.value)}, "
                     f"input_type={type(pr.value).__name__ if pr.value is not None else 'NoneType'}]")
        lines.append(f"    For further information visit {PYDANTIC_ERRORS_URL}{pr.kind}")
    return Rejected("\n".join(lines))
