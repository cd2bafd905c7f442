"""An MCP world file: a server described as data, read into a `ServerDefinition`.

A world file describes what a user of the SDK's ``MCPServer`` declares (``"kind": "mcp-server"``)::

    {"kind": "mcp-server", "name": N, "version": V, "instructions": TEXT?, "about": TEXT?,
     "title": TEXT?, "description": TEXT?, "website_url": URL?,
     "tools": [{"name": N, "function": IDENT?, "title": TEXT?, "description": TEXT?,
                "annotations": {"title"?, "read_only_hint"?, "destructive_hint"?, "idempotent_hint"?,
                                "open_world_hint"?}?,
                "params": [{"name": IDENT, "type": TYPE, "default": VALUE?, "description": TEXT?,
                            "title": TEXT?, "alias": TEXT?, CONSTRAINT: VALUE, ...}, ...],
                "returns": TYPE?, "steps": [STEP, ...]?,
                "cases": [{"when": EXPR, "result": EXPR | "tool_error": EXPR | "crash": EXPR}, ...]?,
                "result": EXPR | "tool_error": EXPR | "crash": EXPR}],
     "resources": [{"uri": U, "name": N, "title": TEXT?, "description": TEXT?, "mime_type": M?,
                    "text": TEXT | EXPR | "blob": BASE64}],
     "templates": [{"uri_template": "scheme://{var}/...", "name": N, "title": TEXT?, "description": TEXT?,
                    "mime_type": M?, "cases": [CASE, ...]?, "text": EXPR}],
     "prompts": [{"name": N, "title": TEXT?, "description": TEXT?, "arguments": [{"name": IDENT, "required": BOOL?, "description": TEXT?}],
                  "text": EXPR | "messages": [{"role": "user" | "assistant", "text": EXPR}, ...]}],
     "completions": [{"prompt": N | "template": URI_TEMPLATE, "argument": NAME, "values": [TEXT, ...]}]?,
     "store": {NAME: VALUE, ...}?, "subscriptions": false?}

A tool, resource or template may give ``"icons": [ICON, ...]`` and ``"meta": {...}`` (``icons=`` and
``meta=``: its listing's ``icons`` and ``_meta``, a read's contents its ``_meta`` too), a prompt and
the server ``icons``; an ICON is ``{"src": URL, "mime_type": M?, "sizes": [TEXT, ...]?, "theme":
"light" | "dark"?}`` (``types.Icon``).

``store`` is the data the server's process starts with (module-level ``STORE`` in the program):
every tool, resource and prompt reads it (``{"$store": NAME}``) and tools write it (the steps
``set``, ``delete`` and ``append``). It lives as long as the process: over stdio a session's
server is its own; over HTTP every session and request of one server shares it. A resource's
``text`` may then be an expression of the store, made at each read (its failure is the SDK's
``Error reading resource URI``). ``subscriptions: false`` is ``MCPServer(subscriptions=False)``:
no ``subscriptions/listen`` (-32601), and ``server/discover`` says no change is announced.

``completions`` is an ``@mcp.completion()`` handler (the server then answers
``completion/complete`` and says so in its capabilities): for the prompt's or template's
argument, the values that start with what the client typed, in order; for any other, none.

A parameter (or a model's field) with a description, a title or a CONSTRAINT is
``Annotated[TYPE, Field(...)]`` with those arguments; the constraints are pydantic's:
``ge``, ``gt``, ``le``, ``lt`` and ``multiple_of`` for an integer or a number, ``min_length``,
``max_length`` and ``pattern`` for a string, ``min_length`` and ``max_length`` for a list. They
are in the schema (``minimum``, ``exclusiveMaximum``, ``minItems``, ...) and refused with
pydantic's own words; a pattern is read as pydantic's Rust engine reads it (no look-around or
back-reference, and here no repeat inside a repeat). An ``alias`` is the field's name in JSON
(``from`` for a field ``from_``): in the schema, and in what validation reads and says; a tool
whose parameter has one crashes on every valid call, as ``MCPServer`` passes each argument by
that name, a keyword its function does not take. A prompt argument may have a description.

A template's ``cases`` (``{"when": EXPR, "not_found": EXPR | "resource_error": EXPR}``, of
its variables) refuse a read as its function raising the SDK's ``ResourceNotFoundError``
(-32602) or ``ResourceError`` (-32603) with that message would; a tool reading it fails with the
message. Any other exception of its text is a crash, whose message names only the URI. A
template's or a resource's text that is not a text when made (an object, a number) is read as the
SDK writes what a function returns: JSON, indented by two.

A template's ``{var}`` (simple expansions only) matches up to the next ``/?#&,`` and is
percent-decoded; a value that climbs out of its path (``..``) or is absolute is refused, as the
SDK's default resource security refuses it.

TYPE is ``"integer"``, ``"number"``, ``"string"``, ``"boolean"``, ``{"enum": [TEXT, ...]}``,
``{"list": TYPE}``, ``{"dict": TYPE | "any"}`` (``dict[str, TYPE]``, ``dict[str, Any]``), ``{"optional": TYPE}`` (``TYPE | None``, default ``None``) or
``{"object": NAME, "fields": [param, ...], "description": TEXT?}`` (a pydantic model, its
docstring the description) or ``{"typed_dict": NAME, "fields": [...], "description": TEXT?}`` (a
``TypedDict``: its fields have no default, one with ``"required": false`` is ``NotRequired``); a return may also be ``"null"``
or ``"object"`` (a plain ``dict``: no output schema), or ``"content"``: content blocks
(``list[ContentBlock]``, no output schema), the result a block or a list of blocks as the wire
writes them: ``{"type": "text", "text": T}``, ``{"type": "image" | "audio", "data": BASE64,
"mimeType": M}``, ``{"type": "resource_link", "uri": U, "name": N, "title"?, "description"?,
"mimeType"?, "size"?}``, ``{"type": "resource", "resource": {"uri": U, "mimeType"?, "text" |
"blob"}}``, each with ``"annotations"``: ``{"audience"?: ["user" | "assistant"], "priority"?:
0..1, "lastModified"?: TEXT}`` if it likes. A block the SDK's types refuse crashes the tool.

A STEP is one ``Context`` call: ``{"progress": EXPR, "total": EXPR?, "message": EXPR?}``,
``{"for": IDENT, "from": EXPR, "to": EXPR, "do": [STEP, ...]}`` (both ends included),
``{"ask_user": KEY, "message": EXPR, "schema": {...}}`` (elicitation; the answer is named KEY),
``{"elicit": KEY, "message": EXPR, "schema": {"object": NAME, "fields": [...]}}`` (``ctx.elicit``
with a model of plain fields: asked with the model's schema in the handshake era, the outcome
named KEY as its JSON, ``{"action", "data"?}``, an accepted answer the model refuses, or none, the
tool crashing; 2026-07-28 has no channel for the request, and the call ends with the SDK's -32600),
``{"ask_model": KEY, "text": EXPR, "max_tokens": N}`` (sampling) and
``{"read": EXPR, "as": KEY}`` (a resource of the server's own, as text) and
``{"log": LEVEL, "message": EXPR}`` (``ctx.log``: sent in the handshake era, and in 2026-07-28
when the request opted in at that level or below) and ``{"wait": "forever"}`` (the call is never
answered: only the client's read timeout, or its cancellation, ends it);
``{"if": EXPR, "then": [STEP, ...], "else": [STEP, ...]?}`` (what a branch names stays in it);
``{"set": NAME, "to": EXPR}`` (``STORE[NAME] = ...``), ``{"set": NAME, "key": EXPR, "to": EXPR}``
(``STORE[NAME][key] = ...``), ``{"delete": NAME, "key": EXPR}`` and ``{"append": NAME, "value":
EXPR}`` (the store's entry NAME, one the world declares; what Python raises is the tool crashing);
``{"notify": "tools_changed" | "prompts_changed" | "resources_changed" | "resource_updated",
"uri": EXPR?}`` (``ctx.notify_...``: an event for the listen streams of 2026-07-28 that asked for
it, said on each before the call's result; the handshake era has none. The SDK's listen streams
are tasks of their own: a stream's first event of a call comes before the result, a second one may
come after it, as the tasks happen to run, so a session that is to be the same every time keeps
to one event a stream per call) and ``{"send":
"tool_list_changed" | "prompt_list_changed" | "resource_list_changed" | "resource_updated",
"uri": EXPR?}`` (``ctx.session.send_...``: the notification on the connection's own channel,
stdout or the HTTP session's GET stream, in the handshake era; 2026-07-28 drops it); ``uri``
with ``resource_updated`` only; ``{"add_resource": EXPR, "name": EXPR?, "text": EXPR,
"description": EXPR?, "mime_type": M?}`` (``mcp.add_resource(TextResource(uri=..., ...))``: the
process lists and serves it from then on, after the declared ones; one of a URI it has already is
dropped, an empty name is the URI, and a value of another type than text is the tool crashing).

A call ends with the first of its ``cases`` whose ``when`` holds (Python's truth), else with
the tool's own end: ``result`` returns the value, ``tool_error`` raises the SDK's ``ToolError``
with that text (shown to the client), ``crash`` raises an ordinary exception (hidden); none
returns ``None``.

An EXPR is JSON data, or one operator: ``{"$": "name.field.field"}`` (a parameter, loop variable
or answer; a missing field is null), ``{"$store": NAME}`` (the store's entry, itself: what is
written to it later shows), ``{"$format": "text {name}"}`` (Python's ``str.format``
with plain names only), ``$and``, ``$or`` (operands' truth), ``$if`` ([condition, then, else]),
or one of Python's operators, built-ins and methods, applied exactly as Python applies them
(the table `_OPS`): with one operand ``{"$op": x}``: ``$not``, ``$neg``, ``$abs``, ``$len``,
``$str``, ``$int``, ``$float``, ``$bool``, ``$upper``, ``$lower``, ``$strip``, ``$title``,
``$keys`` (``list(x)``), ``$sum``, ``$min``, ``$max``, ``$any``, ``$all``, ``$sorted``; with two
``{"$op": [x, y]}``: ``$add``, ``$sub``, ``$mul``, ``$div`` (``/``), ``$floordiv`` (``//``),
``$mod`` (``%``, of numbers), ``$round`` (``round(x, y)``), ``$eq``, ``$ne``, ``$lt``, ``$le``,
``$gt``, ``$ge``, ``$in`` (``x in y``), ``$index`` (``x[y]``), ``$startswith``, ``$endswith``,
``$split`` (``x.split(y)``), ``$join`` (``x.join(y)``); with three: ``$slice`` (``x[y:z]``),
``$replace`` (``x.replace(y, z)``). There is no other code: a world file may come from anyone,
and what would grow past `MAX_REPEAT` items is declined by name.

Everything here is checked when the file is read, with the JSON path of the first problem; what
an expression does at run time is Python's, exactly as in the program the SDK side runs
(``conformance/mcp_world.py``), and an exception there is the tool crashing.
"""
from __future__ import annotations

import base64
import binascii
import inspect
import json
import keyword
import math
import operator
import re
import string
from re import _parser as sre_parse  # (the stdlib's own parser of patterns: there is no public one)
from typing import Any, Callable, Generator

from ...errors import InputError
from ...jsonio import json_path
from ...schema import Field, check_object, describe
from .annotations import CONSTRAINTS, ELICITABLE, MISSING, SCALARS, Kind, Param, elicitation_schema, validate
from .methods import LOG_LEVELS_IN_ORDER as LOG_LEVELS
from .definition import (
    EVENTS,
    SENT,
    STORE_KEY,
    AddResource,
    AskModel,
    AskUser,
    Completion,
    Effect,
    Extras,
    Log,
    Notify,
    Progress,
    Prompt,
    PromptArgument,
    ReadResource,
    Resource,
    ResourceFailed,
    ResourceMissing,
    ResourceTemplate,
    Send,
    ServerDefinition,
    TemplateFailed,
    TemplateRefused,
    Tool,
    ToolCrash,
    ToolFailed,
    Wait,
    resource_text,
)

KIND = "mcp-server"
_ANY = (str, int, float, bool, dict, list, type(None))  # any JSON value
#: how many tools, resources or prompts a world may declare, and fields a model may have
MAX_ITEMS = 1000
#: steps one tool call may take (a loop's turns count): past it, the engine says it does not model it
MAX_STEPS = 10_000
#: names the program the SDK side runs defines itself (`conformance/mcp_world.py`)
RESERVED = frozenset({"mcp", "types", "base64", "warnings", "Literal", "BaseModel", "MCPServer", "Context",
                      "ToolError", "STATELESS_REVISION", "anyio", "Annotated", "Field", "TypeAdapter",
                      "ResourceError", "ResourceNotFoundError", "STORE", "Any",
                      "TypedDict", "NotRequired", "TextResource"})

_CONSTRAINT_KEYS = frozenset(key for keys in CONSTRAINTS.values() for key in keys)
_WORLD_FIELDS = {"kind": Field(str, choices=(KIND,)), "name": Field(str), "version": Field(str),
                 "title": Field(str, required=False), "description": Field(str, required=False),
                 "website_url": Field(str, required=False),
                 "instructions": Field(str, required=False), "about": Field(str, required=False),
                 "tools": Field(list, required=False), "resources": Field(list, required=False),
                 "templates": Field(list, required=False), "prompts": Field(list, required=False),
                 "completions": Field(list, required=False), "store": Field(dict, required=False),
                 "subscriptions": Field(bool, required=False), "icons": Field(list, required=False)}
#: the most a store's initial data may hold, written as JSON (it is copied for each server process)
MAX_STORE_TEXT = 1_000_000
_COMPLETION_FIELDS = {"prompt": Field(str, required=False), "template": Field(str, required=False),
                      "argument": Field(str), "values": Field(list)}
#: the most values a completion may hold (the SDK's ``Completion`` refuses more)
MAX_COMPLETION_VALUES = 100
#: ``types.Icon``: the world's names -> the wire's
_ICON_KEYS = {"src": "src", "mime_type": "mimeType", "sizes": "sizes", "theme": "theme"}
_ICON_FIELDS = {"src": Field(str), "mime_type": Field(str, required=False), "sizes": Field(list, required=False),
                "theme": Field(str, choices=("light", "dark"), required=False)}
#: what a tool, resource or template may carry into its listing beside its own fields
_EXTRA_FIELDS = {"icons": Field(list, required=False), "meta": Field(dict, required=False)}
_TOOL_FIELDS = _EXTRA_FIELDS | {"name": Field(str), "function": Field(str, required=False), "description": Field(str, required=False),
                "title": Field(str, required=False), "annotations": Field(dict, required=False),
                "params": Field(list, required=False), "returns": Field((str, dict), required=False),
                "steps": Field(list, required=False), "cases": Field(list, required=False),
                "result": Field(_ANY, required=False), "tool_error": Field(_ANY, required=False),
                "crash": Field(_ANY, required=False)}
#: the ways a tool's call ends, and a case's (``{"when": EXPR, END: EXPR}``)
_ENDS = ("result", "tool_error", "crash")
_CASE_FIELDS = {"when": Field(_ANY)} | {end: Field(_ANY, required=False) for end in _ENDS}
_TYPED_FIELD = {"required": Field(bool, required=False)}  # (a TypedDict's field only)
_PARAM_FIELDS = {"name": Field(str), "type": Field((str, dict)), "default": Field(_ANY, required=False),
                 "description": Field(str, required=False), "title": Field(str, required=False),
                 "alias": Field(str, required=False),
                 **{key: Field((int, float, str), required=False) for keys in CONSTRAINTS.values() for key in keys}}
#: ``ToolAnnotations``: the world's names -> the wire's, in the type's field order
_ANNOTATIONS = {"title": "title", "read_only_hint": "readOnlyHint", "destructive_hint": "destructiveHint",
                "idempotent_hint": "idempotentHint", "open_world_hint": "openWorldHint"}
_ANNOTATION_FIELDS = {key: Field(str if key == "title" else bool, required=False) for key in _ANNOTATIONS}
_RESOURCE_FIELDS = _EXTRA_FIELDS | {"uri": Field(str), "name": Field(str), "title": Field(str, required=False),
                    "description": Field(str, required=False),
                    "mime_type": Field(str, required=False), "text": Field(_ANY, required=False),
                    "blob": Field(str, required=False)}
_TEMPLATE_FIELDS = _EXTRA_FIELDS | {"uri_template": Field(str), "name": Field(str), "title": Field(str, required=False),
                    "description": Field(str, required=False),
                    "mime_type": Field(str, required=False), "text": Field(_ANY), "cases": Field(list, required=False)}
#: how a template's case refuses a read: the SDK's ``ResourceNotFoundError`` or ``ResourceError``
_TEMPLATE_ENDS = ("not_found", "resource_error")
_TEMPLATE_CASE_FIELDS = {"when": Field(_ANY)} | {end: Field(_ANY, required=False) for end in _TEMPLATE_ENDS}
_PROMPT_FIELDS = {"icons": Field(list, required=False), "name": Field(str), "title": Field(str, required=False), "description": Field(str, required=False),
                  "arguments": Field(list, required=False), "text": Field(_ANY, required=False),
                  "messages": Field(list, required=False)}
_MESSAGE_FIELDS = {"role": Field(str, choices=("user", "assistant")), "text": Field(_ANY)}
#: a template's simple expansion ``{var}``; the SDK's value stops at a structural character
_EXPANSION = re.compile(r"\{([^{}]*)\}")
_STOPS = "/?#&,"
_ARGUMENT_FIELDS = {"name": Field(str), "required": Field(bool, required=False),
                    "description": Field(str, required=False)}
_STEP_FIELDS = {
    "progress": {"progress": Field(_ANY), "total": Field(_ANY, required=False),
                 "message": Field(_ANY, required=False)},
    "for": {"for": Field(str), "from": Field(_ANY), "to": Field(_ANY), "do": Field(list)},
    "if": {"if": Field(_ANY), "then": Field(list), "else": Field(list, required=False)},
    "ask_user": {"ask_user": Field(str), "message": Field(_ANY), "schema": Field(dict)},
    "elicit": {"elicit": Field(str), "message": Field(_ANY), "schema": Field(dict)},
    "ask_model": {"ask_model": Field(str), "text": Field(_ANY), "max_tokens": Field(int)},
    "read": {"read": Field(_ANY), "as": Field(str)},
    "log": {"log": Field(str, choices=LOG_LEVELS), "message": Field(_ANY)},
    "wait": {"wait": Field(str, choices=("forever",))},
    "set": {"set": Field(str), "key": Field(_ANY, required=False), "to": Field(_ANY)},
    "delete": {"delete": Field(str), "key": Field(_ANY)},
    "append": {"append": Field(str), "value": Field(_ANY)},
    "notify": {"notify": Field(str, choices=tuple(EVENTS)), "uri": Field(_ANY, required=False)},
    "send": {"send": Field(str, choices=tuple(SENT)), "uri": Field(_ANY, required=False)},
    "add_resource": {"add_resource": Field(_ANY), "name": Field(_ANY, required=False), "text": Field(_ANY),
                     "description": Field(_ANY, required=False), "mime_type": Field(str, required=False)},
}
#: each step's members that are expressions (the others are names, numbers and schemas)
_STEP_EXPRESSIONS = {"progress": ("progress", "total", "message"), "ask_user": ("message",), "elicit": ("message",), "ask_model": ("text",),
                     "read": ("read",), "log": ("message",), "wait": (), "set": ("key", "to"),
                     "delete": ("key",), "append": ("value",), "notify": ("uri",), "send": ("uri",),
                     "add_resource": ("add_resource", "name", "text", "description")}
#: the steps that write the store, each naming the store's entry it writes
_WRITES = ("set", "delete", "append")
#: how ``names`` (the names an expression may read) holds the store's entries: ``$store:NAME``
#: (no parameter or answer can be named so)
_STORE = "$store:"


Path = list[str | int]


def _problem(text: str, path: Path) -> InputError:
    return InputError(text, path=json_path(path))


def _identifier(value: Any, path: Path, what: str) -> str:
    if not (type(value) is str and value.isascii() and value.isidentifier() and not keyword.iskeyword(value)
            and not value.startswith("_") and value != "ctx"):
        raise _problem(f"{what} must be a Python identifier (ASCII letters, digits and _, not starting with _, "
                       f"not a keyword, not 'ctx'), not {value!r}", path)
    return value


def _items(raw: dict[str, Any], key: str, path: Path) -> list[Any]:
    items = raw.get(key, [])
    if len(items) > MAX_ITEMS:
        raise _problem(f"{len(items):,} {key}, over the limit of {MAX_ITEMS:,}", path + [key])
    return items


# --- types ------------------------------------------------------------------------------------

class _Types:
    """Reads TYPEs; a model name means one model (the same fields wherever it is used)."""

    def __init__(self) -> None:
        self.models: dict[str, Kind] = {}

    def read(self, raw: Any, path: Path, returns: bool = False) -> Kind:
        if type(raw) is str:
            if raw in SCALARS or (returns and raw == "null"):
                return Kind(raw)
            if returns and raw == "object":
                return Kind("dict")
            if returns and raw == "content":
                return Kind("content")
            known = ", ".join(SCALARS + (("null", "object", "content") if returns else ()))
            raise _problem(f"unknown type {raw!r} (known: {known}, or an object with enum, list, optional or "
                           f"object)", path)
        if type(raw) is not dict or len(raw) != 1 and "object" not in raw and "typed_dict" not in raw:
            raise _problem(f"a type is a name or an object with one of enum, list, dict, optional, object, not "
                           f"{describe(raw)}", path)
        if "enum" in raw:
            values = raw["enum"]
            if type(values) is not list or not values or not all(type(v) is str for v in values):
                raise _problem("an enum is a non-empty list of strings", path + ["enum"])
            return Kind("enum", values=tuple(values))
        if "list" in raw:
            return Kind("list", of=self.read(raw["list"], path + ["list"]))
        if "dict" in raw:  # (``"any"``: ``dict[str, Any]``, values as they come)
            return Kind("mapping", of=None if raw["dict"] == "any" else self.read(raw["dict"], path + ["dict"]))
        if "optional" in raw:
            inner = self.read(raw["optional"], path + ["optional"])
            if inner.name == "optional":
                raise _problem("an optional of an optional", path + ["optional"])
            return Kind("optional", of=inner)
        if "object" in raw or "typed_dict" in raw:
            return self._model(raw, path)
        raise _problem(f"unknown type {sorted(raw)!r} (known: enum, list, dict, optional, object, typed_dict)", path)

    def _model(self, raw: dict[str, Any], path: Path) -> Kind:
        typed = "typed_dict" in raw
        head = "typed_dict" if typed else "object"
        check_object(raw, {head: Field(str), "fields": Field(list, required=False),
                           "description": Field(str, required=False)}, path, "an object type")
        name = raw[head]
        if not (name.isascii() and name.isidentifier() and not keyword.iskeyword(name)) or name in RESERVED:
            raise _problem(f"a model name must be a Python identifier the program does not use itself, not "
                           f"{name!r}", path + [head])
        description = raw.get("description")
        if description is not None and not inspect.cleandoc(description):
            raise _problem("a model's description (its docstring) says something", path + ["description"])
        if "fields" not in raw:
            raise _problem(f"the model {name!r} is named without its fields: a model refers to no other by name "
                           f"(recursive and forward references are not modelled)", path)
        if name in self.models and self.models[name] is None:  # type: ignore[comparison-overlap]
            raise _problem(f"the model {name!r} contains itself: recursive models are not modelled", path)
        self.models.setdefault(name, None)  # type: ignore[arg-type]  (being read)
        fields = tuple(_param(f, path + ["fields", i], self, typed) for i, f in enumerate(_items(raw, "fields", path)))
        _no_repeats([f.name for f in fields], path + ["fields"], "field")
        kind = Kind("model", model=name, fields=fields, typed=typed,
                    description=None if description is None else inspect.cleandoc(description))
        if self.models[name] is not None and self.models[name] != kind:
            raise _problem(f"the model {name!r} is declared twice with different fields", path)
        self.models[name] = kind
        return kind


def _param(raw: Any, path: Path, types: _Types, typed: bool = False) -> Param:
    """A parameter, or a model's field (``typed``: a ``TypedDict``'s, which has no default and may
    be ``"required": false``, ``NotRequired``)."""
    check_object(raw, _PARAM_FIELDS | (_TYPED_FIELD if typed else {}), path, "a parameter")
    if typed and "default" in raw:
        raise _problem("a TypedDict's field has no default (give \"required\": false to let it be left out)",
                       path + ["default"])
    name = _identifier(raw["name"], path + ["name"], "a parameter name")
    kind = types.read(raw["type"], path + ["type"])
    constraints = _constraints(raw, kind, path)
    if "alias" in raw and not raw["alias"]:
        raise _problem("an alias is a name, not empty", path + ["alias"])
    return Param(name, kind, raw.get("default", MISSING), none_default=not typed, description=raw.get("description"),
                 given_title=raw.get("title"), constraints=constraints, alias=raw.get("alias"),
                 may_be_absent=raw.get("required") is False)


#: the longest pattern a world may give (it is compiled for every reader of the world)
MAX_PATTERN = 1000


def _constraints(raw: dict[str, Any], kind: Kind, path: Path) -> tuple[tuple[str, Any], ...]:
    """``Field``'s constraints as given (in the file's order, as the program passes them), each
    checked against the parameter's type: what pydantic would refuse to build is refused here."""
    given = [key for key in raw if key in _CONSTRAINT_KEYS]
    if not given:
        return ()
    allowed = CONSTRAINTS.get(kind.name, ())
    for key in given:
        value, where = raw[key], path + [key]
        if key not in allowed:
            kinds = [k for k, keys in CONSTRAINTS.items() if key in keys]
            raise _problem(f"{key} constrains a parameter of type {' or '.join(kinds)}, not {kind.name}", where)
        if key == "pattern":
            if type(value) is not str or len(value) > MAX_PATTERN:
                raise _problem(f"a pattern is a string of at most {MAX_PATTERN:,} characters", where)
            _check_pattern(value, where)
        elif key in ("min_length", "max_length"):
            if type(value) is not int or value < 0:
                raise _problem(f"{key} is a whole number, 0 or more", where)
        elif kind.name == "integer" and type(value) is not int:
            raise _problem(f"{key} of an integer is a whole number, not {describe(value)}", where)
        elif type(value) not in (int, float) or not math.isfinite(value):
            raise _problem(f"{key} is a finite number, not {describe(value)}", where)
        elif key == "multiple_of" and value <= 0:
            raise _problem("multiple_of is above 0", where)
    return tuple((key, raw[key]) for key in given)


def _check_pattern(pattern: str, where: Path) -> None:
    """A pattern both regex engines read alike, and that Python's matches in bounded time: no
    look-around or back-reference (pydantic's Rust engine has none), no repeat inside a repeat."""
    try:
        parsed = sre_parse.parse(pattern)
    except re.error as exc:
        raise _problem(f"not a regular expression: {exc}", where) from None

    def walk(items: Any, repeated: bool) -> None:
        for op, arg in items:
            name = str(op)
            if name in ("ASSERT", "ASSERT_NOT", "GROUPREF", "GROUPREF_EXISTS"):
                raise _problem("look-around and back-references are not modelled (pydantic's Rust regex "
                               "engine has neither)", where)
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                if repeated and arg[1] > 1:
                    raise _problem("a repeat inside a repeat is not modelled (its matching time can grow "
                                   "without bound)", where)
                walk(arg[2], repeated or arg[1] > 1)  # (an optional part, ``(...)?``, repeats nothing)
            elif name == "SUBPATTERN":
                walk(arg[3], repeated)
            elif name == "BRANCH":
                for branch in arg[1]:
                    walk(branch, repeated)
    walk(parsed, False)


def _extras(raw: dict[str, Any], path: Path) -> Extras:
    """A declaration's ``icons`` and ``meta`` as its listing carries them (``icons``, ``_meta``),
    each as JSON text (a declaration is hashable)."""
    out = []
    if "icons" in raw:
        icons = []
        for i, icon in enumerate(_items(raw, "icons", path)):
            check_object(icon, _ICON_FIELDS, path + ["icons", i], "an icon")
            if not all(type(size) is str for size in icon.get("sizes", [])):
                raise _problem("an icon's sizes are texts (\"48x48\", \"any\")", path + ["icons", i, "sizes"])
            icons.append({_ICON_KEYS[key]: icon[key] for key in _ICON_KEYS if key in icon})
        out.append(("icons", json.dumps(icons)))
    if "meta" in raw:
        out.append(("_meta", json.dumps(raw["meta"])))
    return tuple(out)


def _no_repeats(names: list[str], path: Path, what: str) -> None:
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise _problem(f"two of them are named {name!r}", path + [i])
        seen.add(name)


# --- expressions --------------------------------------------------------------------------------

def _check_expr(raw: Any, names: set[str], path: Path) -> None:
    """Every name an expression reads is known where it stands; every operator is one we know."""
    if type(raw) is list:
        for i, item in enumerate(raw):
            _check_expr(item, names, path + [i])
        return
    if type(raw) is not dict:
        return
    ops = [k for k in raw if k.startswith("$")]
    if not ops:
        for key, value in raw.items():
            _check_expr(value, names, path + [key])
        return
    if len(raw) != 1:
        raise _problem("an operator stands alone in its object", path)
    op, arg = ops[0], raw[ops[0]]
    where = path + [op]
    if op not in _OPERATORS:
        raise _problem(f"unknown operator {op!r} (known: {', '.join(sorted(_OPERATORS))})", where)
    if op == "$":
        if type(arg) is not str:
            raise _problem(f"a name is a string, not {describe(arg)}", where)
        head = arg.split(".")[0]
        if head not in names:
            raise _problem(f"{head!r} names nothing here (known: {_known(names)})", where)
    elif op == "$format":
        if type(arg) is not str:
            raise _problem(f"a template is a string, not {describe(arg)}", where)
        try:
            fields = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(arg)
                      if name is not None]
        except ValueError as exc:
            raise _problem(f"not a template: {exc}", where) from None
        for name, spec, conversion in fields:
            if spec or conversion or name not in names:
                raise _problem(f"{{{name}}} is not a plain name known here (known: "
                               f"{_known(names)}; no format specs or conversions)", where)
    elif op == "$store":
        if type(arg) is not str or _STORE + arg not in names:
            raise _not_stored(arg, names, where)
    elif op in _ARITY or op == "$if":
        count = 3 if op == "$if" else _ARITY[op]
        if count == 1:
            _check_expr(arg, names, where)
            return
        if type(arg) is not list or len(arg) != count:
            raise _problem(f"{op} takes a list of {count} expressions", where)
        _check_expr(arg, names, where)
    elif op in ("$and", "$or"):
        if type(arg) is not list or not arg:
            raise _problem(f"{op} takes a non-empty list of expressions", where)
        _check_expr(arg, names, where)


def _not_stored(name: Any, names: set[str], where: Path, more: str = "") -> InputError:
    stored = sorted(n[len(_STORE):] for n in names if n.startswith(_STORE))
    return _problem(f"{name!r} is not in the world's store (it holds: {', '.join(stored) or 'nothing'}{more})", where)


def _known(names: set[str]) -> str:
    """The names an expression may read with ``$`` (the store's entries are read with ``$store``)."""
    return ", ".join(sorted(n for n in names if not n.startswith("$"))) or "nothing"


Expr = Callable[[dict[str, Any]], Any]

#: the longest text or list an operator may make (``$mul``'s repeats, ``$join``, ``$replace``): the
#: SDK would make it; the engine declines, saying so
MAX_REPEAT = 100_000


def _beyond(what: str) -> BeyondLimit:
    return BeyondLimit(f"{what} more than {MAX_REPEAT:,} items")


def _multiply(left: Any, right: Any) -> Any:
    sequence, count = (left, right) if isinstance(left, (str, list)) else (right, left)
    if isinstance(sequence, (str, list)) and type(count) is int and len(sequence) * count > MAX_REPEAT:
        raise _beyond("a $mul that repeats a value into")
    return left * right


def _modulo(left: Any, right: Any) -> Any:
    if isinstance(left, str):  # printf-style formatting, whose widths have no bound
        raise BeyondLimit("a $mod of a text (printf-style formatting) is not modelled")
    return left % right


def _join(separator: Any, items: Any) -> Any:
    if isinstance(separator, str) and isinstance(items, list) and len(separator) * len(items) > MAX_REPEAT:
        raise _beyond("a $join that makes")
    return separator.join(items)


def _replace(text: Any, old: Any, new: Any) -> Any:
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str) and (
            (text.count(old) if old else len(text) + 1) * len(new) > MAX_REPEAT):
        raise _beyond("a $replace that makes")
    return text.replace(old, new)


def _index(value: Any, index: Any) -> Any:
    return value[index]


def _slice(value: Any, start: Any, stop: Any) -> Any:
    return value[start:stop]


#: The operators of an expression, each Python's own operator, built-in or method, applied as
#: the SDK program writes it (``conformance/mcp_world.py`` keeps the same table as source text):
#: ``{"$op": x}`` for one operand, ``{"$op": [x, y, ...]}`` for more. The value, and the
#: exception, are the ones Python gives.
_OPS: dict[str, Callable[..., Any]] = {
    # one operand
    "$not": operator.not_, "$len": len, "$str": str, "$neg": operator.neg, "$abs": abs,
    "$int": int, "$float": float, "$bool": bool,
    "$upper": lambda x: x.upper(), "$lower": lambda x: x.lower(), "$strip": lambda x: x.strip(),
    "$title": lambda x: x.title(), "$keys": lambda x: list(x), "$sum": sum, "$sorted": sorted,
    "$min": min, "$max": max, "$any": any, "$all": all,
    # two
    "$add": operator.add, "$sub": operator.sub, "$mul": _multiply, "$div": operator.truediv,
    "$floordiv": operator.floordiv, "$mod": _modulo, "$round": round,
    "$eq": operator.eq, "$ne": operator.ne, "$lt": operator.lt, "$le": operator.le, "$gt": operator.gt,
    "$ge": operator.ge, "$in": lambda x, y: x in y, "$index": _index,
    "$startswith": lambda x, y: x.startswith(y), "$endswith": lambda x, y: x.endswith(y),
    "$split": lambda x, y: x.split(y), "$join": _join,
    # three
    "$slice": _slice, "$replace": _replace,
}
#: each operator's number of operands (one: the operand itself, not in a list)
_ARITY = {op: 1 for op in ("$not", "$len", "$str", "$neg", "$abs", "$int", "$float", "$bool", "$upper", "$lower",
                            "$strip", "$title", "$keys", "$sum", "$sorted", "$min", "$max", "$any", "$all")}
_ARITY |= {op: 3 for op in ("$slice", "$replace")}
_ARITY |= {op: 2 for op in _OPS if op not in _ARITY}
_OPERATORS = set(_OPS) | {"$", "$format", "$and", "$or", "$if", "$store"}


def compile_expr(raw: Any) -> Expr:
    """A checked expression as a function of the names known (made once, when the world is read);
    its value is what the Python the SDK side runs gives, and Python's exceptions are the tool's own."""
    if type(raw) is list:
        items = [compile_expr(item) for item in raw]
        return lambda names: [item(names) for item in items]
    if type(raw) is not dict:
        return lambda names: raw  # (a scalar: nothing to copy)
    ops = [k for k in raw if k.startswith("$")]
    if not ops:
        members = [(key, compile_expr(value)) for key, value in raw.items()]
        return lambda names: {key: member(names) for key, member in members}
    op, arg = ops[0], raw[ops[0]]
    if op == "$":
        head, *fields = arg.split(".")
        if not fields:
            return lambda names: names[head]

        def get(names: dict[str, Any]) -> Any:
            value = names[head]
            for key in fields:
                value = value.get(key) if isinstance(value, dict) else None
            return value
        return get
    if op == "$format":
        return lambda names: arg.format_map(names)
    if op == "$store":  # (the server's store travels with the names, under a key no name can take)
        return lambda names: names[STORE_KEY][arg]
    if op == "$if":
        cond, then, other = (compile_expr(a) for a in arg)
        return lambda names: then(names) if cond(names) else other(names)
    if op in ("$and", "$or"):  # (each operand's truth, in order, stopping at the first that decides)
        parts = [compile_expr(a) for a in arg]
        if op == "$and":
            return lambda names: all(bool(part(names)) for part in parts)
        return lambda names: any(bool(part(names)) for part in parts)
    function = _OPS[op]
    if _ARITY[op] == 1:
        inner = compile_expr(arg)
        return lambda names: function(inner(names))
    if _ARITY[op] == 2:
        left, right = (compile_expr(a) for a in arg)
        return lambda names: function(left(names), right(names))
    first, second, third = (compile_expr(a) for a in arg)
    return lambda names: function(first(names), second(names), third(names))


# --- steps ------------------------------------------------------------------------------------------

def _check_steps(raw: list[Any], names: set[str], path: Path, types: _Types | None = None) -> set[str]:
    """Check steps in order; the names known after them (answers are named as they are asked)."""
    for i, step in enumerate(raw):
        where = path + [i]
        if type(step) is not dict:
            raise _problem(f"a step is an object, not {describe(step)}", where)
        kinds = [k for k in _STEP_FIELDS if k in step]
        if len(kinds) != 1:
            raise _problem(f"a step is one of {', '.join(_STEP_FIELDS)}", where)
        kind = kinds[0]
        check_object(step, _STEP_FIELDS[kind], where, f"a {kind} step")
        if kind == "for":
            var = _identifier(step["for"], where + ["for"], "a loop variable")
            _check_expr(step["from"], names, where + ["from"])
            _check_expr(step["to"], names, where + ["to"])
            _check_steps(step["do"], names | {var}, where + ["do"], types)  # (what the loop names stays inside)
            continue
        if kind == "if":  # (what a branch names stays inside it)
            _check_expr(step["if"], names, where + ["if"])
            for branch in ("then", "else"):
                _check_steps(step.get(branch, []), names, where + [branch], types)
            continue
        for key in _STEP_EXPRESSIONS[kind]:
            if key in step:
                _check_expr(step[key], names, where + [key])
        if kind in _WRITES and _STORE + step[kind] not in names:
            raise _not_stored(step[kind], names, where + [kind], ": the store's entries are declared with their first value")
        if kind in ("notify", "send") and ("uri" in step) != (step[kind] == "resource_updated"):
            raise _problem(f"a uri is given with resource_updated, and only with it", where)
        if kind == "elicit":
            _elicited_model(step["schema"], where + ["schema"], types or _Types())
        if kind in ("ask_user", "ask_model", "elicit"):
            names = names | {_identifier(step[kind], where + [kind], "an answer's name")}
        elif kind == "read":
            names = names | {_identifier(step["as"], where + ["as"], "a read's name")}
    return names


class _Budget:
    """The turns one call's loops may still take, all loops together."""

    def __init__(self, tool: str) -> None:
        self.tool, self.left = tool, MAX_STEPS

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise BeyondLimit(f"the tool {self.tool!r} took more than {MAX_STEPS:,} steps in one call")


class BeyondLimit(InputError):
    """A run past one of the engine's limits on a world (``MAX_REPEAT``, ``MAX_STEPS``): the SDK's
    program would go on, the engine stops and says which limit, never answering wrongly."""


Steps = Callable[[dict[str, Any], "_Budget | None"], Generator[Effect, Any, None]]


def _compile_steps(raw: list[dict[str, Any]]) -> Steps:
    """Checked steps as one generator function of the names known and the call's budget."""
    compiled = [_compile_step(step) for step in raw]
    if len(compiled) == 1:
        return compiled[0]

    def run(names: dict[str, Any], budget: _Budget | None) -> Generator[Effect, Any, None]:
        for step in compiled:
            yield from step(names, budget)
    return run


def _optional(step: dict[str, Any], key: str) -> Expr:
    return compile_expr(step[key]) if key in step else (lambda names: None)


def _compile_step(step: dict[str, Any]) -> Steps:
    if "progress" in step:
        progress, total, message = compile_expr(step["progress"]), _optional(step, "total"), _optional(step, "message")

        def report(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            yield Progress(progress(names), total(names), message(names))
        return report
    if "for" in step:
        var, first, last, body = step["for"], compile_expr(step["from"]), compile_expr(step["to"]), _compile_steps(step["do"])

        def loop(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            for names[var] in range(first(names), last(names) + 1):
                budget.spend()  # (only loops repeat: every other step runs once per place it is written)
                yield from body(names, budget)
        return loop
    if "if" in step:
        holds, then, other = compile_expr(step["if"]), _compile_steps(step["then"]), _compile_steps(step.get("else", []))

        def branch(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            yield from (then if holds(names) else other)(names, budget)
        return branch
    if "elicit" in step:
        key, message, model = step["elicit"], compile_expr(step["message"]), _elicited_model(step["schema"], [], _Types())
        asked = elicitation_schema(model)

        def elicit(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            names[key] = _outcome(model, (yield AskUser(key, message(names), asked, model)))
        return elicit
    if "ask_user" in step:
        key, message, schema = step["ask_user"], compile_expr(step["message"]), step["schema"]

        def ask_user(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            names[key] = yield AskUser(key, message(names), schema)
        return ask_user
    if "ask_model" in step:
        key, text, tokens = step["ask_model"], compile_expr(step["text"]), step["max_tokens"]

        def ask_model(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            names[key] = yield AskModel(key, text(names), tokens)
        return ask_model
    if "wait" in step:
        def wait(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            yield Wait()
        return wait
    if "log" in step:
        level, data = step["log"], compile_expr(step["message"])

        def log(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            yield Log(level, data(names))
        return log
    if any(kind in step for kind in _WRITES):
        return _compile_write(step)
    if "add_resource" in step:
        return _compile_add(step)
    if "notify" in step or "send" in step:
        kind = "notify" if "notify" in step else "send"
        what, effect, uri = step[kind], (Notify if kind == "notify" else Send), _optional(step, "uri")
        address = (lambda names: str(uri(names))) if "uri" in step else (lambda names: None)

        def notify(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            yield effect(what, address(names))  # (the SDK makes the URI text with ``str``)
        return notify
    key, uri = step["as"], compile_expr(step["read"])

    def read(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
        names[key] = yield ReadResource(uri(names))
    return read


def _compile_write(step: dict[str, Any]) -> Steps:
    """A step that writes the store, its parts evaluated in the order Python evaluates the
    statement the program writes for it (``STORE[n][k] = v``: v, then ``STORE[n]``, then k)."""
    if "set" in step and "key" not in step:
        name, value = step["set"], compile_expr(step["to"])

        def put(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            names[STORE_KEY][name] = value(names)
            yield from ()
        return put
    if "set" in step:
        name, key, value = step["set"], compile_expr(step["key"]), compile_expr(step["to"])

        def put_at(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            new = value(names)
            names[STORE_KEY][name][key(names)] = new
            yield from ()
        return put_at
    if "delete" in step:
        name, key = step["delete"], compile_expr(step["key"])

        def delete(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
            del names[STORE_KEY][name][key(names)]
            yield from ()
        return delete
    name, value = step["append"], compile_expr(step["value"])

    def append(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
        add = names[STORE_KEY][name].append  # (looked up before the value is made, as Python does)
        add(value(names))
        yield from ()
    return append


def _elicited_model(raw: Any, path: Path, types: _Types) -> Kind:
    """An elicitation's model: an object type whose fields are plain (text, number, integer,
    boolean, an enumeration, or one of those or None)."""
    kind = types.read(raw, path)
    if kind.name != "model" or kind.typed:
        raise _problem("an elicitation's schema is a model ({\"object\": NAME, \"fields\": [...]})", path)
    for i, f in enumerate(kind.fields):
        plain = f.kind.of if f.kind.name == "optional" else f.kind
        if plain.name not in ELICITABLE:  # type: ignore[union-attr]
            raise _problem("an elicitation's field is a text, number, integer, boolean or enumeration (or one of "
                           "those or None): the SDK refuses any other", path + ["fields", i, "type"])
    return kind


def elicited_model(raw: Any) -> Kind:
    """The model of an elicitation step's checked ``schema``."""
    return _elicited_model(raw, [], _Types())


def _outcome(model: Kind, answer: dict[str, Any]) -> dict[str, Any]:
    """``ctx.elicit``'s outcome, as the JSON its ``model_dump`` gives: an accepted answer's
    content validated by the model (a missing or refused content is the tool crashing)."""
    if answer["action"] != "accept":
        return {"action": answer["action"]}
    content = answer.get("content")
    if content is None:
        raise ToolCrash("ValueError")
    problems: list[Any] = []
    data = validate(model, content, "", problems)
    if problems:
        raise ToolCrash("ValueError")
    return {"action": "accept", "data": data}


def _compile_add(step: dict[str, Any]) -> Steps:
    """``mcp.add_resource(TextResource(uri=..., name=..., text=..., description=...))``: its
    arguments made in that order, then the model's validation (a failure is the tool crashing)."""
    uri, text = compile_expr(step["add_resource"]), compile_expr(step["text"])
    name, description = _optional(step, "name"), _optional(step, "description")
    mime_type = step.get("mime_type", "text/plain")

    def add(names: dict[str, Any], budget: _Budget) -> Generator[Effect, Any, None]:
        address, given, body, said = uri(names), name(names), text(names), description(names)
        named = given if given else address  # (the model names it by its URI when the name is empty)
        if not (type(address) is str and type(named) is str and type(body) is str
                and (said is None or type(said) is str)):
            raise ToolCrash("ValidationError")
        yield AddResource(Resource(address, named, said, mime_type, body))
    return add


def _ending(raw: dict[str, Any]) -> Callable[[dict[str, Any]], Any]:
    """How a call ends (``raw``'s ``result``, ``tool_error`` or ``crash``; None without one), as a
    function of the names: the value returned, or `ToolFailed`, or `ToolCrash`."""
    end = next((key for key in _ENDS if key in raw), None)
    value_of = compile_expr(raw[end]) if end else (lambda names: None)
    if end == "result":
        return value_of

    def fail(names: dict[str, Any]) -> Any:
        value = value_of(names)
        raise (ToolFailed if end == "tool_error" else ToolCrash)(str(value))
    return fail if end else value_of


def _behaviour(raw: dict[str, Any]) -> Callable[..., Generator[Effect, Any, Any]]:
    steps = _compile_steps(raw.get("steps", [])) if raw.get("steps") else None
    loops = "\"for\"" in json.dumps(raw.get("steps", []))  # (a budget is kept only where something repeats)
    # the cases in order, the first whose condition holds ending the call; else the tool's own end
    cases = [(compile_expr(case["when"]), _ending(case)) for case in raw.get("cases", [])]
    otherwise = _ending(raw)
    name = raw["name"]

    def run(**names: Any) -> Generator[Effect, Any, Any]:
        try:
            if steps is not None:
                yield from steps(names, _Budget(name) if loops else None)
            for holds, end in cases:
                if holds(names):
                    return end(names)
            return otherwise(names)
        except (BeyondLimit, GeneratorExit, ResourceMissing, ResourceFailed, ToolFailed, ToolCrash):
            raise  # (a resource the server lacks or fails to make is the SDK's own error, thrown in)
        except Exception as exc:  # the program's own exception: the tool crashed
            raise ToolCrash(type(exc).__name__) from None
    return run


# --- the world ------------------------------------------------------------------------------------

def _required_first(required: list[bool], path: Path, what: str) -> None:
    """Python's own rule, which the SDK program follows: no parameter without a default after one
    with (an optional prompt argument defaults to None)."""
    seen_default = False
    for i, needed in enumerate(required):
        if not needed:
            seen_default = True
        elif seen_default:
            raise _problem(f"{what} without a default follows one with a default (Python refuses that)", path + [i])


def _one_end(raw: dict[str, Any], path: Path, rule: str, required: bool) -> list[str]:
    ends = [key for key in _ENDS if key in raw]
    if len(ends) > 1 or required and not ends:
        raise _problem(f"{rule}: {' or '.join(_ENDS)} ({' and '.join(ends) or 'none'} given)", path)
    return ends


def _tool(raw: Any, path: Path, types: _Types, stored: frozenset[str]) -> Tool:
    check_object(raw, _TOOL_FIELDS, path, "a tool")
    ends = _one_end(raw, path, "a tool ends one way", required=False)
    function = raw.get("function", raw["name"])
    _identifier(function, path + ["function" if "function" in raw else "name"],
                "a tool's function name (give \"function\" when the tool's name is not one)")
    if function in RESERVED:
        raise _problem(f"{function!r} is a name the SDK program uses itself: give another \"function\"",
                       path + ["function" if "function" in raw else "name"])
    params = tuple(_param(p, path + ["params", i], types) for i, p in enumerate(_items(raw, "params", path)))
    _no_repeats([p.name for p in params], path + ["params"], "parameter")
    _required_first([p.required for p in params], path + ["params"], "a parameter")
    returns = types.read(raw["returns"], path + ["returns"], returns=True) if "returns" in raw else None
    names = _check_steps(raw.get("steps", []), {p.name for p in params} | stored, path + ["steps"], types)
    for key in ends:
        _check_expr(raw[key], names, path + [key])
    for i, case in enumerate(_items(raw, "cases", path)):
        where = path + ["cases", i]
        check_object(case, _CASE_FIELDS, where, "a case")
        _check_expr(case["when"], names, where + ["when"])
        for key in _one_end(case, where, "a case ends the call one way", required=True):
            _check_expr(case[key], names, where + [key])
    annotations = None
    if "annotations" in raw:
        check_object(raw["annotations"], _ANNOTATION_FIELDS, path + ["annotations"], "a tool's annotations")
        annotations = tuple(sorted((wire, raw["annotations"][key]) for key, wire in _ANNOTATIONS.items()
                                   if key in raw["annotations"]))
    return Tool(raw["name"], raw.get("description", ""), params, returns, _behaviour(raw), function=function,
                title=raw.get("title"), annotations=annotations, extras=_extras(raw, path))


def _resource(raw: Any, path: Path, stored: frozenset[str]) -> Resource:
    check_object(raw, _RESOURCE_FIELDS, path, "a resource")
    if ("text" in raw) == ("blob" in raw):
        raise _problem("a resource has either text or blob (base64)", path)
    made = None
    if "text" in raw and type(raw["text"]) is not str:  # an expression, of the store: made at each read
        _check_expr(raw["text"], set(stored), path + ["text"])
        made = _made(raw["uri"], compile_expr(raw["text"]))
    if "blob" in raw:
        try:
            base64.b64decode(raw["blob"], validate=True)
        except (binascii.Error, ValueError):
            raise _problem("the blob is not base64", path + ["blob"]) from None
    return Resource(raw["uri"], raw["name"], raw.get("description", ""), raw.get("mime_type", "text/plain"),
                    raw.get("text") if made is None else None, raw.get("blob"), raw.get("title"), made,
                    extras=_extras(raw, path))


def _made(uri: str, text: Expr) -> Callable[[dict[str, Any]], str]:
    """A resource's text as its function makes it from the store; its exception is the SDK's
    ``UnexpectedResourceError``, which names only the URI."""
    def made(store: dict[str, Any]) -> str:
        try:
            return resource_text(text({STORE_KEY: store}))
        except BeyondLimit:
            raise
        except Exception:  # the function's own exception
            raise ResourceFailed(uri, f"Error reading resource {uri}") from None
    return made


def _template(raw: Any, path: Path, stored: frozenset[str]) -> ResourceTemplate:
    check_object(raw, _TEMPLATE_FIELDS, path, "a resource template")
    text, where = raw["uri_template"], path + ["uri_template"]
    pattern, names, last = "", [], 0
    for found in _EXPANSION.finditer(text):
        name = found.group(1)
        if not (name.isascii() and name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_")):
            raise _problem(f"{{{name}}} is not modelled: only simple {{name}} expansions (no operators, lists or "
                           f"modifiers) with Python identifiers", where)
        if name in names:
            raise _problem(f"{{{name}}} appears twice", where)
        pattern += re.escape(text[last:found.start()]) + f"(?P<{name}>[^{re.escape(_STOPS)}]*)"
        names.append(name)
        last = found.end()
    if not names or "{" in text[last:] or "}" in text[last:]:
        raise _problem("a template names at least one {variable}, in braces that match", where)
    pattern += re.escape(text[last:])
    known = set(names) | stored
    _check_expr(raw["text"], known, path + ["text"])
    body = compile_expr(raw["text"])
    cases = []
    for i, case in enumerate(_items(raw, "cases", path)):
        where = path + ["cases", i]
        check_object(case, _TEMPLATE_CASE_FIELDS, where, "a template's case")
        ends = [key for key in _TEMPLATE_ENDS if key in case]
        if len(ends) != 1:
            raise _problem(f"a template's case refuses the read one way: {' or '.join(_TEMPLATE_ENDS)}", where)
        _check_expr(case["when"], known, where + ["when"])
        _check_expr(case[ends[0]], known, where + [ends[0]])
        cases.append((compile_expr(case["when"]), ends[0] == "not_found", compile_expr(case[ends[0]])))

    def render(**variables: str) -> str:
        try:
            for holds, not_found, message in cases:
                if holds(variables):
                    raise TemplateRefused(str(message(variables)), not_found)
            return resource_text(body(variables))
        except (BeyondLimit, TemplateRefused):
            raise
        except Exception:  # the function's own exception (the SDK keeps its text on the server)
            raise TemplateFailed() from None
    return ResourceTemplate(text, raw["name"], raw.get("description", ""), raw.get("mime_type", "text/plain"), render,
                            re.compile(pattern, re.DOTALL), raw.get("title"), extras=_extras(raw, path))


def _prompt(raw: Any, path: Path, stored: frozenset[str]) -> Prompt:
    check_object(raw, _PROMPT_FIELDS, path, "a prompt")
    if ("text" in raw) == ("messages" in raw):
        raise _problem("a prompt has either text (one user message) or messages", path)
    arguments = []
    for i, a in enumerate(_items(raw, "arguments", path)):
        check_object(a, _ARGUMENT_FIELDS, path + ["arguments", i], "a prompt argument")
        arguments.append(PromptArgument(_identifier(a["name"], path + ["arguments", i, "name"], "an argument name"),
                                        a.get("required", True), a.get("description")))
    _no_repeats([a.name for a in arguments], path + ["arguments"], "argument")
    _required_first([a.required for a in arguments], path + ["arguments"], "an argument")
    known = {a.name for a in arguments} | stored
    if "text" in raw:
        _check_expr(raw["text"], known, path + ["text"])  # (checked before it is compiled, as a message's)
        messages = [("user", compile_expr(raw["text"]))]
    else:
        messages = []
        for i, m in enumerate(_items(raw, "messages", path)):
            check_object(m, _MESSAGE_FIELDS, path + ["messages", i], "a prompt message")
            _check_expr(m["text"], known, path + ["messages", i, "text"])
            messages.append((m["role"], compile_expr(m["text"])))
    declared = tuple(a.name for a in arguments)

    def render(**given: Any) -> list[tuple[str, str]]:
        names = {name: given.get(name) for name in declared}
        names[STORE_KEY] = given.get(STORE_KEY)  # (the server's store, when it keeps one)
        return [(role, str(text(names))) for role, text in messages]
    return Prompt(raw["name"], raw.get("description", ""), tuple(arguments), render, raw.get("title"),
                  extras=_extras(raw, path))


def _completion(raw: Any, path: Path) -> Completion:
    check_object(raw, _COMPLETION_FIELDS, path, "a completion")
    if ("prompt" in raw) == ("template" in raw):
        raise _problem("a completion is for a prompt (by name) or a template (by its URI template)", path)
    values = raw["values"]
    if len(values) > MAX_COMPLETION_VALUES or not all(type(v) is str for v in values):
        raise _problem(f"the values are at most {MAX_COMPLETION_VALUES} strings", path + ["values"])
    if "prompt" in raw:
        return Completion("ref/prompt", raw["prompt"], raw["argument"], tuple(values))
    return Completion("ref/resource", raw["template"], raw["argument"], tuple(values))


def _store(raw: dict[str, Any]) -> dict[str, Any] | None:
    """The world's store: named JSON values, at most `MAX_STORE_TEXT` characters as JSON."""
    if "store" not in raw:
        return None
    store = raw["store"]
    for name in store:
        if not name:
            raise _problem("a store's entry is named, not empty", ["store"])
    size = len(json.dumps(store))
    if size > MAX_STORE_TEXT:
        raise _problem(f"the store is {size:,} characters as JSON, over the limit of {MAX_STORE_TEXT:,}", ["store"])
    return store


def read_world(raw: Any, source: str) -> ServerDefinition:
    """A world file's JSON as the server it describes; any problem is an `InputError` naming the
    file and the JSON path."""
    try:
        check_object(raw, _WORLD_FIELDS, [], "an MCP world")
        store = _store(raw)
        stored = frozenset(_STORE + name for name in store or ())
        types = _Types()
        tools = tuple(_tool(t, ["tools", i], types, stored) for i, t in enumerate(_items(raw, "tools", [])))
        resources = tuple(_resource(r, ["resources", i], stored) for i, r in enumerate(_items(raw, "resources", [])))
        templates = tuple(_template(t, ["templates", i], stored) for i, t in enumerate(_items(raw, "templates", [])))
        prompts = tuple(_prompt(p, ["prompts", i], stored) for i, p in enumerate(_items(raw, "prompts", [])))
        completions = None if "completions" not in raw else tuple(
            _completion(c, ["completions", i]) for i, c in enumerate(_items(raw, "completions", [])))
        functions = [t.function for t in tools]
        _no_repeats(functions, ["tools"], "tool function")
        if clash := set(functions) & set(types.models):
            raise _problem(f"{sorted(clash)[0]!r} names both a tool's function and a model", ["tools"])
    except InputError as exc:
        raise exc.within(file=source) from None
    return ServerDefinition(raw["name"], raw["version"], tools, resources, prompts,
                            instructions=raw.get("instructions"), templates=templates, title=raw.get("title"),
                            description=raw.get("description"), website_url=raw.get("website_url"),
                            completions=completions, store=store, subscriptions=raw.get("subscriptions", True),
                            icons=dict(_extras(raw, [])).get("icons"))
