"""``FIXTURE_SERVER``: the engine's description of ``conformance/sdk_server.py``.

Each behaviour is a generator: it yields the effects the SDK tool would cause through its
``Context`` (progress, a question to the user or the model, a resource read) and receives
their answers; its return value becomes the tool result. The same behaviour serves both
eras: the server model turns a question into a server request (handshake era) or into an
``input_required`` result and a retry (2026-07-28).
"""
from __future__ import annotations

from typing import Any, Generator

from .definition import (
    AskModel,
    AskUser,
    Effect,
    Param,
    Progress,
    Prompt,
    PromptArgument,
    ReadResource,
    Resource,
    ServerDefinition,
    Tool,
    ToolCrash,
)

CONFIRM_SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}


def _add(a: int, b: int) -> Generator[Effect, Any, int]:
    return a + b
    yield  # a generator that asks for nothing


def _read_doc(uri: str) -> Generator[Effect, Any, str]:
    text = yield ReadResource(uri)
    return text


def _count(n: int) -> Generator[Effect, Any, str]:
    for step in range(1, n + 1):
        yield Progress(step, n)
    return f"counted to {n}"


def _delete_file(path: str) -> Generator[Effect, Any, str]:
    answer = yield AskUser("confirm", f"Delete {path}?", CONFIRM_SCHEMA)
    confirmed = answer.get("action") == "accept" and bool((answer.get("content") or {}).get("confirm"))
    return f"deleted {path}" if confirmed else f"kept {path}"


def _summarise(text: str) -> Generator[Effect, Any, str]:
    reply = yield AskModel("summary", f"Summarise: {text}", max_tokens=50)
    content = reply.get("content") or {}
    return content.get("text", "?") if content.get("type") == "text" else "?"


def _fail(reason: str) -> Generator[Effect, Any, str]:
    raise ToolCrash(reason)
    yield


FIXTURE_SERVER = ServerDefinition(
    name="fixture-server",
    version="1.0.0",
    tools=(
        Tool("add", "Add two integers.", (Param("a", "integer"), Param("b", "integer")), "integer", _add),
        Tool("read_doc", "Read a document by URI.", (Param("uri", "string"),), "string", _read_doc),
        Tool("count", "Count to n, reporting progress.", (Param("n", "integer"),), "string", _count),
        Tool("delete_file", "Delete a file after the user confirms.", (Param("path", "string"),), "string",
             _delete_file),
        Tool("summarise", "Summarise text with the client's model.", (Param("text", "string"),), "string",
             _summarise),
        Tool("fail", "Always fails (to show a tool error).", (Param("reason", "string"),), "string", _fail),
    ),
    resources=(
        Resource("docs://readme", "readme", "The project README.", "text/markdown", lambda: "# Demo\nA tiny project."),
    ),
    prompts=(
        Prompt("review", "Review a piece of code.", (PromptArgument("code"),), lambda code: f"Please review:\n{code}"),
    ),
)
