"""What pydantic derives from a tool function's annotations: JSON Schemas and lax validation.

The SDK's ``MCPServer`` makes a pydantic model of a tool's parameters (``<function>Arguments``)
and of its return annotation (``<function>Output``, one ``result`` field, unless the function
returns a model of its own). This module says the same for the annotations a world file can
name, as data (`Kind`):

==========================  =====================================  ===================================================
world file                  Python annotation                      JSON Schema
==========================  =====================================  ===================================================
``"integer"``               ``int``                                ``{"type": "integer"}``
``"number"``                ``float``                              ``{"type": "number"}``
``"string"``                ``str``                                ``{"type": "string"}``
``"boolean"``               ``bool``                               ``{"type": "boolean"}``
``"null"``                  ``None`` (a return only)               ``{"type": "null"}``
``"object"``                ``dict`` (a return only)               (no output schema)
``{"enum": [...]}``         ``Literal["a", "b"]``                  ``{"enum": [...], "type": "string"}``
``{"list": K}``             ``list[K]``                            ``{"items": ..., "type": "array"}``
``{"dict": K}``             ``dict[str, K]`` (``"any"``: ``Any``)  ``{"additionalProperties": ..., "type": "object"}``
``{"optional": K}``         ``K | None`` (default ``None``)        ``{"anyOf": [..., {"type": "null"}]}``
``{"object": N, ...}``      a ``BaseModel`` subclass ``N``         ``{"$ref": "#/$defs/N"}``
``{"typed_dict": N, ...}``  a ``TypedDict`` ``N``                  ``{"$ref": "#/$defs/N"}``
==========================  =====================================  ===================================================

Validation follows pydantic 2's lax mode for JSON input: each problem has a location (``p.x``,
``tags.1``), an error type and pydantic's own message, in field order.
"""
from __future__ import annotations

import math
import re
from decimal import Decimal
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
    ``model``, ``null``, ``dict`` (a plain ``dict``) or ``mapping`` (``dict[str, of]``, ``of``
    None for ``Any``); ``of`` the inner kind of a list, an optional or a mapping; ``values``
    an enumeration's; ``model`` a nested model's name and ``fields`` its fields."""

    name: str
    of: "Kind | None" = None
    values: tuple[str, ...] = ()
    model: str = ""
    fields: tuple["Param", ...] = ()
    #: a model's docstring, as pydantic reads it (``inspect.cleandoc``): its schema's description
    description: str | None = None
    #: a model that is a ``TypedDict`` (not a ``BaseModel``): refused as a dictionary, and its
    #: fields may be left out (``NotRequired``)
    typed: bool = False


@dataclass(frozen=True)
class Param:
    """One parameter of a tool, or one field of a nested model: ``Annotated[kind, Field(...)]``
    with ``Field``'s ``description``, ``title`` and ``constraints`` (`CONSTRAINTS`' keys)."""

    name: str
    kind: Kind
    default: Any = field(default=MISSING, compare=False)
    #: an optional without a default defaults to None (a world's parameters); a return's does not
    none_default: bool = True
    description: str | None = None
    given_title: str | None = None
    constraints: tuple[tuple[str, Any], ...] = ()
    #: ``Field(alias=...)``: the name the JSON uses (a keyword such as ``from``, for ``from_``)
    alias: str | None = None
    #: a ``TypedDict``'s ``NotRequired`` field: no default, and left out when not given
    may_be_absent: bool = False

    @property
    def key(self) -> str:
        """The field's name in JSON: its alias, else its own."""
        return self.name if self.alias is None else self.alias

    @property
    def title(self) -> str:
        # pydantic's default field title (``GenerateJsonSchema.get_title_from_name``), of the
        # JSON's name, in its order: "max_tokens" -> "Max Tokens", "from_" -> "From" (stripped).
        if self.given_title is not None:
            return self.given_title
        return self.key.title().replace("_", " ").strip()

    @property
    def required(self) -> bool:
        return self.default is MISSING and not (self.none_default and self.kind.name == "optional") \
            and not self.may_be_absent

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
            defs[kind.model] = model_schema(kind.model, kind.fields, defs, kind.description)
        return {"$ref": f"#/$defs/{kind.model}"}
    if name == "dict":
        return {"additionalProperties": True, "type": "object"}
    if name == "mapping":
        return {"additionalProperties": True if kind.of is None else field_schema(kind.of, defs), "type": "object"}
    raise ValueError(f"unknown kind {name!r}")


def _is_ref(kind: Kind) -> bool:
    # A field whose schema is (or holds at its top) a reference gets no title of its own.
    return kind.name == "model" or (kind.name == "optional" and kind.of is not None and kind.of.name == "model")


def property_schema(param: Param, defs: dict[str, Any]) -> dict[str, Any]:
    schema = field_schema(param.kind, defs)
    if not param.required and not param.may_be_absent:
        schema["default"] = param.default_value()
    if not _is_ref(param.kind) or param.given_title is not None:
        schema["title"] = param.title
    if param.description is not None:
        schema["description"] = param.description
    for key, value in param.constraints:
        schema[_SCHEMA_KEYWORDS[param.kind.name == "list"][key]] = value
    return dict(sorted(schema.items()))


def model_schema(title: str, params: tuple[Param, ...], defs: dict[str, Any],
                 description: str | None = None) -> dict[str, Any]:
    """A model's schema, as pydantic writes it (its ``$defs`` are the caller's to place)."""
    out: dict[str, Any] = {} if description is None else {"description": description}
    out["properties"] = {p.key: property_schema(p, defs) for p in params}
    required = [p.key for p in params if p.required]
    if required:
        out["required"] = required
    out["title"] = title
    out["type"] = "object"
    return out


def top_schema(title: str, params: tuple[Param, ...], description: str | None = None) -> dict[str, Any]:
    """A whole model's schema, with the nested models it uses under ``$defs`` (first, as pydantic does)."""
    defs: dict[str, Any] = {}
    body = model_schema(title, params, defs, description)
    return {"$defs": dict(sorted(defs.items())), **body} if defs else body


def elicitation_schema(kind: Kind) -> dict[str, Any]:
    """The schema ``ctx.elicit`` asks with for a model of plain fields: the model's own, each
    ``T | None`` written as T, and a None default left out (the SDK's elicitation renderer)."""
    schema = model_schema(kind.model, kind.fields, {}, kind.description)
    for name, prop in schema["properties"].items():
        if "anyOf" in prop:
            prop.update(prop.pop("anyOf")[0])
        if "default" in prop and prop["default"] is None:
            del prop["default"]
        schema["properties"][name] = dict(sorted(prop.items()))
    return schema


#: the field kinds an elicitation's model may have (the protocol's primitive schemas)
ELICITABLE = frozenset(SCALARS + ("enum",))


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
            problems.append(Problem(loc, "dict_type", "Input should be a valid dictionary", value) if kind.typed else
                            Problem(loc, "model_type", f"Input should be a valid dictionary or instance of {kind.model}",
                                    value))
            return None
        return validate_fields(kind.fields, value, f"{loc}.", problems)
    if name in ("dict", "mapping"):
        if type(value) is not dict:
            problems.append(Problem(loc, "dict_type", "Input should be a valid dictionary", value))
            return None
        if kind.of is None:
            return value
        return {key: validate(kind.of, item, f"{loc}.{key}", problems) for key, item in value.items()}
    coerced, problem = coerce_scalar(name, value)
    if problem:
        problems.append(Problem(loc, problem[0], problem[1], value))
    return coerced


def validate_fields(params: tuple[Param, ...], data: dict[str, Any], prefix: str,
                    problems: list[Problem]) -> dict[str, Any]:
    """The fields of ``data`` (read by their JSON names), validated, by their Python names."""
    out: dict[str, Any] = {}
    for p in params:
        key, loc = p.key, prefix + p.key
        if key not in data:
            if p.required:
                problems.append(Problem(loc, "missing", "Field required", data))
            elif not p.may_be_absent:
                out[p.name] = copy_default(p.default_value())
            continue
        given = data[key]
        if p.constraints and p.kind.name == "list" and type(given) is list:
            # a list over its longest is refused before its items are read (their errors unsaid)
            longest = dict(p.constraints).get("max_length")
            if longest is not None and len(given) > longest:
                problem = constraint_problem("list", (("max_length", longest),), given)
                problems.append(Problem(loc, *problem, given))  # type: ignore[misc]
                out[p.name] = None
                continue
        before = len(problems)
        value = out[p.name] = validate(p.kind, given, loc, problems)
        if p.constraints and len(problems) == before:  # (a value of the right type: its constraints)
            problem = constraint_problem(p.kind.name, p.constraints, value)
            if problem is not None:
                problems.append(Problem(loc, problem[0], problem[1], given))
    return out


# --- Field's constraints -------------------------------------------------------------------------

#: ``Field``'s constraints a world can give, by the kinds they apply to, in the order pydantic
#: checks them (the first that fails is the one error reported)
CONSTRAINTS = {"integer": ("multiple_of", "le", "lt", "ge", "gt"), "number": ("multiple_of", "le", "lt", "ge", "gt"),
               "string": ("min_length", "max_length", "pattern"), "list": ("min_length", "max_length")}
#: their JSON Schema keywords (a list's lengths count items)
_SCHEMA_KEYWORDS = {flag: {"multiple_of": "multipleOf", "le": "maximum", "lt": "exclusiveMaximum", "ge": "minimum",
                           "gt": "exclusiveMinimum", "pattern": "pattern",
                           "min_length": "minItems" if flag else "minLength",
                           "max_length": "maxItems" if flag else "maxLength"} for flag in (False, True)}
_BOUNDS = {"le": ("less_than_equal", "less than or equal to", lambda v, b: v <= b),
           "lt": ("less_than", "less than", lambda v, b: v < b),
           "ge": ("greater_than_equal", "greater than or equal to", lambda v, b: v >= b),
           "gt": ("greater_than", "greater than", lambda v, b: v > b)}


def rust_number(value: int | float) -> str:
    """A bound as pydantic-core's messages write it (Rust's ``Display``: no exponent, no ``.0``)."""
    if isinstance(value, int):
        return str(value)
    text = format(Decimal(repr(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def constraint_problem(kind: str, constraints: tuple[tuple[str, Any], ...], value: Any) -> tuple[str, str] | None:
    """(error type, message) for the first of ``constraints`` a validated ``value`` breaks, else None."""
    given = dict(constraints)
    for key in CONSTRAINTS[kind]:
        if key not in given:
            continue
        bound = given[key]
        if key == "multiple_of":
            if not _multiple(value, bound):
                return "multiple_of", f"Input should be a multiple of {rust_number(bound)}"
        elif key in _BOUNDS:
            kind_of_error, words, holds = _BOUNDS[key]
            if not holds(value, bound):
                return kind_of_error, f"Input should be {words} {rust_number(bound)}"
        elif key in ("min_length", "max_length"):
            length, least = len(value), key == "min_length"
            if (length < bound) if least else (length > bound):
                side = "least" if least else "most"
                if kind == "list":
                    return ("too_short" if least else "too_long",
                            f"List should have at {side} {_plural(bound, 'item')} after validation, not {length}")
                return ("string_too_short" if least else "string_too_long",
                        f"String should have at {side} {_plural(bound, 'character')}")
        elif not re.search(rust_pattern(bound), value):
            return "string_pattern_mismatch", f"String should match pattern '{bound}'"
    return None


def _multiple(value: int | float, of: int | float) -> bool:
    if isinstance(value, int) and isinstance(of, int):
        return value % of == 0
    # pydantic-core's float test: the remainder within a billionth of the value, at either end
    remainder = value % of
    tolerance = abs(value) / 1e9
    return abs(remainder) <= tolerance or abs(remainder - of) <= tolerance


def rust_pattern(pattern: str) -> str:
    """``pattern`` for Python's ``re`` as pydantic's Rust regex reads it: an unescaped ``$``
    outside a class matches only at the very end (``\\Z``), never before a final newline."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = char != "]" or out[-1] == "["
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        out.append(char)
        i += 1
    return "".join(out)


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
