"""Content blocks a world's tool returns (``"returns": "content"``), as the engine makes them,
against the SDK's own types: for blocks of every type, with fields right, missing, of the wrong
type, in snake case or unknown, the engine's block is the one ``ContentBlock`` validates and dumps
(its keys sorted, as the wire's), or both refuse it (the tool crashes)."""
from __future__ import annotations

import itertools
from typing import Any

import mcp_types
import pytest
from pydantic import TypeAdapter, ValidationError

from agent_loop_sim.protocols.mcp.definition import CONTENT_TYPES, ToolCrash, content_blocks

BLOCK = TypeAdapter(mcp_types.ContentBlock)

ANNOTATIONS = [None, {"audience": ["user"]}, {"priority": 1}, {"priority": 0.25, "lastModified": "2026-01-01"},
               {"priority": 2}, {"audience": ["robot"]}, {"audience": "user"}, {"last_modified": "x"}, "loud"]
BLOCKS: list[dict[str, Any]] = [
    {"type": "text", "text": "hi"}, {"type": "text", "text": 5}, {"type": "text"},
    {"type": "image", "data": "aGk=", "mimeType": "image/png"}, {"type": "image", "data": "aGk="},
    {"type": "image", "data": "aGk=", "mime_type": "image/png"}, {"type": "audio", "data": "aGk=", "mimeType": "audio/wav"},
    {"type": "audio", "data": None, "mimeType": "audio/wav"},
    {"type": "resource_link", "uri": "file:///a.txt", "name": "a"},
    {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "title": "A", "description": "d",
     "mimeType": "text/plain", "size": 12},
    {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "size": 12.0},
    {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "size": 12.5},
    {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "size": True},
    {"type": "resource_link", "uri": "file:///a.txt"},
    {"type": "resource", "resource": {"uri": "res://x", "text": "t"}},
    {"type": "resource", "resource": {"uri": "res://x", "mimeType": "text/plain", "blob": "aGk="}},
    {"type": "resource", "resource": {"uri": "res://x"}},
    {"type": "resource", "resource": "res://x"},
    {"type": "video", "data": "x"}, {"text": "no type"}, "just text", None,
    {"type": "text", "text": "hi", "extra": 1},
]


def _sdk(value: Any) -> Any:
    try:
        items = value if isinstance(value, list) else [value]
        return [_sorted(BLOCK.validate_python(item).model_dump(by_alias=True, exclude_none=True, mode="json"))
                for item in items]
    except ValidationError:
        return "refused"


def _engine(value: Any) -> Any:
    try:
        return content_blocks(value)
    except ToolCrash:
        return "refused"


def _sorted(value: Any) -> Any:
    return {k: _sorted(value[k]) for k in sorted(value)} if isinstance(value, dict) else value


@pytest.mark.parametrize("block,annotations", list(itertools.product(BLOCKS, ANNOTATIONS)))
def test_a_block_is_what_the_sdks_types_make_of_it(block, annotations):
    if annotations is not None and isinstance(block, dict):
        block = {**block, "annotations": annotations}
    assert _engine(block) == _sdk(block), block
    assert _engine([block, {"type": "text", "text": "and"}]) == _sdk([block, {"type": "text", "text": "and"}])


def test_every_content_type_is_tried():
    assert {b["type"] for b in BLOCKS if isinstance(b, dict) and "type" in b} >= set(CONTENT_TYPES)


def test_a_dropped_field_is_caught():
    """The control: a block whose title the engine dropped differs from the SDK's."""
    block = {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "title": "A"}
    made = _engine(block)
    del made[0]["title"]
    assert made != _sdk(block)
