"""What a user of the SDKs can declare (``MCPServer``, an A2A ``AgentCard``), each beside the
world key that declares it.

The SDKs' side of the list is read from their own signatures and types (``scripts/sdk_surface.py``
writes it to ``recordings/verdicts/sdk_surface.json``): every parameter of ``MCPServer(...)`` and
of its decorators, every public method of a tool's ``Context``, every argument of pydantic's
``Field``, every field of the A2A ``AgentCard`` (its capabilities and skills too). `SURFACE` sets
each beside the world key that declares it (`Declared`: found in the worlds the committed
recordings play) or the reason it is not modelled (`NotModelled`). The World files page draws the
table, and the site's build fails on an entry with neither, or on a key no committed world uses
(no live recording would show it).
"""
from __future__ import annotations

from typing import NamedTuple


class Declared(NamedTuple):
    """Declared in a world by the key ``key`` (where the format page says)."""

    key: str


class NotModelled(NamedTuple):
    why: str


_CODE = NotModelled("code of the server's own, not a declaration: nothing of it is data")
_NO_WIRE = NotModelled("the server's own housekeeping: nothing of it reaches the wire")
_AUTH = NotModelled("authorization (OAuth) is not modelled: a stand-in serves without it")
_SCHEMA_EXTRA = NotModelled("schema annotations beyond a description and a title are not modelled yet")
_PYTHON_ONLY = NotModelled("how the Python object behaves: nothing of it reaches a tool's schema or validation")

#: (API, parameter or method) -> how a world declares it, or why it does not
SURFACE: dict[tuple[str, str], Declared | NotModelled] = {
    ("MCPServer()", "name"): Declared("name"),
    ("MCPServer()", "title"): Declared("title"),
    ("MCPServer()", "description"): Declared("description"),
    ("MCPServer()", "instructions"): Declared("instructions"),
    ("MCPServer()", "website_url"): Declared("website_url"),
    ("MCPServer()", "icons"): Declared("icons"),
    ("MCPServer()", "version"): Declared("version"),
    ("MCPServer()", "auth_server_provider"): _AUTH,
    ("MCPServer()", "token_verifier"): _AUTH,
    ("MCPServer()", "tools"): Declared("tools"),
    ("MCPServer()", "resources"): Declared("resources"),
    ("MCPServer()", "extensions"): NotModelled("protocol extensions are not modelled"),
    ("MCPServer()", "debug"): _NO_WIRE,
    ("MCPServer()", "log_level"): _NO_WIRE,
    ("MCPServer()", "warn_on_duplicate_resources"): _NO_WIRE,
    ("MCPServer()", "warn_on_duplicate_tools"): _NO_WIRE,
    ("MCPServer()", "warn_on_duplicate_prompts"): _NO_WIRE,
    ("MCPServer()", "dependencies"): _NO_WIRE,
    ("MCPServer()", "lifespan"): _CODE,
    ("MCPServer()", "auth"): _AUTH,
    ("MCPServer()", "resource_security"): NotModelled(
        "the default policy is modelled (a template's value may not climb out of its path); another is not"),
    ("MCPServer()", "request_state_security"): NotModelled(
        "the default is modelled: the server keeps no request state, and a requestState sent back is refused"),
    ("MCPServer()", "cache_hints"): NotModelled("the default cache hints of 2026-07-28 are modelled; others are not"),
    ("MCPServer()", "subscriptions"): Declared("subscriptions"),
    ("MCPServer()", "middleware"): _CODE,
    ("@mcp.tool()", "name"): Declared("name"),
    ("@mcp.tool()", "title"): Declared("title"),
    ("@mcp.tool()", "description"): Declared("description"),
    ("@mcp.tool()", "annotations"): Declared("annotations"),
    ("@mcp.tool()", "icons"): Declared("icons"),
    ("@mcp.tool()", "meta"): Declared("meta"),
    ("@mcp.tool()", "structured_output"): NotModelled(
        "the SDK's own choice from the return annotation is modelled; forcing it either way is not"),
    ("@mcp.resource()", "uri"): Declared("uri"),
    ("@mcp.resource()", "name"): Declared("name"),
    ("@mcp.resource()", "title"): Declared("title"),
    ("@mcp.resource()", "description"): Declared("description"),
    ("@mcp.resource()", "mime_type"): Declared("mime_type"),
    ("@mcp.resource()", "icons"): Declared("icons"),
    ("@mcp.resource()", "annotations"): NotModelled("a resource's annotations are not modelled yet"),
    ("@mcp.resource()", "meta"): Declared("meta"),
    ("@mcp.resource()", "security"): NotModelled("the default template security is modelled; another is not"),
    ("@mcp.prompt()", "name"): Declared("name"),
    ("@mcp.prompt()", "title"): Declared("title"),
    ("@mcp.prompt()", "description"): Declared("description"),
    ("@mcp.prompt()", "icons"): Declared("icons"),
    ("@mcp.completion()", ""): Declared("completions"),
    ("Context", "client_capabilities"): NotModelled("what the client can do, read by the tool's code: a world's "
                                                    "steps do not branch on it"),
    ("Context", "close_sse_stream"): NotModelled("closing an HTTP stream mid-call is not modelled"),
    ("Context", "close_standalone_sse_stream"): NotModelled("closing an HTTP stream mid-call is not modelled"),
    ("Context", "debug"): Declared("log"),
    ("Context", "info"): Declared("log"),
    ("Context", "warning"): Declared("log"),
    ("Context", "error"): Declared("log"),
    ("Context", "log"): Declared("log"),
    ("Context", "elicit"): Declared("elicit"),
    ("Context", "elicit_url"): NotModelled("URL elicitation is not modelled yet"),
    ("Context", "headers"): NotModelled("the request's HTTP headers, read by the tool's code: not modelled"),
    ("Context", "input_responses"): Declared("ask_user"),
    ("Context", "mcp_server"): _CODE,
    ("Context", "request_context"): _CODE,
    ("Context", "session"): Declared("send"),
    ("Context", "request_id"): _CODE,
    ("Context", "request_state"): NotModelled("the server keeps no request state"),
    ("Context", "protocol_version"): NotModelled("the revision, read by the tool's code: a world's questions are "
                                                 "asked as the SDK's users ask them in each era"),
    ("Context", "notify_prompts_changed"): Declared("notify"),
    ("Context", "notify_resource_updated"): Declared("notify"),
    ("Context", "notify_resources_changed"): Declared("notify"),
    ("Context", "notify_tools_changed"): Declared("notify"),
    ("Context", "read_resource"): Declared("read"),
    ("Context", "report_progress"): Declared("progress"),
    ("Field()", "default"): Declared("default"),
    ("Field()", "default_factory"): _CODE,
    ("Field()", "alias"): Declared("alias"),
    ("Field()", "alias_priority"): NotModelled("one alias, for validation and the schema alike, is modelled"),
    ("Field()", "validation_alias"): NotModelled("one alias, for validation and the schema alike, is modelled"),
    ("Field()", "serialization_alias"): NotModelled("one alias, for validation and the schema alike, is modelled"),
    ("Field()", "title"): Declared("title"),
    ("Field()", "field_title_generator"): _CODE,
    ("Field()", "description"): Declared("description"),
    ("Field()", "examples"): _SCHEMA_EXTRA,
    ("Field()", "exclude"): _PYTHON_ONLY,
    ("Field()", "exclude_if"): _PYTHON_ONLY,
    ("Field()", "discriminator"): NotModelled("unions other than X | None are not modelled"),
    ("Field()", "deprecated"): _SCHEMA_EXTRA,
    ("Field()", "json_schema_extra"): _SCHEMA_EXTRA,
    ("Field()", "frozen"): _PYTHON_ONLY,
    ("Field()", "validate_default"): NotModelled("a default is taken as given (pydantic's default), never validated"),
    ("Field()", "repr"): _PYTHON_ONLY,
    ("Field()", "init"): _PYTHON_ONLY,
    ("Field()", "init_var"): _PYTHON_ONLY,
    ("Field()", "kw_only"): _PYTHON_ONLY,
    ("Field()", "pattern"): Declared("pattern"),
    ("Field()", "strict"): NotModelled("strict validation is not modelled: the SDK's tools validate in lax mode"),
    ("Field()", "coerce_numbers_to_str"): NotModelled("not modelled yet"),
    ("Field()", "gt"): Declared("gt"),
    ("Field()", "ge"): Declared("ge"),
    ("Field()", "lt"): Declared("lt"),
    ("Field()", "le"): Declared("le"),
    ("Field()", "multiple_of"): Declared("multiple_of"),
    ("Field()", "allow_inf_nan"): NotModelled("not modelled yet"),
    ("Field()", "max_digits"): NotModelled("Decimal parameters are not modelled"),
    ("Field()", "decimal_places"): NotModelled("Decimal parameters are not modelled"),
    ("Field()", "min_length"): Declared("min_length"),
    ("Field()", "max_length"): Declared("max_length"),
    ("Field()", "union_mode"): NotModelled("unions other than X | None are not modelled"),
    ("Field()", "fail_fast"): NotModelled("not modelled yet"),
    ("AgentCard", "name"): Declared("name"),
    ("AgentCard", "description"): Declared("description"),
    ("AgentCard", "supported_interfaces"): Declared("url"),
    ("AgentCard", "provider"): Declared("provider"),
    ("AgentCard", "version"): Declared("version"),
    ("AgentCard", "documentation_url"): Declared("documentation_url"),
    ("AgentCard", "capabilities"): Declared("streaming"),
    ("AgentCard", "security_schemes"): _AUTH,
    ("AgentCard", "security_requirements"): _AUTH,
    ("AgentCard", "default_input_modes"): Declared("default_input_modes"),
    ("AgentCard", "default_output_modes"): Declared("default_output_modes"),
    ("AgentCard", "skills"): Declared("skills"),
    ("AgentCard", "signatures"): NotModelled("a signed card is not modelled"),
    ("AgentCard", "icon_url"): Declared("icon_url"),
    ("AgentCapabilities", "streaming"): Declared("streaming"),
    ("AgentCapabilities", "push_notifications"): Declared("push_notifications"),
    ("AgentCapabilities", "extensions"): NotModelled("protocol extensions are not modelled"),
    ("AgentCapabilities", "extended_agent_card"): NotModelled("an extended card is modelled for the research "
                                                              "fixture only, not in a world"),
    ("AgentSkill", "id"): Declared("id"),
    ("AgentSkill", "name"): Declared("name"),
    ("AgentSkill", "description"): Declared("description"),
    ("AgentSkill", "tags"): Declared("tags"),
    ("AgentSkill", "examples"): Declared("examples"),
    ("AgentSkill", "input_modes"): Declared("input_modes"),
    ("AgentSkill", "output_modes"): Declared("output_modes"),
    ("AgentSkill", "security_requirements"): _AUTH,
}


def family(api: str) -> str:
    """Whose declaration an API's entries are: an A2A agent's card, or an MCP server's."""
    return "a2a" if api.startswith("Agent") else "mcp"


def entries(listed: dict[str, list[str]]) -> list[tuple[str, str]]:
    """The SDK's list (``sdk_surface.json``'s ``apis``) as (API, parameter) pairs, in its order;
    an API without parameters (``@mcp.completion()``) is one entry of its own."""
    return [(api, name) for api, names in listed.items() for name in (names or [""])]
