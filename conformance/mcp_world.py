"""An MCP world file as the program a user of the official SDK would write for it.

`source(world)` turns a world (the JSON of ``worlds/*.json``, ``"kind": "mcp-server"``) into
the Python source of an ``MCPServer``: one ``async def`` per tool with real annotations
(``int``, ``Literal[...]``, ``list[str]``, ``X | None = None``, pydantic models for nested
objects), its steps as the ``Context`` calls they name, each resource and prompt as a decorated
function. `build(path)` executes that source and returns the server.

This is the recording side of a world, kept apart from the engine on purpose: it shares no code
with ``agent_loop_sim`` (which reads the same file and models what this program does), so a
mistake in either shows as a difference between the recording and the engine. The engine
validates a world before anything is recorded (``verify``); this module still refuses any name
that is not a plain identifier, and writes every other text with ``repr``, so a world file can
never put code of its own into the program.
"""
from __future__ import annotations

import json
import keyword
import re
from pathlib import Path
from typing import Any

#: The revision whose tools answer a question with ``input_required`` (and a retry).
STATELESS_REVISION = "2026-07-28"

#: Names the program defines or imports: a tool function or model may not take one.
RESERVED = frozenset({"mcp", "types", "base64", "warnings", "Literal", "BaseModel", "MCPServer", "Context",
                      "ToolError", "STATELESS_REVISION", "anyio", "Annotated", "Field", "TypeAdapter",
                      "ResourceError", "ResourceNotFoundError", "STORE", "Any",
                      "TypedDict", "NotRequired", "TextResource"})
#: ``Field``'s arguments a parameter may give (its constraints, description and title)
_FIELD_OPTIONS = ("alias", "description", "title", "multiple_of", "le", "lt", "ge", "gt", "min_length", "max_length", "pattern")

#: Each operator as the Python a user writes for it, its operands in order.
_OPERATORS = {
    "$not": "not {0}", "$len": "len({0})", "$str": "str({0})", "$neg": "-{0}", "$abs": "abs({0})",
    "$int": "int({0})", "$float": "float({0})", "$bool": "bool({0})", "$upper": "{0}.upper()",
    "$lower": "{0}.lower()", "$strip": "{0}.strip()", "$title": "{0}.title()", "$keys": "list({0})",
    "$sum": "sum({0})", "$sorted": "sorted({0})", "$min": "min({0})", "$max": "max({0})", "$any": "any({0})",
    "$all": "all({0})",
    "$add": "{0} + {1}", "$sub": "{0} - {1}", "$mul": "{0} * {1}", "$div": "{0} / {1}", "$floordiv": "{0} // {1}",
    "$mod": "{0} % {1}", "$round": "round({0}, {1})", "$eq": "{0} == {1}", "$ne": "{0} != {1}", "$lt": "{0} < {1}",
    "$le": "{0} <= {1}", "$gt": "{0} > {1}", "$ge": "{0} >= {1}", "$in": "{0} in {1}", "$index": "{0}[{1}]",
    "$startswith": "{0}.startswith({1})", "$endswith": "{0}.endswith({1})", "$split": "{0}.split({1})",
    "$join": "{0}.join({1})",
    "$slice": "{0}[{1}:{2}]", "$replace": "{0}.replace({1}, {2})",
}
_ONE_OPERAND = {op for op, text in _OPERATORS.items() if "{1}" not in text}

_SCALARS = {"integer": "int", "number": "float", "string": "str", "boolean": "bool", "null": "None"}

_PRELUDE = '''\
import base64
import warnings
from typing import Annotated, Any, Literal

import anyio

import mcp_types as types
from pydantic import BaseModel, Field, TypeAdapter
from typing_extensions import NotRequired, TypedDict
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.server.mcpserver.resources import TextResource
from mcp.server.mcpserver.prompts.base import AssistantMessage as _AssistantMessage, UserMessage as _UserMessage

# Sampling is deprecated in 2026-07-28 (SEP-2577); the warning would only clutter stderr.
warnings.simplefilter("ignore")

STATELESS_REVISION = {stateless!r}


def _plain(value):
    """An argument as plain JSON-like data (a nested model as a dict), as the world's values are."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="python")
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {{key: _plain(item) for key, item in value.items()}}
    return value


def _answer(result):
    """A client's answer (an ElicitResult or CreateMessageResult) as the JSON it arrived as."""
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


_BLOCK = TypeAdapter(types.ContentBlock)


def _blocks(value):
    """A block, or a list of blocks, as the world writes them (their JSON), as the SDK's types."""
    return [_BLOCK.validate_python(item) for item in (value if isinstance(value, list) else [value])]


def _get(value, *path):
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value

'''


class WorldCodeError(ValueError):
    """A world this generator will not turn into code (a name that is not an identifier, an
    unknown type or step); the engine's loader says the same, with the JSON path."""


def _name(text: Any) -> str:
    if not (isinstance(text, str) and text.isidentifier() and text.isascii() and not keyword.iskeyword(text)
            and not text.startswith("_") and text != "ctx"):
        raise WorldCodeError(f"not a plain identifier: {text!r}")
    return text


class _Writer:
    def __init__(self) -> None:
        self.models: list[str] = []  # pydantic model classes, written before the tools
        self.returns_content = False  # (the tool being written returns content blocks)
        self.model_names: set[str] = set()

    # --- types --------------------------------------------------------------------------
    def annotation(self, kind: Any) -> str:
        if isinstance(kind, str):
            if kind in _SCALARS:
                return _SCALARS[kind]
            if kind == "object":
                return "dict"
            if kind == "content":
                return "list[types.ContentBlock]"
            raise WorldCodeError(f"unknown type {kind!r}")
        if isinstance(kind, dict) and "enum" in kind:
            return f"Literal[{', '.join(repr(v) for v in kind['enum'])}]"
        if isinstance(kind, dict) and "list" in kind:
            return f"list[{self.annotation(kind['list'])}]"
        if isinstance(kind, dict) and "optional" in kind:
            return f"{self.annotation(kind['optional'])} | None"
        if isinstance(kind, dict) and "dict" in kind:
            return f"dict[str, {'Any' if kind['dict'] == 'any' else self.annotation(kind['dict'])}]"
        if isinstance(kind, dict) and ("object" in kind or "typed_dict" in kind):
            typed = "typed_dict" in kind
            name = kind["typed_dict" if typed else "object"]
            if not (isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)) or name in RESERVED:
                raise WorldCodeError(f"not a model name the program can use: {name!r}")
            if name not in self.model_names:
                self.model_names.add(name)
                doc = [f"    {kind['description']!r}"] if "description" in kind else []  # (its docstring)
                fields = doc + [f"    {self.field(f, typed)}" for f in kind["fields"]] or ["    pass"]
                base = "TypedDict" if typed else "BaseModel"
                self.models.append(f"class {name}({base}):\n" + "\n".join(fields) + "\n")
            return name
        raise WorldCodeError(f"unknown type {kind!r}")

    def field(self, param: dict[str, Any], typed: bool = False) -> str:
        annotation = self.annotation(param["type"])
        options = [f"{key}={param[key]!r}" for key in param if key in _FIELD_OPTIONS]
        if options:
            annotation = f"Annotated[{annotation}, Field({', '.join(options)})]"
        if typed:  # a TypedDict's field: no default; NotRequired when it may be left out
            return f"{_name(param['name'])}: " + (f"NotRequired[{annotation}]" if param.get("required") is False
                                                  else annotation)
        text = f"{_name(param['name'])}: {annotation}"
        if "default" in param:
            text += f" = {_literal(param['default'])}"
        elif isinstance(param["type"], dict) and "optional" in param["type"]:
            text += " = None"
        return text

    # --- expressions ----------------------------------------------------------------------
    def expr(self, e: Any) -> str:
        if isinstance(e, dict):
            ops = [k for k in e if k.startswith("$")]
            if not ops:
                return "{" + ", ".join(f"{k!r}: {self.expr(v)}" for k, v in e.items()) + "}"
            op, arg = ops[0], e[ops[0]]
            if op == "$":
                head, *path = arg.split(".")
                ref = f"_v[{_name(head)!r}]"
                return f"_get({ref}, {', '.join(repr(p) for p in path)})" if path else ref
            if op == "$format":
                return f"{arg!r}.format_map(_v)"
            if op == "$store":
                return f"STORE[{arg!r}]"
            if op in ("$and", "$or"):
                joined = f" {op[1:]} ".join(f"bool({self.expr(a)})" for a in arg)
                return f"({joined})"
            if op == "$if":
                cond, then, other = arg
                return f"({self.expr(then)} if {self.expr(cond)} else {self.expr(other)})"
            if op in _OPERATORS:
                operands = [self.expr(arg)] if op in _ONE_OPERAND else [self.expr(a) for a in arg]
                return "(" + _OPERATORS[op].format(*(f"({o})" for o in operands)) + ")"
            raise WorldCodeError(f"unknown expression {op!r}")
        if isinstance(e, list):
            return "[" + ", ".join(self.expr(x) for x in e) + "]"
        return _literal(e)

    # --- steps ----------------------------------------------------------------------------
    def steps(self, steps: list[dict[str, Any]], indent: str) -> list[str]:
        out: list[str] = []
        for step in steps:
            if "progress" in step:
                total = self.expr(step["total"]) if "total" in step else "None"
                message = self.expr(step["message"]) if "message" in step else "None"
                out.append(f"{indent}await ctx.report_progress({self.expr(step['progress'])}, {total}, {message})")
            elif "for" in step:
                var = _name(step["for"])
                out.append(f"{indent}for _v[{var!r}] in range({self.expr(step['from'])}, "
                           f"{self.expr(step['to'])} + 1):")
                out += self.steps(step["do"], indent + "    ") or [f"{indent}    pass"]
            elif "elicit" in step:  # ``ctx.elicit`` with a model: its outcome as JSON (action, data)
                key, model = _name(step["elicit"]), self.annotation(step["schema"])
                out.append(f"{indent}_v[{key!r}] = (await ctx.elicit({self.expr(step['message'])}, schema={model}))"
                           f".model_dump(mode='json')")
            elif "if" in step:
                out.append(f"{indent}if {self.expr(step['if'])}:")
                out += self.steps(step["then"], indent + "    ") or [f"{indent}    pass"]
                if step.get("else"):
                    out.append(f"{indent}else:")
                    out += self.steps(step["else"], indent + "    ")
            elif "ask_user" in step:
                key = _name(step["ask_user"])
                message, schema = self.expr(step["message"]), _literal(step["schema"])
                ask = (f"types.ElicitRequest(params=types.ElicitRequestFormParams(message={message}, "
                       f"requested_schema={schema}))")
                out += self._question(key, ask, f"await ctx.session.elicit_form({message}, {schema}, "
                                                f"related_request_id=ctx.request_id)", indent)
            elif "ask_model" in step:
                key = _name(step["ask_model"])
                messages = (f"[types.SamplingMessage(role='user', content=types.TextContent(type='text', "
                            f"text={self.expr(step['text'])}))]")
                tokens = int(step["max_tokens"])
                ask = (f"types.CreateMessageRequest(params=types.CreateMessageRequestParams(messages={messages}, "
                       f"max_tokens={tokens}))")
                out += self._question(key, ask, f"await ctx.session.create_message({messages}, max_tokens={tokens}, "
                                                f"related_request_id=ctx.request_id)", indent)
            elif "read" in step:
                key = _name(step["as"])
                out.append(f"{indent}_v[{key!r}] = str(list(await ctx.read_resource({self.expr(step['read'])}))"
                           f"[0].content)")
            elif "log" in step:
                out.append(f"{indent}await ctx.log({step['log']!r}, {self.expr(step['message'])})")
            elif "wait" in step:
                out.append(f"{indent}await anyio.sleep_forever()")
            elif "set" in step and "key" in step:
                out.append(f"{indent}STORE[{step['set']!r}][{self.expr(step['key'])}] = {self.expr(step['to'])}")
            elif "set" in step:
                out.append(f"{indent}STORE[{step['set']!r}] = {self.expr(step['to'])}")
            elif "delete" in step:
                out.append(f"{indent}del STORE[{step['delete']!r}][{self.expr(step['key'])}]")
            elif "append" in step:
                out.append(f"{indent}STORE[{step['append']!r}].append({self.expr(step['value'])})")
            elif "notify" in step:
                uri = self.expr(step["uri"]) if step["notify"] == "resource_updated" else ""
                out.append(f"{indent}await ctx.notify_{_name(step['notify'])}({uri})")
            elif "add_resource" in step:
                options = [f"uri={self.expr(step['add_resource'])}"] + [
                    f"{key}={self.expr(step[key])}" for key in ("name", "text", "description") if key in step]
                if "mime_type" in step:
                    options.append(f"mime_type={step['mime_type']!r}")
                out.append(f"{indent}mcp.add_resource(TextResource({', '.join(options)}))")
            elif "send" in step:
                uri = self.expr(step["uri"]) if step["send"] == "resource_updated" else ""
                out.append(f"{indent}await ctx.session.send_{_name(step['send'])}({uri})")
            else:
                raise WorldCodeError(f"unknown step {sorted(step)!r}")
        return out

    def _question(self, key: str, ask: str, handshake: str, indent: str) -> list[str]:
        # As an SDK user writes a question for both eras: 2026-07-28 returns input_required unless
        # the retried call carries answers; the handshake era asks the client and waits.
        return [
            f"{indent}if ctx.protocol_version == STATELESS_REVISION:",
            f"{indent}    if not ctx.input_responses:",
            f"{indent}        return types.InputRequiredResult(input_requests={{{key!r}: {ask}}})",
            f"{indent}    _v[{key!r}] = _answer(ctx.input_responses[{key!r}])",
            f"{indent}else:",
            f"{indent}    _v[{key!r}] = _answer({handshake})",
        ]

    # --- the server -----------------------------------------------------------------------
    def tool(self, tool: dict[str, Any], index: int) -> str:
        params = tool.get("params", [])
        # Parameters with a default after those without: Python's rule, and the order
        # pydantic keeps is the order written here.
        # (the Context first: it has no default, and the parameters after it may)
        signature = ["ctx: Context"] + [self.field(p) for p in params]
        returns = self.annotation(tool["returns"]) if "returns" in tool else None
        # The function's name titles its argument and output models (``addArguments``): a tool
        # whose name is no identifier takes the one the world gives as ``function``.
        function = _name(tool.get("function", tool["name"]))
        if function in RESERVED:
            raise WorldCodeError(f"{function!r} is a name the program itself uses")
        options = [f"name={tool['name']!r}", f"description={tool.get('description')!r}"]
        if "title" in tool:
            options.append(f"title={tool['title']!r}")
        if "annotations" in tool:
            hints = ", ".join(f"{_name(k) if k != 'title' else k}={v!r}" for k, v in tool["annotations"].items())
            # (the world's names are ToolAnnotations' own fields: read_only_hint, ...)
            options.append(f"annotations=types.ToolAnnotations({hints})")
        options += _extras(tool)
        head = (f"@mcp.tool({', '.join(options)})\n"
                f"async def {function}({', '.join(signature)})" + (f" -> {returns}:" if returns else ":"))
        body = ["    _v = {" + ", ".join(f"{_name(p['name'])!r}: _plain({p['name']})" for p in params) + "}"]
        self.returns_content = tool.get("returns") == "content"
        body += self.steps(tool.get("steps", []), "    ")
        for case in tool.get("cases", []):  # (the first whose condition holds ends the call)
            body += [f"    if {self.expr(case['when'])}:", f"        {self.end(case)}"]
        body.append(f"    {self.end(tool)}")
        return head + "\n" + "\n".join(body) + "\n"

    def end(self, entry: dict[str, Any]) -> str:
        """The statement that ends a call: a return, the SDK's ``ToolError``, or a crash."""
        if "result" in entry and self.returns_content:
            return f"return _blocks({self.expr(entry['result'])})"
        if "result" in entry:
            return f"return {self.expr(entry['result'])}"
        if "tool_error" in entry:
            return f"raise ToolError({self.expr(entry['tool_error'])})"
        if "crash" in entry:
            return f"raise ValueError({self.expr(entry['crash'])})"
        return "return None"

    def resource(self, resource: dict[str, Any], index: int) -> str:
        text = resource.get("text", "")
        # (a text that is an expression, of the store, is made as each read calls the function)
        value = (f"base64.b64decode({resource['blob']!r})" if "blob" in resource
                 else repr(text) if isinstance(text, str) else self.expr(text))
        options = _resource_options(repr(resource["uri"]), resource)
        # (``_v``: the names an expression reads, none here but the store's)
        return f"@mcp.resource({', '.join(options)})\ndef _resource_{index}():\n    _v = {{}}\n    return {value}\n"

    def template(self, template: dict[str, Any], index: int) -> str:
        names = [_name(n) for n in re.findall(r"\{([^{}]*)\}", template["uri_template"])]
        options = _resource_options(repr(template["uri_template"]), template)
        raising = {"not_found": "ResourceNotFoundError", "resource_error": "ResourceError"}
        cases = "".join(f"    if {self.expr(case['when'])}:\n"
                        f"        raise {raising[end]}({self.expr(case[end])})\n"
                        for case in template.get("cases", []) for end in raising if end in case)
        return (f"@mcp.resource({', '.join(options)})\ndef _template_{index}({', '.join(f'{n}: str' for n in names)}):\n"
                f"    _v = {{{', '.join(f'{n!r}: {n}' for n in names)}}}\n"
                f"{cases}"
                f"    return {self.expr(template['text'])}\n")

    @staticmethod
    def argument(argument: dict[str, Any]) -> str:
        """A prompt argument's annotation: a text, optional unless required, described by ``Field``."""
        annotation = "str" if argument.get("required", True) else "str | None"
        if "description" in argument:
            return f"Annotated[{annotation}, Field(description={argument['description']!r})]"
        return annotation

    def prompt(self, prompt: dict[str, Any], index: int) -> str:
        arguments = prompt.get("arguments", [])
        signature = [f"{_name(a['name'])}: " + self.argument(a) + ("" if a.get("required", True) else " = None")
                     for a in arguments]
        returns = "str" if "text" in prompt else "list"
        title = f", title={prompt['title']!r}" if "title" in prompt else ""
        title += "".join(", " + extra for extra in _extras(prompt))
        head = (f"@mcp.prompt(name={prompt['name']!r}, description={prompt.get('description')!r}{title})\n"
                f"def _prompt_{index}({', '.join(signature)}) -> {returns}:")
        body = ["    _v = {" + ", ".join(f"{a['name']!r}: {a['name']}" for a in arguments) + "}"]
        if "text" in prompt:
            body.append(f"    return {self.expr(prompt['text'])}")
        else:
            kinds = {"user": "_UserMessage", "assistant": "_AssistantMessage"}
            items = [f"{kinds[m['role']]}(str({self.expr(m['text'])}))" for m in prompt["messages"]]
            body.append(f"    return [{', '.join(items)}]")
        return head + "\n" + "\n".join(body) + "\n"


def _resource_options(address: str, entry: dict[str, Any]) -> list[str]:
    """``@mcp.resource``'s arguments for a resource or a template: its address, name, and the
    optional fields the world gives."""
    return [address, f"name={entry['name']!r}"] + [
        f"{key}={entry[key]!r}" for key in ("title", "description", "mime_type") if key in entry] + _extras(entry)


def _extras(entry: dict[str, Any]) -> list[str]:
    """The ``icons`` and ``meta`` arguments a declaration gives (each icon the SDK's ``Icon``)."""
    out = []
    if "icons" in entry:
        out.append("icons=[" + ", ".join(f"types.Icon(**{icon!r})" for icon in entry["icons"]) + "]")
    if "meta" in entry:
        out.append(f"meta={entry['meta']!r}")
    return out


def _completion_handler(completions: list[dict[str, Any]]) -> str:
    """``@mcp.completion()``: for a known prompt's or template's argument, its values that start
    with what the client typed."""
    table = [("ref/prompt", c["prompt"]) if "prompt" in c else ("ref/resource", c["template"]) for c in completions]
    rows = [(kind, name, c["argument"], list(c["values"])) for (kind, name), c in zip(table, completions)]
    return (f"_COMPLETIONS = {rows!r}\n\n\n"
            "@mcp.completion()\n"
            "async def _complete(ref, argument, context):\n"
            "    key = (ref.type, ref.name if ref.type == 'ref/prompt' else ref.uri, argument.name)\n"
            "    for kind, name, arg, values in _COMPLETIONS:\n"
            "        if (kind, name, arg) == key:\n"
            "            return types.Completion(values=[v for v in values if v.startswith(argument.value)])\n"
            "    return None\n")


def _literal(value: Any) -> str:
    # JSON data as a Python literal: repr of the decoded value is one (true -> True, null -> None).
    return repr(value)


def source(world: dict[str, Any]) -> str:
    """The Python program, written with the official SDK, that the world file describes."""
    w = _Writer()
    tools = [w.tool(t, i) for i, t in enumerate(world.get("tools", []))]
    resources = [w.resource(r, i) for i, r in enumerate(world.get("resources", []))]
    resources += [w.template(t, i) for i, t in enumerate(world.get("templates", []))]
    prompts = [w.prompt(p, i) for i, p in enumerate(world.get("prompts", []))]
    options = [repr(world["name"]), f"version={world['version']!r}"]
    for key in ("instructions", "title", "description", "website_url", "subscriptions"):
        if key in world:
            options.append(f"{key}={world[key]!r}")
    options += _extras({"icons": world["icons"]} if "icons" in world else {})
    # The store: module-level data every tool, resource and prompt of the process shares.
    store = f"STORE = {_literal(world.get('store', {}))}\n"
    parts = [_PRELUDE.format(stateless=STATELESS_REVISION), *w.models, store, f"mcp = MCPServer({', '.join(options)})\n",
             *tools, *resources, *prompts]
    if "completions" in world:
        parts.append(_completion_handler(world["completions"]))
    return "\n\n".join(p.rstrip("\n") + "\n" for p in parts)


def build(path: str | Path) -> Any:
    """The ``MCPServer`` the world file at ``path`` describes, made by running its `source`."""
    world = json.loads(Path(path).read_text(encoding="utf-8"))
    namespace: dict[str, Any] = {"__name__": f"world_{Path(path).stem.replace('-', '_')}"}
    # (dont_inherit: the program is compiled as a file of its own would be, not with this module's
    # `from __future__ import annotations`, under which pydantic cannot resolve a nested model)
    code = compile(source(world), f"<world {path}>", "exec", dont_inherit=True)
    exec(code, namespace)  # noqa: S102 (identifiers checked, texts repr'd)
    return namespace["mcp"]
