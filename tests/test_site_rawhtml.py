"""The pages' raw HTML blocks (site/parts/rawhtml.py, hooks/raw_html.py): taken out of the Markdown
only when their mark is this package's, given back whole, their ids and their search text the
same as the parsers MkDocs and the search plugin would have found; and every link of the index
tables, written as HTML (which MkDocs does not check), resolves in the built site."""
from __future__ import annotations

import os
import re
import shutil
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from material.plugins.search.plugin import Parser as SearchParser
from mkdocs.structure.pages import _HTMLHandler

from agent_loop_sim.project import Project
from agent_loop_sim.site import render_site
from agent_loop_sim.site.parts import rawhtml
from test_site_fakes import ROOT


def test_a_block_is_taken_out_and_given_back_whole():
    content = '<div class="x" id="a1"><details class="msg-body" open data-search-exclude><summary>2</summary>' \
              '<pre>body</pre></details><p>head &amp; text</p></div>'
    page = "# Title\n\ntext\n\n" + rawhtml.block(content) + "\n\nafter\n"
    markdown, blocks = rawhtml.split(page)
    assert blocks == [rawhtml.Block(content)] and content not in markdown and "after" in markdown
    assert blocks[0].ids == {"a1"}
    assert blocks[0].search == '<div class="x" id="a1"><p>head &amp; text</p></div>'
    rendered = markdown.replace("\n", "")  # stands in for Python-Markdown's HTML: the slot comment kept
    for_search = rawhtml.fill(rendered, blocks, search=True)
    assert blocks[0].search in for_search and "body" not in for_search
    assert rawhtml.fill(for_search, blocks, search=False) == rendered.replace("<!-- conformance-html slot 0 -->", content)


def test_a_mark_counts_only_with_the_digest_of_what_it_marks():
    real = rawhtml.block("<p>kept</p>")
    fake = real.replace("<p>kept</p>", "<p>swapped</p>")  # a recording's line copying a mark, say
    for page in (fake, "```\n" + fake + "\n```"):
        assert rawhtml.split(page) == (page, [])
    markdown, blocks = rawhtml.split(fake + "\n\n" + real)
    assert [b.html for b in blocks] == ["<p>kept</p>"] and "swapped" in markdown


def test_a_slot_missing_from_the_html_is_an_error_not_a_page_without_its_block():
    _, blocks = rawhtml.split(rawhtml.block("<p>x</p>"))
    with pytest.raises(ValueError, match="0 slots"):
        rawhtml.fill("<p>no slot</p>", blocks, search=True)


@pytest.fixture(scope="module")
def blocks() -> list[rawhtml.Block]:
    site = render_site(Project(ROOT))
    assert site.ok, site.explain()
    found = [b for page in site.pages.values() if isinstance(page, str) for b in rawhtml.split(page)[1]]
    assert len(found) > 200  # every session's log, the eras, the index tables
    return found


def _search_sections(content: str) -> list[tuple]:
    """The sections the search plugin indexes from a page that holds ``content`` between two paragraphs."""
    parser = SearchParser()
    parser.feed(f'<h1 id="page">Page</h1><p>before</p>{content}<p>after</p>')
    parser.close()
    return [(repr(s), "".join(s.title).strip(), re.sub(r"\s+", " ", "".join(s.text)).strip(), s.is_excluded())
            for s in parser.data]


def test_each_block_has_the_ids_and_search_text_the_parsers_find(blocks):
    # Every distinct block, once: about half of them are the same HTML on more than one page, and
    # the parsers find the same in the same text.
    for b in dict.fromkeys(blocks):
        handler = _HTMLHandler()  # what MkDocs' anchor validation would have found in the block
        handler.feed(b.html)
        handler.close()
        assert b.ids == handler.present_anchor_ids
        assert _search_sections(b.search) == _search_sections(b.html)  # what the search plugin indexes


def test_where_an_excluded_element_holds_its_own_tag_the_cut_ends_where_the_plugins_exclusion_ends():
    # The plugin matches end tags by name: its exclusion ends at the first end tag of that name, and
    # so does the pattern that cuts the search text.
    for tag in ("details", "section"):
        nested = rawhtml.Block(f'<{tag} data-search-exclude><{tag}><p>in</p></{tag}><p>out</p></{tag}><p>x</p>')
        assert "in" not in nested.search and _search_sections(nested.search) == _search_sections(nested.html)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])
        if attrs.get("id"):
            self.ids.add(attrs["id"])


def _parsed(page: Path) -> _Links:
    """The links and ids of a built page, parsed once: every table links the same session pages
    again and again. Keyed by the file's identity and time, so a page edited since is read afresh."""
    stat = page.stat()
    return _parsed_file(str(page), stat.st_ino, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=None)
def _parsed_file(page: str, inode: int, mtime_ns: int, size: int) -> _Links:
    links = _Links()
    text = Path(page).read_text()
    links.feed(text[text.index("<article"):text.index("</article>")] if "<article" in text else text)
    return links


def broken_links(site: Path, page: str) -> list[str]:
    """The links of ``page``'s tables (a page of the built site) that lead to no built page, or to
    an anchor the page they lead to does not have."""
    text = (site / page).read_text()
    tables = "".join(re.findall(r"<table\b.*?</table>", text, re.S))
    links = _Links()
    links.feed(tables)
    broken = []
    base = "http://site/" + page.removesuffix("index.html")
    for href in links.hrefs:
        url = urlsplit(urljoin(base, href))
        if url.netloc != "site":
            continue
        target = site / unquote(url.path).lstrip("/")
        target = target / "index.html" if url.path.endswith("/") else target
        if not target.is_file() or (url.fragment and unquote(url.fragment) not in _parsed(target).ids):
            broken.append(href)
    return broken


INDEX_TABLES = ["mcp/features/index.html", "mcp/modes/index.html", "mcp/releases/index.html",
                "a2a/features/index.html", "a2a/modes/index.html", "a2a/releases/index.html"]


@pytest.fixture(scope="module")
def site(site_build) -> Path:
    _, site_dir, done = site_build
    assert done.returncode == 0, done.stderr
    return site_dir


def test_every_link_in_the_html_tables_leads_to_a_built_page_and_anchor(site):
    for page in INDEX_TABLES:
        text = (site / page).read_text()
        assert "<table" in text and 'href="../sessions/' in text, page
        assert broken_links(site, page) == [], page


def test_a_broken_link_in_a_table_is_found(site, tmp_path):
    # A hard-linked copy (the built site is large); each page edited below is unlinked first,
    # so the shared build stays as it was.
    copy = tmp_path / "site"
    shutil.copytree(site, copy, copy_function=os.link)
    page = copy / "mcp" / "features" / "index.html"
    text = page.read_text()
    page.unlink()
    first = re.search(r'<td><a href="(\.\./sessions/[^"]+/)"', text).group(1)
    page.write_text(text.replace(f'<td><a href="{first}"', '<td><a href="../sessions/no_such_session/"', 1))
    assert broken_links(copy, "mcp/features/index.html") == ["../sessions/no_such_session/"]
    releases = copy / "mcp" / "releases" / "index.html"
    text = releases.read_text()
    releases.unlink()
    anchor = re.search(r'<td data-label="Cause"><a href="#(change-[^"]+)"', text)
    assert anchor, "the releases page links a cause to its change, on the same page"
    releases.write_text(text.replace(anchor.group(0), '<td data-label="Cause"><a href="#change-no-such"', 1))
    assert broken_links(copy, "mcp/releases/index.html") == ["#change-no-such"]
