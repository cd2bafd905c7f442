"""A declarative description of an MCP server, from which its wire answers are derived.

The SDK's ``MCPServer`` turns a Python function's signature into a tool: the parameters
become a pydantic model (``<tool>Arguments``) whose JSON Schema is the ``inputSchema``, the
return annotation becomes ``outputSchema`` (``<tool>Output`` with one ``result`` field), and
incoming arguments are validated by that model in pydantic's lax mode. This module says the
same things as data: `Tool` with typed `Param` s and a ``returns`` type, and a
behaviour that is a generator yielding *effects* (`Progress`, `AskUser`,
`AskModel`, `ReadResource`) -- the sans-IO form of the SDK's ``Context`` calls.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, NamedTuple

#: pydantic's JSON Schema type names for the Python types a tool may use.
JSON_TYPES = ("integer", "string", "number", "boolean")
#: pydantic 2.14 (the version the recordings were made with) links each error to its docs.
PYDANTIC_ERRORS_URL = "https://errors.pydantic.dev/2.14/v/"


# --- effects a behaviour yields -------------------------------------------------------------
# (Named tuples rather than frozen dataclasses: one is made for every question and progress step
# of every tool call, and a frozen dataclass sets each field through object.__setattr__.)

class Progress(NamedTuple):
    """``ctx.report_progress(progress, total)``: a notification, if the caller asked for progress."""

    progress: int | float
    total: int | float | None = None


class AskUser(NamedTuple):
    """Elicitation: a form the user fills in. ``key`` names it in a 2026-07-28 ``inputRequests``."""

    key: str
    message: str
    requested_schema: dict[str, Any]


class AskModel(NamedTuple):
    """Sampling: the client's model is asked for one message. ``key`` as for `AskUser`."""

    key: str
    text: str
    max_tokens: int


class ReadResource(NamedTuple):
    """``ctx.read_resource(uri)``: the tool reads one of the server's own resources."""

    uri: str


Effect = Progress | AskUser | AskModel | ReadResource
Behaviour = Callable[..., Generator[Effect, Any, Any]]


class ToolCrash(Exception):
    """The tool raised an ordinary exception: the SDK hides its text ("Error executing tool X")."""


class ResourceMissing(Exception):
    """A resource URI the server does not have."""

    def __init__(self, uri: str) -> None:
        super().__init__(f"Unknown resource: {uri}")
        self.uri = uri


# --- the description ------------------------------------------------------------------------

@dataclass(frozen=True)
class Param:
    name: str
    type: str  # one of JSON_TYPES

    @property
    def title(self) -> str:
        # pydantic's default field title: "max_tokens" -> "Max Tokens".
        return self.name.replace("_", " ").title()


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    params: tuple[Param, ...]
    returns: str
    behaviour: Behaviour = field(repr=False, compare=False)

    def input_schema(self) -> dict[str, Any]:
        return {
            "properties": {p.name: {"title": p.title, "type": p.type} for p in self.params},
            "required": [p.name for p in self.params],
            "title": f"{self.name}Arguments",
            "type": "object",
        }

    def output_schema(self) -> dict[str, Any]:
        return {
            "properties": {"result": {"title": "Result", "type": self.returns}},
            "required": ["result"],
            "title": f"{self.name}Output",
            "type": "object",
        }

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The arguments as the tool function receives them, or `ArgumentsRejected`."""
        return validate_arguments(f"{self.name}Arguments", self.params, arguments)


@dataclass(frozen=True)
class Resource:
    uri: str
    name: str
    description: str
    mime_type: str
    read: Callable[[], str] = field(repr=False, compare=False)


@dataclass(frozen=True)
class PromptArgument:
    name: str
    required: bool = True


@dataclass(frozen=True)
class Prompt:
    name: str
    description: str
    arguments: tuple[PromptArgument, ...]
    render: Callable[..., str] = field(repr=False, compare=False)


@dataclass(frozen=True)
class ServerDefinition:
    name: str
    version: str
    tools: tuple[Tool, ...] = ()
    resources: tuple[Resource, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    # Derived once from the above (the server looks one up for nearly every request): each name
    # or URI -> the first tool, resource or prompt that has it.
    _named: dict[tuple[str, str], Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # What a server derives from the definition once and keeps beside it (`derived`).
    _derived: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for kind, items, key in (("tool", self.tools, "name"), ("resource", self.resources, "uri"),
                                 ("prompt", self.prompts, "name")):
            for item in items:
                self._named.setdefault((kind, getattr(item, key)), item)

    def tool(self, name: str) -> Tool | None:
        return self._named.get(("tool", name))

    def resource(self, uri: str) -> Resource | None:
        return self._named.get(("resource", uri))

    def prompt(self, name: str) -> Prompt | None:
        return self._named.get(("prompt", name))

    def derived(self, key: Any, make: Callable[[], Any]) -> Any:
        """What ``make()`` derives from this definition, made the first time ``key`` is asked for
        and kept with the definition (it lives as long as the definition does, and no longer)."""
        if key not in self._derived:
            self._derived[key] = make()
        return self._derived[key]


# --- argument validation, as pydantic's lax mode does it ---------------------------------------

class ArgumentsRejected(Exception):
    """pydantic's ``ValidationError`` text for a tool's arguments."""


@dataclass(frozen=True)
class _Problem:
    field: str
    kind: str
    text: str
    value: Any


# What pydantic's lax int accepts from a string: ASCII digits, single underscores between them,
# a sign, surrounding blanks, and a fractional part of zeros only ("5.0" is 5, "5." is not).
_INT_TEXT = re.compile(r"^\s*([+-]?[0-9]+(?:_[0-9]+)*)(?:\.0+)?\s*$")


def _coerce(kind: str, value: Any) -> tuple[Any, tuple[str, str] | None]:
    """(coerced value, None) or (None, (error type, message)) for one lax-mode field."""
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
        if type(value) in (int, float) or type(value) is bool:
            return float(value) if type(value) is bool else value, None
        return None, ("float_type", "Input should be a valid number")
    if kind == "boolean":
        if type(value) is bool:
            return value, None
        return None, ("bool_type", "Input should be a valid boolean")
    raise ValueError(f"unknown parameter type {kind!r}")


def _pre_parse_json(params: tuple[Param, ...], arguments: dict[str, Any]) -> dict[str, Any]:
    # The SDK first decodes JSON text given for a non-string parameter, unless it is a scalar.
    out = arguments  # (copied only when a decoded value replaces one: nearly never)
    for p in params:
        value = arguments.get(p.name)
        if p.name in arguments and isinstance(value, str) and p.type != "string":
            try:
                decoded = json.loads(value)
            except (ValueError, RecursionError):
                continue
            if not isinstance(decoded, (str, int, float)):
                if out is arguments:
                    out = dict(arguments)
                out[p.name] = decoded
    return out


def _python_repr(value: Any) -> str:
    # pydantic prints the input as Python would (JSON values map onto Python values one to one),
    # cutting a long one down to its first 25 and last 24 characters.
    text = repr(value)
    return text if len(text) <= 50 else f"{text[:25]}...{text[-24:]}"


def validate_arguments(model: str, params: tuple[Param, ...], arguments: dict[str, Any]) -> dict[str, Any]:
    arguments = _pre_parse_json(params, arguments)
    problems: list[_Problem] = []
    out: dict[str, Any] = {}
    for p in params:
        if p.name not in arguments:
            problems.append(_Problem(p.name, "missing", "Field required", arguments))
            continue
        value, problem = _coerce(p.type, arguments[p.name])
        if problem:
            problems.append(_Problem(p.name, problem[0], problem[1], arguments[p.name]))
        else:
            out[p.name] = value
    if problems:
        count = f"{len(problems)} validation error{'s' if len(problems) > 1 else ''} for {model}"
        lines = [count]
        for pr in problems:
            lines.append(pr.field)
            lines.append(f"  {pr.text} [type={pr.kind}, input_value={_python_repr(pr.value)}, "
                         f"input_type={type(pr.value).__name__ if pr.value is not None else 'NoneType'}]")
            lines.append(f"    For further information visit {PYDANTIC_ERRORS_URL}{pr.kind}")
        raise ArgumentsRejected("\n".join(lines))
    return out
