"""Writing Markdown that cannot be broken by what it quotes.

Everything a recording holds is data, not markup: a title with ``<script>``, a method name
with a backtick, a raw line that looks like a fence. Text goes through `text` (HTML
escaped, Markdown punctuation backslash-escaped), code through `code` or `fence`,
whose backtick runs are always longer than any run inside the content.
"""
from __future__ import annotations

import html
import json
import re
from typing import Any

from ...jsonio import short_json

# Python-Markdown's escapable characters, plus '|' (the tables extension adds it), each with a
# backslash before it (a table for str.translate: one call in C, where a regular expression's
# replacement was expanded in Python at each match).
_MARKDOWN_PUNCTUATION = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()#+-.!|>"})
# C0/C1 controls except tab; Python-Markdown also uses \x02/\x03 as its own placeholders.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_BACKTICKS = re.compile(r"`+")
# Characters that open a block in the extensions the site uses (mkdocstrings, details, tabbed,
# superfences' tildes, admonitions' marks are already escaped) when they start a line.
_BLOCK_START = re.compile(r"^(\s*)([:?=~])")


def visible(value: str) -> str:
    """Control characters as ``\\xNN``, so that they are shown, not interpreted."""
    if value.isprintable():  # (no control character is printable: most text is looked at once, in C)
        return value
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", value)


def text(value: str) -> str:
    """Inline text: shown exactly as written, whatever characters it holds. A text that starts
    like a block extension (``::: module``, ``??? note``, ``=== "tab"``, ``~~~``) has its first
    character written as an HTML entity, which no block parser matches but the browser shows as is."""
    one_line = visible(value).replace("\n", " ").replace("\t", " ")
    escaped = html.escape(one_line, quote=False).translate(_MARKDOWN_PUNCTUATION)
    return _BLOCK_START.sub(lambda m: f"{m.group(1)}&#{ord(m.group(2))};", escaped, count=1)


def title(value: str) -> str:
    """Text for a quoted title (a tab's, an admonition's): `text`, and no bare quote."""
    return text(value).replace('"', "&quot;")


def _longest_backtick_run(value: str) -> int:
    return max((len(m.group(0)) for m in _BACKTICKS.finditer(value)), default=0)


def code(value: str) -> str:
    """An inline code span holding ``value`` literally."""
    value = visible(value).replace("\n", " ")
    ticks = "`" * (_longest_backtick_run(value) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{ticks}{pad}{value}{pad}{ticks}"


def fence(content: str, lang: str = "text", indent: str = "", attrs: str = "") -> str:
    """A fenced code block; the fence is longer than any backtick run in ``content``."""
    ticks = "`" * max(3, _longest_backtick_run(content) + 1)
    head = f"{ticks}{lang}" + (f" {attrs}" if attrs else "")
    lines = [head, *content.split("\n"), ticks]
    return "\n".join(indent + line if line else line for line in lines)


def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def json_value(value: Any, limit: int = 160) -> str:
    """A JSON value as a short code span (for differences and evidence)."""
    return code(short_json(value, limit))


def table(head: list[str], rows: list[list[str]]) -> str:
    """A pipe table. Cells must be Markdown-safe already: `text` escapes ``|``; code spans
    in cells must not hold one (Python-Markdown keeps pipes inside backticks, others may not)."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


def indent(block: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in block.split("\n"))
