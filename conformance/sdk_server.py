"""Fixture MCP server for the conformance recordings, built on the official MCP Python SDK.

It is not started per session: ``scripts/mcp_fork_server.py`` imports it once (in the zygote
the recorder forks, or as the swap test's process of its own) and forks a fresh copy of that
process for every session, which runs ``mcp.run()`` over stdio exactly as
``python conformance/sdk_server.py`` would. ``agent_loop_sim.protocols.mcp``
describes the same server declaratively (``FIXTURE_SERVER``) and must answer exactly as this
process does, in both protocol eras:

* the handshake era (``initialize``; protocol versions up to 2025-11-25), where a tool that
  needs the user or a model sends ``elicitation/create`` or ``sampling/createMessage`` to the
  client and waits for the answer;
* the stateless 2026-07-28 revision, where the same tool returns ``resultType:
  "input_required"`` and the client retries the call with ``inputResponses``.
"""
from __future__ import annotations

import warnings

import mcp_types as types
from mcp.server import MCPServer
from mcp.server.mcpserver import Context

# Sampling is deprecated in 2026-07-28 (SEP-2577); the warning would only clutter stderr.
warnings.simplefilter("ignore")

STATELESS_REVISION = "2026-07-28"
CONFIRM_SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}

mcp = MCPServer("fixture-server", version="1.0.0")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool()
async def read_doc(uri: str, ctx: Context) -> str:
    """Read a document by URI."""
    first, *_ = list(await ctx.read_resource(uri))
    return str(first.content)


@mcp.tool()
async def count(n: int, ctx: Context) -> str:
    """Count to n, reporting progress."""
    for step in range(1, n + 1):
        await ctx.report_progress(step, n)
    return f"counted to {n}"


@mcp.tool()
async def delete_file(path: str, ctx: Context) -> str:
    """Delete a file after the user confirms."""
    question = f"Delete {path}?"
    if ctx.protocol_version == STATELESS_REVISION:
        if not ctx.input_responses:
            ask = types.ElicitRequest(params=types.ElicitRequestFormParams(message=question, requested_schema=CONFIRM_SCHEMA))
            return types.InputRequiredResult(input_requests={"confirm": ask})  # type: ignore[return-value]
        answer = ctx.input_responses["confirm"]
    else:
        answer = await ctx.session.elicit_form(question, CONFIRM_SCHEMA, related_request_id=ctx.request_id)
    confirmed = answer.action == "accept" and bool((answer.content or {}).get("confirm"))
    return f"deleted {path}" if confirmed else f"kept {path}"


def _summary_request(text: str) -> types.CreateMessageRequestParams:
    prompt = types.SamplingMessage(role="user", content=types.TextContent(type="text", text=f"Summarise: {text}"))
    return types.CreateMessageRequestParams(messages=[prompt], max_tokens=50)


@mcp.tool()
async def summarise(text: str, ctx: Context) -> str:
    """Summarise text with the client's model."""
    request = _summary_request(text)
    if ctx.protocol_version == STATELESS_REVISION:
        if not ctx.input_responses:
            ask = types.CreateMessageRequest(params=request)
            return types.InputRequiredResult(input_requests={"summary": ask})  # type: ignore[return-value]
        content = ctx.input_responses["summary"].content
    else:
        reply = await ctx.session.create_message(
            request.messages, max_tokens=request.max_tokens, related_request_id=ctx.request_id
        )
        content = reply.content
    return content.text if isinstance(content, types.TextContent) else "?"


@mcp.tool()
def fail(reason: str) -> str:
    """Always fails (to show a tool error)."""
    raise ValueError(reason)


@mcp.resource("docs://readme", mime_type="text/markdown")
def readme() -> str:
    """The project README."""
    return "# Demo\nA tiny project."


@mcp.prompt()
def review(code: str) -> str:
    """Review a piece of code."""
    return f"Please review:\n{code}"


if __name__ == "__main__":
    mcp.run()
