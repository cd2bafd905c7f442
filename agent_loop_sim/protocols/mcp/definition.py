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

import base64
import json
import math
from urllib.parse import unquote
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, NamedTuple

from ...jsonio import copy_json
from .annotations import Kind, Param, Problem, Rejected, field_schema, rejection, top_schema, validate, validate_fields



# --- effects a behaviour yields -------------------------------------------------------------
# (Named tuples rather than frozen dataclasses: one is made for every question and progress step
# of every tool call, and a frozen dataclass sets each field through object.__setattr__.)

class Progress(NamedTuple):
    """``ctx.report_progress(progress, total, message)``: a notification, if the caller asked for progress."""

    progress: int | float
    total: int | float | None = None
    message: str | None = None


class AskUser(NamedTuple):
    """Elicitation: a form the user fills in. ``key`` names it in a 2026-07-28 ``inputRequests``."""

    key: str
    message: str
    requested_schema: dict[str, Any]
    #: ``ctx.elicit(message, schema=Model)``: the model (a `Kind`) the answer is validated by;
    #: None: ``ctx.session.elicit_form`` with the schema as given
    model: Any = None


class AskModel(NamedTuple):
    """Sampling: the client's model is asked for one message. ``key`` as for `AskUser`."""

    key: str
    text: str
    max_tokens: int


class ReadResource(NamedTuple):
    """``ctx.read_resource(uri)``: the tool reads one of the server's own resources."""

    uri: str


class Log(NamedTuple):
    """``ctx.log(level, data)``: a ``notifications/message``, if the era and the request allow it."""

    level: str
    data: Any


class Wait(NamedTuple):
    """The tool waits for something that never comes (``anyio.sleep_forever()``): the call is never
    answered, until the client cancels it."""


class Notify(NamedTuple):
    """``ctx.notify_<event>(...)``: an event published to the server's ``subscriptions/listen``
    streams (2026-07-28), each stream that asked for its kind (or the resource's URI) sending it.
    ``event`` is one of `EVENTS`; ``uri`` is the updated resource's."""

    event: str
    uri: str | None = None


class Send(NamedTuple):
    """``ctx.session.send_<notification>(...)``: a notification on the connection's own channel
    (the handshake era's), whatever the client asked for. ``notification`` is one of `SENT`."""

    notification: str
    uri: str | None = None


#: ``ctx.notify_<event>``: each event -> the notification it is on the wire, and the listen
#: filter's flag that asks for it (None: a resource update, asked for by its URI)
EVENTS = {"tools_changed": ("notifications/tools/list_changed", "toolsListChanged"),
          "prompts_changed": ("notifications/prompts/list_changed", "promptsListChanged"),
          "resources_changed": ("notifications/resources/list_changed", "resourcesListChanged"),
          "resource_updated": ("notifications/resources/updated", None)}
#: ``ctx.session.send_<notification>`` -> the notification it is on the wire
SENT = {"tool_list_changed": "notifications/tools/list_changed",
        "prompt_list_changed": "notifications/prompts/list_changed",
        "resource_list_changed": "notifications/resources/list_changed",
        "resource_updated": "notifications/resources/updated"}


class AddResource(NamedTuple):
    """``mcp.add_resource(TextResource(...))``: a resource the process lists and serves from then on
    (unless one of its URI is there already: the SDK keeps the first)."""

    resource: "Resource"


Effect = Progress | AskUser | AskModel | ReadResource | Log | Wait | Notify | Send | AddResource
Behaviour = Callable[..., Generator[Effect, Any, Any]]


class ToolCrash(Exception):
    """The tool raised an ordinary exception: the SDK hides its text ("Error executing tool X")."""


class ToolFailed(Exception):
    """The tool raised the SDK's ``ToolError``: its text is shown ("Error executing tool X: text")."""


class ResourceMissing(Exception):
    """A resource URI the server does not have."""

    def __init__(self, uri: str) -> None:
        super().__init__(f"Unknown resource: {uri}")
        self.uri = uri


class TemplateFailed(Exception):
    """A template's function raised (its text is the SDK server's own: it never reaches a client)."""


class TemplateRefused(Exception):
    """A template's function raised the SDK's ``ResourceNotFoundError`` (``not_found``) or
    ``ResourceError`` with this message."""

    def __init__(self, message: str, not_found: bool) -> None:
        super().__init__(message)
        self.not_found = not_found


class ResourceFailed(Exception):
    """A template's function raised: a crash the SDK hides behind a message naming the URI (its
    ``UnexpectedResourceError``), or a refusal with its own message (``TemplateRefused``); a
    -32603 error for a read (-32602 for not found), a failed call for a tool that read it."""

    def __init__(self, uri: str, message: str | None = None, not_found: bool = False) -> None:
        super().__init__(f"Error creating resource from template {uri}" if message is None else message)
        self.uri, self.not_found = uri, not_found


# --- the description ------------------------------------------------------------------------

#: The key the server's store travels under among the names an expression reads (no parameter,
#: variable or answer can be named so)
STORE_KEY = "$store"


def with_store(names: dict[str, Any], store: dict[str, Any] | None) -> dict[str, Any]:
    """``names`` as a declaration's function reads them: with the process's store, if it keeps one."""
    return names if store is None else {**names, STORE_KEY: store}


#: What a declaration's listing carries beside its own fields, from ``icons=`` and ``meta=``:
#: pairs of its key in the listing (``icons``, ``_meta``) and its value as JSON text (a
#: declaration stays hashable)
Extras = tuple[tuple[str, str], ...]

@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    params: tuple[Param, ...]
    returns: Kind | None  #: the return annotation (None: the function has none)
    behaviour: Behaviour = field(repr=False, compare=False)
    #: the Python function's name, which titles its models (``addArguments``, ``addOutput``)
    function: str = ""
    title: str | None = None
    #: ``ToolAnnotations`` as the wire writes them (camelCase), the hints the world gives, as pairs
    annotations: tuple[tuple[str, Any], ...] | None = None
    extras: Extras = ()

    def __post_init__(self) -> None:
        if not self.function:
            object.__setattr__(self, "function", self.name)

    def input_schema(self) -> dict[str, Any]:
        return top_schema(f"{self.function}Arguments", self.params)

    def output_schema(self) -> dict[str, Any] | None:
        """``outputSchema``: the returned model's own, a ``result`` field around any other
        annotation, none for ``dict`` or no annotation."""
        kind = self.returns
        if kind is None or kind.name in ("dict", "content"):
            return None
        if kind.name == "model":
            return top_schema(kind.model, kind.fields, kind.description)
        if kind.name == "mapping":  # (``dict[str, T]`` is its own schema, no ``result`` around it)
            defs: dict[str, Any] = {}
            body = {**field_schema(kind, defs), "title": f"{self.function}DictOutput"}
            body = dict(sorted(body.items()))
            return {"$defs": dict(sorted(defs.items())), **body} if defs else body
        return top_schema(f"{self.function}Output", (Param("result", kind, none_default=False),))

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The arguments as the tool function receives them, or `ArgumentsRejected`; `ToolCrash`
        for a function with an aliased parameter: ``MCPServer`` passes each argument under its
        JSON name (``from=``), a keyword the function does not take."""
        valid = validate_arguments(f"{self.function}Arguments", self.params, arguments)
        if any(p.alias is not None and p.alias != p.name for p in self.params):
            raise ToolCrash("an unexpected keyword argument")
        return valid

    def result(self, value: Any) -> dict[str, Any]:
        """The ``tools/call`` result for the value the function returned (`ToolCrash` if its
        return annotation refuses the value, as the SDK's output model does)."""
        kind = self.returns
        if kind is not None and kind.name == "content":  # (blocks are what the model reads: no output schema)
            return {"content": content_blocks(value), "isError": False}
        if kind is not None and type(value) is _EXACT.get(kind.name):  # (the usual case, said at once)
            text = value if type(value) is str else str(value)
            return {"content": [{"text": text, "type": "text"}], "isError": False, "structuredContent": {"result": value}}
        content = _content(value)
        if kind is None or kind.name == "dict":
            return {"content": content, "isError": False}
        problems: list[Problem] = []
        if kind.name in ("model", "mapping"):
            structured = validate(kind, value, "", problems)
        else:
            structured = {"result": validate(kind, value, "result", problems)}
        if problems:
            raise ToolCrash("the return annotation refuses the value")
        return {"content": content, "isError": False, "structuredContent": structured}


@dataclass(frozen=True)
class Resource:
    uri: str
    name: str
    description: str | None  #: (None: a resource a tool added without one)
    mime_type: str
    text: str | None = None
    blob: str | None = None  #: base64, as the wire carries it
    title: str | None = None
    #: the text made at each read from the server's store (`ServerDefinition.store`), when it
    #: follows the store; `ResourceFailed` if the function raises
    made: Callable[[dict[str, Any]], str] | None = field(default=None, repr=False, compare=False)
    extras: Extras = ()

    def listing(self) -> dict[str, Any]:
        listed = {"description": self.description, "mimeType": self.mime_type, "name": self.name, "uri": self.uri}
        if self.description is None:  # (one a tool added without a description)
            del listed["description"]
        return listed_with(listed, self.title, self.extras)

    def contents(self, store: dict[str, Any] | None = None) -> dict[str, Any]:
        if self.blob is not None:
            return with_meta({"blob": self.blob, "mimeType": self.mime_type, "uri": self.uri}, self.extras)
        return with_meta({"mimeType": self.mime_type, "text": self.read(store), "uri": self.uri}, self.extras)

    def read(self, store: dict[str, Any] | None = None) -> str:
        """What ``ctx.read_resource`` hands a tool, made text with ``str`` (bytes as ``b'...'``)."""
        if self.made is not None:
            return self.made(store or {})
        return str(base64.b64decode(self.blob)) if self.blob is not None else str(self.text)


@dataclass(frozen=True)
class ResourceTemplate:
    """``@mcp.resource("scheme://{var}/...")`` with a function of those variables: simple ``{var}``
    expansions only, each matching up to a structural character (``/?#&,``), percent-decoded."""

    uri_template: str
    name: str
    description: str
    mime_type: str
    render: Callable[..., str] = field(repr=False, compare=False)
    pattern: Any = field(default=None, repr=False, compare=False)
    title: str | None = None
    extras: Extras = ()

    def match(self, uri: str) -> dict[str, str] | None:
        """The variables of ``uri`` if it matches (values percent-decoded), else None."""
        found = self.pattern.fullmatch(uri)
        return None if found is None else {k: unquote(v) for k, v in found.groupdict().items()}

    def listing(self) -> dict[str, Any]:
        return listed_with({"description": self.description, "mimeType": self.mime_type, "name": self.name,
                        "uriTemplate": self.uri_template}, self.title, self.extras)


def unsafe_path(value: str) -> bool:
    """What the SDK's default resource security refuses in a template variable: a null byte, a
    ``..`` that climbs above where the path starts, or an absolute path (POSIX, UNC, a drive)."""
    if "\0" in value:
        return True
    depth = 0
    for part in value.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part and part != ".":
            depth += 1
    return bool(value) and (value[0] in "/\\" or len(value) >= 2 and value[1] == ":" and value[0].isascii()
                            and value[0].isalpha())


@dataclass(frozen=True)
class PromptArgument:
    name: str
    required: bool = True
    description: str | None = None  # (``Annotated[str, Field(description=...)]``)


@dataclass(frozen=True)
class Prompt:
    name: str
    description: str
    arguments: tuple[PromptArgument, ...]
    #: the arguments given -> the messages, each (role, text)
    render: Callable[..., list[tuple[str, str]]] = field(repr=False, compare=False)
    title: str | None = None
    extras: Extras = ()




def _icons_sorted(icons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(sorted(icon.items())) for icon in icons]


def with_meta(contents: dict[str, Any], extras: Extras) -> dict[str, Any]:
    """A read's contents with the resource's ``meta``, if it has one (keys in sorted order)."""
    meta = dict(extras).get("_meta")
    return contents if meta is None else dict(sorted({**contents, "_meta": json.loads(meta)}.items()))


def listed_with(listing: dict[str, Any], title: str | None, extras: Extras = ()) -> dict[str, Any]:
    """A listing with its title and extras, if any (its keys in sorted order, as the SDK writes them)."""
    if title is not None or extras:
        more = {key: _icons_sorted(json.loads(text)) if key == "icons" else json.loads(text) for key, text in extras}
        listing = dict(sorted({**listing, **({} if title is None else {"title": title}), **more}.items()))
    return listing


@dataclass(frozen=True)
class Completion:
    """One answer of an ``@mcp.completion()`` handler: for an argument of a prompt
    (``ref/prompt``, by name) or a template (``ref/resource``, by URI template), the values
    that start with what the client typed, in order."""

    ref_type: str
    ref: str
    argument: str
    values: tuple[str, ...]

    def answer(self, typed: str) -> dict[str, Any]:
        return {"values": [v for v in self.values if v.startswith(typed)]}


@dataclass(frozen=True)
class ServerDefinition:
    name: str
    version: str
    tools: tuple[Tool, ...] = ()
    resources: tuple[Resource, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    instructions: str | None = None
    templates: tuple[ResourceTemplate, ...] = ()
    title: str | None = None
    description: str | None = None
    website_url: str | None = None
    #: the completion handler's answers; ``None``: the server registers no handler
    completions: tuple[Completion, ...] | None = None
    #: the data the server's process starts with, named (module-level data its functions read and
    #: write); ``None``: it keeps none
    store: dict[str, Any] | None = None
    #: whether it serves ``subscriptions/listen`` (``MCPServer(subscriptions=False)``: not)
    subscriptions: bool = True
    #: ``MCPServer(icons=...)``, as JSON text (its ``serverInfo`` carries them)
    icons: str | None = None
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

    def info(self, sort: bool = False) -> dict[str, Any]:
        """The server's ``Implementation`` (``serverInfo``), in the type's field order or ``sort`` ed."""
        given = {"name": self.name, "title": self.title, "version": self.version, "description": self.description,
                 "websiteUrl": self.website_url, "icons": None if self.icons is None else json.loads(self.icons)}
        out = {key: value for key, value in given.items() if value is not None}
        if sort and "icons" in out:  # (sorted all through, its icons too)
            out["icons"] = _icons_sorted(out["icons"])
        return dict(sorted(out.items())) if sort else out

    def tool(self, name: str) -> Tool | None:
        return self._named.get(("tool", name))

    def resource(self, uri: str) -> Resource | None:
        return self._named.get(("resource", uri))

    def prompt(self, name: str) -> Prompt | None:
        return self._named.get(("prompt", name))

    def complete(self, ref: dict[str, Any], argument: dict[str, Any]) -> dict[str, Any]:
        """``completion/complete``'s completion: the first answer for the reference and argument,
        else none (the handler returns None: no values)."""
        key = (ref.get("type"), ref.get("name" if ref.get("type") == "ref/prompt" else "uri"), argument.get("name"))
        for c in self.completions or ():
            if (c.ref_type, c.ref, c.argument) == key:
                return c.answer(argument["value"])
        return {"values": []}

    @property
    def optional_methods(self) -> frozenset[str]:
        """The methods of `methods.OPTIONAL` this server handles."""
        return self.derived("optional methods", lambda: frozenset(
            ({"completion/complete"} if self.completions is not None else set())
            | ({"subscriptions/listen"} if self.subscriptions else set())))

    def fresh_store(self) -> dict[str, Any] | None:
        """The store as a new server process starts with it (its own copy), or None."""
        return None if self.store is None else copy_json(self.store)

    def derived(self, key: Any, make: Callable[[], Any]) -> Any:
        """What ``make()`` derives from this definition, made the first time ``key`` is asked for
        and kept with the definition (it lives as long as the definition does, and no longer)."""
        if key not in self._derived:
            self._derived[key] = make()
        return self._derived[key]


# --- argument validation, as pydantic's lax mode does it ---------------------------------------

ArgumentsRejected = Rejected  #: pydantic's ``ValidationError`` text for a tool's arguments

#: the return kinds whose value of exactly this type is its own structured content, and ``str`` its text
_EXACT: dict[str, type] = {"integer": int, "string": str}


def _pre_parse_json(params: tuple[Param, ...], arguments: dict[str, Any]) -> dict[str, Any]:
    # The SDK first decodes JSON text given for a parameter not annotated plain ``str``, unless
    # it decodes to a scalar.
    # (A parameter is found by its name and by its alias.)
    out = arguments  # (copied only when a decoded value replaces one: nearly never)
    for p in params:
        for key in (p.name,) if p.alias is None else (p.name, p.alias):
            value = arguments.get(key)
            if key in arguments and isinstance(value, str) and p.kind.name != "string":
                try:
                    decoded = json.loads(value)
                except (ValueError, RecursionError):
                    continue
                if not isinstance(decoded, (str, int, float)):
                    if out is arguments:
                        out = dict(arguments)
                    out[key] = decoded
    return out


def validate_arguments(model: str, params: tuple[Param, ...], arguments: dict[str, Any]) -> dict[str, Any]:
    problems: list[Problem] = []
    out = validate_fields(params, _pre_parse_json(params, arguments), "", problems)
    if problems:
        raise rejection(model, problems)
    return out


# --- content blocks a tool returns (``-> list[ContentBlock]``), as the SDK's types validate them -----

#: each block's fields: (JSON name, type, required); a field may also be given in snake case
#: (the types populate by name), and any other member is dropped, as pydantic drops it
_BLOCK_FIELDS: dict[str, tuple[tuple[str, Any, bool], ...]] = {
    "text": (("text", str, True),),
    "image": (("data", str, True), ("mimeType", str, True)),
    "audio": (("data", str, True), ("mimeType", str, True)),
    "resource_link": (("name", str, True), ("title", str, False), ("uri", str, True), ("description", str, False),
                      ("mimeType", str, False), ("size", int, False)),
    "resource": (("resource", "contents", True),),
}
_CONTENTS_FIELDS = (("uri", str, True), ("mimeType", str, False))
_ANNOTATION_FIELDS = (("audience", "roles", False), ("priority", float, False), ("lastModified", str, False))
CONTENT_TYPES = tuple(_BLOCK_FIELDS)


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def _coerce(kind: Any, value: Any) -> Any:
    """``value`` as the field's type takes it in pydantic's lax Python mode, else `ToolCrash`."""
    if kind is str and type(value) is str:
        return value
    if kind is int and (type(value) in (int, bool) or type(value) is float and value.is_integer()):
        return int(value)
    if kind is float and type(value) in (int, float, bool):
        if not 0 <= value <= 1:  # (``priority``: ge=0, le=1)
            raise ToolCrash("a priority outside 0..1")
        return float(value)
    if kind == "roles" and type(value) is list and all(v in ("user", "assistant") for v in value):
        return list(value)
    if kind == "contents" and type(value) is dict:
        return _fields(value, _CONTENTS_FIELDS, contents=True)
    if kind == "annotations" and type(value) is dict:
        return _fields(value, _ANNOTATION_FIELDS)
    raise ToolCrash("a content block's field of the wrong type")


def _fields(raw: dict[str, Any], fields: tuple[tuple[str, Any, bool], ...], contents: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, kind, required in fields:
        key = name if name in raw else _snake(name)
        if raw.get(key) is None:
            if required:
                raise ToolCrash(f"a content block without its {name}")
            continue
        out[name] = _coerce(kind, raw[key])
    if contents:  # text or blob: TextResourceContents, else BlobResourceContents
        for name in ("text", "blob"):
            if raw.get(name) is not None:
                out[name] = _coerce(str, raw[name])
                break
        else:
            raise ToolCrash("embedded contents without text or blob")
    return out


def content_blocks(value: Any) -> list[dict[str, Any]]:
    """A returned block or list of blocks (their JSON, as the world computes it) as the content
    the SDK sends: each validated as its type (``ToolCrash`` where pydantic refuses it), its
    fields in sorted order, what is None or unknown left out."""
    return [_sorted(_block(raw)) for raw in (value if type(value) is list else [value])]


def _block(raw: Any) -> dict[str, Any]:
    if type(raw) is not dict:
        raise ToolCrash("not a content block")
    if "type" not in raw:  # each type's ``type`` has a default: the first type it validates as
        for kind in _BLOCK_FIELDS:
            try:
                return _block({**raw, "type": kind})
            except ToolCrash:
                continue
        raise ToolCrash("not a content block")
    if raw["type"] not in _BLOCK_FIELDS:
        raise ToolCrash("not a content block")
    block = _fields(raw, _BLOCK_FIELDS[raw["type"]]) | {"type": raw["type"]}
    if raw.get("annotations") is not None:
        block["annotations"] = _coerce("annotations", raw["annotations"])
    return block


def _sorted(value: Any) -> Any:
    return {k: _sorted(value[k]) for k in sorted(value)} if type(value) is dict else value


# --- a returned value as content, as the SDK converts it -----------------------------------------

def _content(value: Any) -> list[dict[str, Any]]:
    """The unstructured content of a returned value: nothing for None, a list item by item,
    text as it is, anything else as pydantic's indented JSON."""
    if value is None:
        return []
    if isinstance(value, list):
        return [block for item in value for block in _content(item)]
    text = value if isinstance(value, str) else _pydantic_json(value, "")
    return [{"text": text, "type": "text"}]


def resource_text(value: Any) -> str:
    """What a resource's function returns, as the text read: a text as it is, anything else as the
    SDK writes it (``pydantic_core.to_json(value, indent=2)``)."""
    return value if isinstance(value, str) else _pydantic_json(value, "")


def _pydantic_json(value: Any, indent: str) -> str:
    # pydantic_core.to_json(value, indent=2): json's layout, but floats written as Rust's ryu
    # writes them (why not json.dumps: its floats are Python's repr).
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_pydantic_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + _pydantic_json(v, inner) for v in value) + "\n" + indent + "]"
    if type(value) is float:
        return _float_text(value)
    return json.dumps(value, ensure_ascii=False)


def _float_text(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    text = repr(x)
    if "e-" not in text:
        return text
    mantissa, exponent = text.split("e-")
    if int(exponent) <= 5:  # down to 1e-5 as a decimal
        digits = mantissa.replace(".", "").lstrip("-")
        return ("-" if x < 0 else "") + "0." + "0" * (int(exponent) - 1) + digits.rstrip("0")
    return f"{mantissa}e-{int(exponent)}"
