"""MkDocs shows the generated pages' big HTML blocks as they are (`agent_loop_sim.site.parts.rawhtml`):
taken out of the Markdown before it is parsed, put back into the page's HTML after, read by the
search plugin without the parts it would skip. A hook of its own, beside conformance_site.py, so
that the benchmark (P2) can build the same pages prerendered, without the conformance hook."""
from __future__ import annotations

from mkdocs.plugins import event_priority

_blocks: dict = {}  # page (its source path) -> its blocks, from its Markdown to its HTML


def _rawhtml():
    from agent_loop_sim.site.parts import rawhtml  # the current module (`mkdocs serve` may have reloaded it

    return rawhtml


def on_page_markdown(markdown, page, **kwargs):
    markdown, blocks = _rawhtml().split(markdown)
    _blocks[page.file.src_uri] = blocks
    return markdown


def on_page_content(html, page, **kwargs):
    blocks = _blocks.get(page.file.src_uri)
    if not blocks:
        return html
    for b in blocks:  # MkDocs validates links to these anchors as to any other
        page.present_anchor_ids |= b.ids
    return _rawhtml().fill(html, blocks, search=True)


@event_priority(-100)  # after the search plugin has read the page
def on_page_context(context, page, **kwargs):
    blocks = _blocks.pop(page.file.src_uri, None)
    if blocks:
        page.content = _rawhtml().fill(page.content, blocks, search=False)
    return context
