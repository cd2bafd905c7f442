"""Raw HTML blocks that MkDocs shows as they are, without Python-Markdown parsing them.

A page's big HTML (a session's wire log, the eras side by side, the index pages' tables) is
written as a raw HTML block. Python-Markdown would find where such a block ends by parsing every
tag of it (``md_in_html``), MkDocs would parse it again for its ids (anchor validation), and the
search plugin a third time, for text the page excludes from search anyway (the message bodies).
Together that was most of a build.

So a generated page marks each such block (`block`): a comment line before and after it, both
naming the SHA-256 of the block's HTML. The page stays valid Markdown as it is (`write_pages`,
``python -m agent_loop_sim site``: a raw HTML block between two comments). Under MkDocs,
``hooks/raw_html.py`` takes the blocks out of the Markdown before it is parsed (`split`), leaving
a slot (a comment) for each, and puts them back into the page's HTML (`fill`): first the block as
the search index reads it (without its ``data-search-exclude`` parts, which the search plugin
would skip), then, once the search plugin has read the page, the block itself. MkDocs learns the
block's ids from `Block.ids`, so links to them are still validated.

Why a mark is safe: every text a block or a page quotes is escaped (``html.escape``, or a fence
or a code span), and a mark counts only when the SHA-256 it names is that of the HTML between
it and its end mark: a line of a recording shown in a fence cannot name the digest of what
follows it, which includes itself.
"""
from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass

_DIGEST = 24  # hex digits of SHA-256 in a mark
_BEGIN = re.compile(r"^<!-- conformance-html ([0-9a-f]{%d}) -->\n" % _DIGEST, re.M)
_SLOT = "<!-- conformance-html slot {} -->"
_END = "\n<!-- /conformance-html {} -->"
# An element the search plugin skips, with what it holds. Only for this module's blocks, whose
# excluded elements (a message's body, the eras' section) hold no element of their own tag.
_EXCLUDED = re.compile(r"<(details|section|table)\b[^>]*\sdata-search-exclude\b[^>]*>.*?</\1>", re.S)
# An id attribute as this package writes them: always double-quoted, its value escaped (and no
# text can hold a bare '"': every text is escaped with html.escape).
_ID = re.compile(r'\sid="([^"]*)"')
_TAG = re.compile(r"<[^>]*>")


def _digest(content: str) -> str:
    return hashlib.sha256(content.encode()).hexdigest()[:_DIGEST]


def block(content: str) -> str:
    """``content`` (HTML, every quoted text escaped) as a marked raw HTML block of a page."""
    d = _digest(content)
    return f"<!-- conformance-html {d} -->\n{content}{_END.format(d)}"


@dataclass(frozen=True)
class Block:
    html: str

    @property
    def search(self) -> str:
        """The block as the search index reads it: its excluded elements left out."""
        return _EXCLUDED.sub("", self.html)

    @property
    def ids(self) -> set[str]:
        return {html.unescape(v) for v in _ID.findall(self.html)}


def split(markdown: str) -> tuple[str, list[Block]]:
    """The page's Markdown with a slot in place of each marked block, and the blocks in order."""
    out: list[str] = []
    blocks: list[Block] = []
    at = 0
    for m in _BEGIN.finditer(markdown):
        if m.start() < at:
            continue  # inside a block taken already
        end = markdown.find(_END.format(m.group(1)), m.end())
        if end < 0 or _digest(markdown[m.end():end]) != m.group(1):
            continue  # not a mark this module wrote
        out += [markdown[at:m.start()], _SLOT.format(len(blocks))]
        blocks.append(Block(markdown[m.end():end]))
        at = end + len(_END.format(m.group(1)))
    if not blocks:
        return markdown, []
    out.append(markdown[at:])
    return "".join(out), blocks


def fill(content: str, blocks: list[Block], search: bool) -> str:
    """The page's HTML with each slot filled: with the block as search reads it, or the block."""
    for i, b in enumerate(blocks):
        slot = _SLOT.format(i)
        if content.count(slot) != 1:
            raise ValueError(f"raw HTML block {i} has {content.count(slot)} slots in the page, not one")
        if search:
            content = content.replace(slot, f"{slot}{b.search}{_SLOT.format(f'/{i}')}")
        else:
            start = content.index(slot)
            end = content.index(_SLOT.format(f"/{i}"), start) + len(_SLOT.format(f"/{i}"))
            content = content[:start] + b.html + content[end:]
    return content


def text(value: str) -> str:
    """A text as HTML: shown exactly as written (escaped, control characters as ``\\xNN``, on one line)."""
    from .markdown import visible

    return html.escape(visible(value).replace("\n", " ").replace("\t", " "), quote=False)


def a(url: str, label_html: str) -> str:
    """A link; ``url`` is computed by the page (MkDocs does not rewrite links in raw HTML)."""
    return f'<a href="{html.escape(url)}">{label_html}</a>'


def table(head: list[str], rows: list[list[str]], searched: bool = True) -> str:
    """`table_html` as a marked block (see `block`)."""
    return block(table_html(head, rows, searched))


def table_html(head: list[str], rows: list[list[str]], searched: bool = True) -> str:
    """A table, laid out as Python-Markdown's tables extension writes one (so
    that it looks the same); the head and the cells are HTML already (see `text`). A table of
    sessions is not ``searched``: each session's own page is what a search should find.

    Each cell after a row's first names its column (``data-label``, the head's text): a phone
    shows a row as one block of flowing cells, each after its column's name (conformance.css),
    where a bare "agree none none" would not say which value is which."""
    labels = ["<td>"] + [f'<td data-label="{html.escape(html.unescape(_TAG.sub("", h)), quote=True)}">' for h in head[1:]]
    out = ["<table>" if searched else "<table data-search-exclude>", "<thead>", "<tr>",
           *(f"<th>{h}</th>" for h in head), "</tr>", "</thead>", "<tbody>"]
    for row in rows:
        out += ["<tr>", *(f"{labels[i] if i < len(labels) else '<td>'}{c}</td>" for i, c in enumerate(row)), "</tr>"]
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def code(value: str) -> str:
    """A value as inline code: escaped, on one line."""
    return f"<code>{text(value)}</code>"
