"""The built site in a real browser: headless Chromium (Debian's), driven by Playwright.

The site is built once (``test_site_fakes.built_site``: a copy of the checkout, MkDocs, an
engine that replays the recordings), served on 127.0.0.1 on a free port, and read the way a
person would: every session page, the search box, both palettes, and a site built from a
recording full of markup.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Iterator

import pytest
import yaml

from agent_loop_sim.project import Project
from agent_loop_sim.site import render_site, write_pages
from conftest import CHROMIUM
from test_site_fakes import MKDOCS, ROOT, recorded_sessions, replay

OUTPUT = Path(__file__).parent / "output"

playwright_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (scripts/ensure_chromium.sh installs it)", allow_module_level=True)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # noqa: ANN002
        pass


SERVED: set[str] = set()  # the origins of the sites these tests serve


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    SERVED.add(origin)
    return server, origin


@pytest.fixture(scope="session")
def site(site_build) -> tuple[Path, Path]:
    project, site_dir, done = site_build
    assert done.returncode == 0, done.stderr
    return project, site_dir


@pytest.fixture(scope="session")
def origin(site) -> Iterator[str]:
    server, url = serve(site[1])
    yield url
    server.shutdown()


@pytest.fixture
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


# Per message of the wire log (of the page, or of a parsed document): its number, parties, lane, and its body's code (JSON lines).
MESSAGES_JS = """(root) => [...(root || document).querySelectorAll('.wirelog section.msg')].map(m => {
  const code = m.querySelector('pre > code');
  return {id: m.id, lane: m.classList.contains('lane-a') ? 'a' : 'b',
          parties: m.querySelector('.msg-dir').textContent, what: m.querySelector('.msg-what').textContent,
          head: m.querySelector('.msg-head').textContent,
          lines: code ? code.querySelectorAll('span.l').length : -1, tokens: code ? code.querySelectorAll('span[class]:not(.l)').length : -1,
          code: code ? code.textContent : null, lang: code ? code.className : null};
})"""


#: Fetch session pages and parse each with the browser's own HTML parser (``DOMParser``: no
#: scripts run, nothing else is loaded, no page is laid out), then read its messages as
#: ``MESSAGES_JS`` reads a page: the DOM a reader's browser builds, each page's whole cost a parse (loaded
#: one by one, the pages took minutes).
PARSED_MESSAGES_JS = """async (urls) => {
  const read = """ + MESSAGES_JS + """;
  return Promise.all(urls.map(async url => {
    const response = await fetch(url);
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
    return {status: response.status, messages: read(doc)};
  }));
}"""


def test_every_session_page_shows_its_messages_in_order_highlighted(site, origin, page):
    project, _ = site
    every = recorded_sessions(project / "recordings")
    names = sorted(every)
    page.goto(f"{origin}/404.html", wait_until="commit")  # (the site's origin, for fetch)
    urls = [f"{origin}/{'a2a' if name.startswith('a2a') else 'mcp'}/sessions/{name}/" for name in names]
    for name, read in zip(names, page.evaluate(PARSED_MESSAGES_JS, urls)):
        transcript, shown = every[name], read["messages"]
        assert read["status"] == 200, name
        assert [m["id"] for m in shown] == [f"m{n}" for n in range(1, len(transcript.messages) + 1)], name
        for n, (m, message) in enumerate(zip(shown, transcript.messages), 1):
            assert m["parties"] == f"{message.sender} → {message.receiver}", (name, m)
            if message.is_raw:  # as it is, or as a JSON string when it holds blanks or controls
                assert m["code"].rstrip("\n") in (message.raw, json.dumps(message.raw, ensure_ascii=False)), (name, n)
            elif message.json is not None:
                assert m["tokens"] > 0 and "language-json" in m["lang"], (name, n)  # coloured tokens
                assert json.loads(m["code"]) == message.json and m["lines"] == m["code"].count("\n") + 1, (name, n)


def test_without_scripts_every_body_is_unfolded(origin, page):
    page.context.new_cdp_session(page).send("Emulation.setScriptExecutionDisabled", {"value": True})
    page.goto(f"{origin}/mcp/sessions/modern_tour/", wait_until="domcontentloaded")
    bodies = page.locator("details.msg-body")
    assert bodies.count() > 0 and page.locator("details.msg-body:not([open])").count() == 0
    assert page.locator("#m2 .msg-body pre").is_visible()


def test_a_long_message_is_folded_and_opens_on_click(origin, page):
    page.goto(f"{origin}/mcp/sessions/modern_tour/")
    body = page.locator("#m2 details.msg-body")  # tools/list: the 3,900 px message of issue 12
    page.wait_for_function("document.querySelector('#m2 details.msg-body').open === false")
    assert not page.locator("#m2 .msg-body pre").is_visible()
    assert page.locator("#m2").bounding_box()["height"] < 200
    body.locator("summary").click()
    assert body.evaluate("d => d.open") and page.locator("#m2 .msg-body pre").is_visible()
    assert page.evaluate("[...document.querySelectorAll('details.msg-body:not([data-fold])')].every(d => d.open)")
    page.get_by_role("button", name="Collapse all").click()
    assert page.locator("details.msg-body[open]").count() == 0
    page.get_by_role("button", name="Expand all").click()
    assert page.locator("details.msg-body:not([open])").count() == 0


def test_the_reply_link_jumps_to_the_request_and_back(origin, page):
    page.goto(f"{origin}/mcp/sessions/legacy_tour/")
    call = page.locator("section.msg", has=page.locator(".msg-what", has_text="tools/call")).first
    request_id = call.get_attribute("id")
    reply_link = call.locator("a.msg-rel").first
    reply_id = reply_link.get_attribute("href").lstrip("#")
    reply_link.click()
    page.wait_for_function(f"location.hash === '#{reply_id}'")
    assert page.locator(f"#{reply_id} .msg-what").inner_text() == "result of tools/call"
    page.locator(f"#{reply_id} a.msg-rel").click()
    page.wait_for_function(f"location.hash === '#{request_id}'")
    box = page.locator(f"#{request_id}").bounding_box()
    assert 0 <= box["y"] < page.viewport_size["height"]  # scrolled to it


def test_a2a_stream_events_each_say_what_they_are(origin, page):
    page.goto(f"{origin}/a2a/sessions/a2a_stream/")
    heads = page.evaluate("[...document.querySelectorAll('section.msg')].filter(m => m.querySelector('.sse'))"
                          ".map(m => m.querySelector('.msg-head').textContent)")
    assert len(heads) == 5 and len(set(heads)) == 5, heads


def _search(page, words: str) -> list[str]:
    """What the search box finds for ``words``, typed as a reader types them: the box emptied
    first (its results go), so that the results read are this query's (one page load, one index
    built by the search worker, for every query)."""
    box = page.locator("input.md-search__input")
    results = page.locator(".md-search-result__item a, a.md-search-result__link")
    box.click()
    box.fill("")
    page.wait_for_function("document.querySelectorAll('.md-search-result__item').length === 0")
    page.keyboard.type(words)
    results.first.wait_for(timeout=30_000)
    page.wait_for_timeout(300)
    return [results.nth(i).get_attribute("href") or "" for i in range(results.count())]


def test_search_finds_protocol_words(origin, page):
    page.goto(f"{origin}/")
    for words in ("isError", "structuredContent", "tools/call", "TASK_STATE_INPUT_REQUIRED", "a2a_versions", "32600"):
        hrefs = _search(page, words)
        assert any("/sessions/" in h for h in hrefs), (words, hrefs)
    with_minus = _search(page, "-32600")  # Lunr would read "-" as "without"
    assert any("/sessions/" in h for h in with_minus)
    assert page.locator("input.md-search__input").input_value() == "32600"


def test_an_evidence_link_highlights_its_line(origin, page):
    page.goto(f"{origin}/findings/")
    link = page.locator("article a[href*='#m'][href*=':/']").first  # (an evidence link, not a spec's URL)
    href = link.get_attribute("href")
    path = href.split("#", 1)[1].split(":", 1)[1]
    link.click()
    page.wait_for_function("document.querySelector('.wirelog .l.hl') !== null")
    marked = page.locator(".wirelog .l.hl").first
    assert marked.is_visible()
    key = path.rstrip("/").split("/")[-1].replace("~1", "/").replace("~0", "~")
    assert f'"{key}"' in marked.inner_text() or key.isdigit(), (href, marked.inner_text())
    # Marked in the HTML too: the line has the fragment as its id (so :target works without scripts).
    target = page.evaluate("decodeURIComponent(location.hash.slice(1))")
    assert page.evaluate("id => document.getElementById(id) !== null", target)
    background = marked.evaluate("el => getComputedStyle(el).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")


PHONE_PAGES = ("", "results/", "findings/", "coverage/", "mcp/", "a2a/", "mcp/features/", "a2a/modes/",
               "mcp/sessions/legacy_tour/", "a2a/sessions/a2a_versions/", "a2a/sessions/a2a_stream/",
               "mcp/eras/tour/", "mcp/releases/", "servers/")

SIDEWAYS_JS = """() => {
  const inCode = el => el.closest('pre, code');
  const wide = [...document.querySelectorAll('article *')].filter(el => {
    const s = getComputedStyle(el);
    return el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(s.overflowX) && !inCode(el);
  }).map(el => el.tagName + '.' + el.className);
  return {page: document.documentElement.scrollWidth - window.innerWidth, wide};
}"""


def test_at_390_px_no_page_scrolls_sideways_except_code(origin, page):
    page.set_viewport_size({"width": 390, "height": 844})
    for path in PHONE_PAGES:
        response = page.goto(f"{origin}/{path}")
        assert response and response.ok, path
        found = page.evaluate(SIDEWAYS_JS)
        assert found["page"] <= 0 and not found["wide"], (path, found)


# What a table of sessions shows of its head and of its second row's cells: a phone names each
# value's column before it (rawhtml.table's data-label, conformance.css), a desktop has the head.
LABELS_JS = """() => { const table = document.querySelector('article table:has(td[data-label])');
  const cells = [...table.querySelectorAll('tbody tr')[1].querySelectorAll('td')];
  return {head: getComputedStyle(table.querySelector('thead')).display,
          before: cells.map(td => getComputedStyle(td, '::before').content)}; }"""


@pytest.mark.parametrize("path, labels", [
    ("mcp/releases/", ["Scenario file", "2.3.0 and 2.2.0", "Messages that differ", "Cause"]),
    ("mcp/features/", ["Messages", "Result", "What it shows"])])
def test_on_a_phone_a_table_of_sessions_names_each_values_column(origin, page, path, labels):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{origin}/{path}")
    shown = page.evaluate(LABELS_JS)
    assert shown == {"head": "none", "before": ["none"] + [f'"{label}: "' for label in labels]}, shown
    page.set_viewport_size({"width": 1400, "height": 900})
    shown = page.evaluate(LABELS_JS)
    assert shown == {"head": "table-header-group", "before": ["none"] * (len(labels) + 1)}, shown


def test_at_1400_px_tables_hide_nothing(origin, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    for path in ("", "results/", "a2a/", "mcp/", "mcp/features/", "coverage/"):
        page.goto(f"{origin}/{path}")
        hidden = page.evaluate("""() => [...document.querySelectorAll('article .md-typeset__scrollwrap, article table')]
            .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.tagName)""")
        assert not hidden, (path, hidden)
        tabs = page.evaluate("""() => { const t = document.querySelector('.md-tabs__list');
            return t ? t.scrollWidth - t.clientWidth : 0 }""")
        assert tabs <= 0, path


# Coverage: a cell's sessions past the first few are folded, not cut; opening the fold (no script
# needed) shows every one of them as a link to its page.
FOLD_JS = """() => { const d = document.querySelector('article details.more-sessions');
  const links = [...d.querySelectorAll('a')];
  return {open: d.open, summary: d.querySelector('summary').textContent,
          visible: links.filter(a => a.getClientRects().length > 0).length, links: links.length}; }"""


def test_coverage_folds_open_onto_every_session(origin, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.context.new_cdp_session(page).send("Emulation.setScriptExecutionDisabled", {"value": True})
    page.goto(f"{origin}/coverage/", wait_until="domcontentloaded")
    closed = page.evaluate(FOLD_JS)
    assert not closed["open"] and closed["visible"] == 0 and closed["summary"] == f"and {closed['links']} more"
    page.locator("article details.more-sessions > summary").first.click()
    opened = page.evaluate(FOLD_JS)
    assert opened["open"] and opened["visible"] == opened["links"] > 0
    page.context.new_cdp_session(page).send("Emulation.setScriptExecutionDisabled", {"value": False})


def test_the_task_life_cycle_is_a_diagram_above_its_table(origin, page):
    page.goto(f"{origin}/a2a/")
    svg = page.locator("figure.lifecycle svg")
    assert svg.count() == 1 and svg.bounding_box()["width"] > 300
    for state in ("completed", "canceled", "failed", "rejected", "submitted", "working"):
        assert state in svg.text_content()
    assert page.evaluate("""() => { const f = document.querySelector('figure.lifecycle');
        const t = [...document.querySelectorAll('article table')].find(t => t.textContent.includes('SubscribeToTask'));
        return !!t && !!(f.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING) }""")


def test_session_pages_link_exports_and_repository_files(origin, page):
    import urllib.parse

    page.goto(f"{origin}/a2a/sessions/a2a_stream/")
    hrefs = page.evaluate("[...document.querySelectorAll('article a')].map(a => a.href)")
    assert f"{origin}/exports/a2a/a2a_stream.jsonl" in hrefs and f"{origin}/exports/a2a/a2a_stream.har" in hrefs
    # The project has no public home configured (mkdocs.yml's repo_url): the files are named, and
    # no link leads into a made-up repository (site/pages/conformance.py's repo_link when one is set).
    assert not yaml.safe_load((ROOT / "mkdocs.yml").read_text()).get("repo_url")
    assert not [h for h in hrefs if "/blob/" in h or "github.com" in h]
    files = page.locator("article li", has_text="Files:").first.text_content()
    assert "recordings/a2a_sdk_exchanges.json" in files and "scenarios/a2a.json" in files
    assert page.locator(".md-source").count() == 0  # nor does the header link a forge
    page.goto(f"{origin}/results/")
    hrefs = page.evaluate("[...document.querySelectorAll('article a')].map(a => a.href)")
    assert f"{origin}/conformance.json" in hrefs and f"{origin}/conformance.junit.xml" in hrefs
    for href in hrefs:  # whatever exists of the exports on this branch is where the links say
        if href.startswith(origin + "/exports/") or href.endswith(".junit.xml"):
            path = urllib.parse.urlsplit(href).path
            exists = (page.request.get(href).status == 200)
            assert exists or not any((ROOT / "agent_loop_sim").rglob("exports.py")), path


def test_spec_departures_link_the_specification(origin, page):
    page.goto(f"{origin}/findings/")
    section = page.locator("article h2", has_text="departs").first
    assert section.count() == 1
    links = page.evaluate("""() => [...document.querySelectorAll('article a')].map(a => a.href)
        .filter(h => h.includes('jsonrpc.org') || h.includes('modelcontextprotocol.io') || h.includes('a2a-protocol.org'))""")
    assert len(links) >= 9 and all("#" in h for h in links)


# The session and era pages scrolled to their logs and rows (their heads are plain text); the
# index and release pages to their HTML tables of sessions.
SHOTS = {"home": "", "session": "a2a/sessions/a2a_stream/#m3", "era": "mcp/eras/tour/#a2",
         "features": "mcp/features/#f-tools", "releases": "mcp/releases/",
         "release-pair": "mcp/releases/2.2.0/legacy_tour/#m2", "architecture": "architecture/#what-flows-where"}


def test_screenshots_light_and_dark_desktop_and_phone(origin, page):
    """tests/output/<page>-<light|dark>-<desktop|phone>.png, for a person to look at."""
    OUTPUT.mkdir(exist_ok=True)
    for device, size in (("desktop", {"width": 1400, "height": 900}), ("phone", {"width": 390, "height": 844})):
        page.set_viewport_size(size)
        for name, path in SHOTS.items():
            page.goto(f"{origin}/{path}")
            light_and_dark(page, name, device)


def light_and_dark(page, name: str, device: str) -> None:
    """The page as it is, in the light palette, then the dark one (the header's switch), each written
    to tests/output/<name>-<light|dark>-<device>.png."""
    for scheme in ("default", "slate"):
        if page.evaluate("document.body.getAttribute('data-md-color-scheme')") != scheme:
            page.locator("form[data-md-component='palette'] label:visible").first.click()
            page.wait_for_function(f"document.body.getAttribute('data-md-color-scheme') === '{scheme}'")
        shot = OUTPUT / f"{name}-{'light' if scheme == 'default' else 'dark'}-{device}.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000


def test_no_request_leaves_the_sites_origin(origin, browser, page):
    """Every request of this browser so far (all the tests above) and of a few more pages."""
    for path in ("", "findings/", "results/", "mcp/", "a2a/", "mcp/features/", "mcp/eras/tour/",
                 "a2a/sessions/a2a_versions/", "servers/", "reference/engine/"):
        page.goto(f"{origin}/{path}", wait_until="networkidle")
    outside = [url for url in browser.requests if not any(url.startswith(o + "/") for o in SERVED)]
    assert not outside
    assert any(url.startswith(origin + "/assets/") for url in browser.requests)  # Material's own files
    assert len(browser.requests) > 20


# --- a site built from a recording full of markup ---------------------------------------------

HOSTILE = "</code></pre><script>window.__xss = 1</script><img src=x onerror=\"window.__xss = 2\">"


def hostile_project(root: Path) -> Path:
    (root / "scenarios").mkdir(parents=True)
    (root / "recordings").mkdir()
    title = "A <script>window.__xss = 3</script> title"
    (root / "scenarios" / "hostile.json").write_text(json.dumps({"recording": "hostile.json", "sessions": [
        {"name": "raw_hostile", "family": "mcp", "title": title, "mode": "raw", "lines": ["x"]}]}))
    messages = [
        {"from": "client", "to": "server", "sse": False, "raw": HOSTILE},
        {"from": "client", "to": "server", "sse": False, "json": {"jsonrpc": "2.0", "id": "c1", "method": HOSTILE}},
        {"from": "server", "to": "client", "sse": True,
         "json": {"jsonrpc": "2.0", "id": "c1", "result": {HOSTILE: "</details></div>" + HOSTILE}}},
    ]
    (root / "recordings" / "verdicts").mkdir()
    (root / "recordings" / "verdicts" / "wire_types.json").write_text(json.dumps({"sessions": {"raw_hostile": [
        {"verdict": "invalid", "against": HOSTILE, "detail": HOSTILE}] * len(messages)}}))
    (root / "recordings" / "hostile.json").write_text(json.dumps({
        "family": "mcp", "sdk": {"package": "mcp", "version": "2.3.0"}, "transport": "stdio",  # checked metadata
        "scenarios": "scenarios/hostile.json",
        "sessions": [{"name": "raw_hostile", "mode": "raw", "title": title,
                      "messages": [dict(m, n=i) for i, m in enumerate(messages, 1)]}]}))
    return root


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory) -> Iterator[str]:
    """Pages from the site module (fake engine, no findings), built by MkDocs without the hook."""
    root = hostile_project(tmp_path_factory.mktemp("hostile") / "project")
    sessions = recorded_sessions(root / "recordings")
    site = render_site(Project(root), replay(sessions), findings=(), reference=False, coverage_required=False)
    assert site.ok, site.explain()
    write_pages(site, root / "docs")
    server, url = serve(build_without_hook(root, site.nav))
    yield url
    server.shutdown()


def build_without_hook(root: Path, nav: list) -> Path:
    """MkDocs, strict, on the Markdown in ``root/docs`` with the site's own config, stylesheets and
    scripts, but no hook and no other plugin than search; the built folder."""
    docs = root / "docs"
    for assets in ("stylesheets", "javascripts"):
        shutil.copytree(ROOT / "docs" / assets, docs / assets)
    shutil.copytree(ROOT / "overrides", root / "overrides")  # its repository link makes no API request
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    for key in ("hooks", "watch"):
        config.pop(key, None)
    config.update(plugins=["search"], nav=nav, docs_dir="docs", site_dir="site")
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config))
    done = subprocess.run([MKDOCS, "build", "--strict"], cwd=root, capture_output=True, text=True,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), timeout=300)
    assert done.returncode == 0, done.stderr
    return root / "site"


def test_recorded_markup_renders_as_text(hostile_site, page):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for path in ("mcp/sessions/raw_hostile/", "", "mcp/"):
        page.goto(f"{hostile_site}/{path}", wait_until="networkidle")
        assert page.evaluate("window.__xss") is None, path
        injected = page.evaluate("[...document.querySelectorAll('script')].filter(s => s.textContent.includes('__xss')).length")
        assert injected == 0 and page.locator("img[src='x']").count() == 0, path
    page.goto(f"{hostile_site}/mcp/sessions/raw_hostile/", wait_until="networkidle")
    shown = page.evaluate(MESSAGES_JS)
    assert [m["id"] for m in shown] == ["m1", "m2", "m3"]
    assert shown[0]["code"].rstrip("\n") == HOSTILE
    assert HOSTILE in shown[1]["what"] and json.loads(shown[1]["code"])["method"] == HOSTILE
    assert json.loads(shown[2]["code"])["result"] == {HOSTILE: "</details></div>" + HOSTILE}
    assert "window.__xss = 3" in page.locator("article").inner_text()
    assert not dialogs


# --- an A2A session with its HTTP envelope ----------------------------------------------------

def http_transcript():
    """a2a_versions' first exchanges as the recorder writes them with the HTTP envelope: the same
    body twice, one A2A-Version refused and one served."""
    from agent_loop_sim.transcript import Message, Transcript

    body = {"id": 1, "jsonrpc": "2.0", "method": "SendMessage",
            "params": {"message": {"messageId": "<id-1>", "parts": [{"text": "summarise the roadmap"}], "role": "ROLE_USER"}}}
    envelopes = [
        ({"method": "POST", "path": "/a2a", "headers": [["Content-Type", "application/json"], ["A2A-Version", "0.3"]]}, body),
        ({"status": 200, "headers": [["Content-Type", "application/json"]]},
         {"error": {"code": -32009, "message": "A2A version 0.3 is not supported"}, "id": 1, "jsonrpc": "2.0"}),
        ({"method": "POST", "path": "/a2a", "headers": [["Content-Type", "application/json"], ["A2A-Version", "1.0.1"]]},
         dict(body, id=2)),
        ({"status": 200, "headers": [["Content-Type", "application/json"]]},
         {"id": 2, "jsonrpc": "2.0", "result": {"task": {"id": "<id-2>", "status": {"state": "TASK_STATE_COMPLETED"}}}}),
        ({"method": "GET", "path": "/.well-known/agent-card.json", "headers": [["If-None-Match", 'W/"abc"']]}, None),
        ({"status": 304, "headers": [["ETag", 'W/"abc"']]}, None),
    ]
    messages = []
    for i, (http, j) in enumerate(envelopes):
        m = Message("orchestrator" if i % 2 == 0 else "agent", "agent" if i % 2 == 0 else "orchestrator", json=j)
        m.http = http  # what the recordings carry beside "json" (the shared convention)
        messages.append(m)
    return Transcript("a2a_versions", "jsonrpc", "The A2A-Version header", messages)


@pytest.fixture(scope="session")
def http_site(tmp_path_factory) -> Iterator[str]:
    from agent_loop_sim.check import Report, SessionResult
    from agent_loop_sim.site.pages.conformance import Context, render_session

    root = tmp_path_factory.mktemp("http-site")
    t = http_transcript()
    s = SessionResult(t.name, "a2a", "recordings/a.json", "scenarios/a.json", t, t)
    ctx = Context(Report((type("F", (), {"sessions": (s,), "family": "a2a"})(),)), [])
    file = type("F", (), {"sdk": {"package": "a2a-sdk", "version": "1.2.2"}, "transport": "http"})()
    docs = root / "docs"
    (docs / "a2a" / "sessions").mkdir(parents=True)
    (docs / "a2a" / "sessions" / "a2a_versions.md").write_text(render_session(ctx, s, file))
    (docs / "index.md").write_text("# HTTP envelope\n")
    from agent_loop_sim.exports import har_path, jsonl_path, transcript_har, transcript_jsonl

    (docs / "exports" / "a2a").mkdir(parents=True)  # the session page links its exports
    (docs / jsonl_path("a2a", t.name)).write_text(transcript_jsonl(t))
    (docs / har_path(t.name)).write_text(transcript_har(t, "https://research.example.com", "0"))
    server, url = serve(build_without_hook(root, ["index.md", "a2a/sessions/a2a_versions.md"]))
    yield url
    server.shutdown()


def _envelopes(page) -> list[str]:
    return page.evaluate("[...document.querySelectorAll('section.msg')].map(m => "
                         "(m.querySelector('.msg-http') || {innerText: ''}).innerText)")


def test_a2a_versions_shows_the_differing_header(http_site, page):
    page.goto(f"{http_site}/a2a/sessions/a2a_versions/")
    shown = _envelopes(page)
    assert "POST /a2a" in shown[0] and "A2A-Version: 0.3" in shown[0]
    assert "A2A-Version: 1.0.1" in shown[2] and "0.3" not in shown[2]
    assert "HTTP 200" in shown[1] and "Content-Type: application/json" in shown[1]
    assert "If-None-Match" in shown[4] and "HTTP 304" in shown[5] and "ETag" in shown[5]
    assert page.locator("#m1 .msg-http").is_visible() and page.locator("#m3 .msg-http").is_visible()
    # The same body, refused and served: the header is what differs, and both are on screen.
    assert page.locator("#m2 .msg-what").inner_text().startswith("error -32009")
    assert page.locator("#m4 .msg-what").inner_text() == "result of SendMessage"
    assert page.locator("#m6 .msg-links a").get_attribute("href") == "#m5"  # the 304 answers the GET


def test_a2a_versions_in_the_real_site_shows_its_headers_when_recorded(site, origin, page):
    """Once the recordings carry the HTTP envelope (the httplog branch), the real page shows it."""
    recording = json.loads((site[0] / "recordings" / "a2a_sdk_exchanges_more.json").read_text())
    session = next(s for s in recording["sessions"] if s["name"] == "a2a_versions")
    if not any("http" in m for m in session["messages"]):
        pytest.skip("the recordings have no HTTP envelope yet")
    page.goto(f"{origin}/a2a/sessions/a2a_versions/")
    shown = " ".join(_envelopes(page))
    versions = {v for m in session["messages"] for k, v in (m.get("http") or {}).get("headers", []) if k == "A2A-Version"}
    assert versions and all(f"A2A-Version: {v}" in shown for v in versions if v)


# Per word of each code span of the era page's actions: how many line boxes it takes (1: unbroken).
BROKEN_WORDS_JS = """() => [...document.querySelectorAll('.era-action code')].flatMap(code => {
  const text = code.firstChild, out = [];
  if (!text || text.nodeType !== Node.TEXT_NODE) return out;
  for (const m of text.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) out.push(m[0]);
  }
  return out; })"""


def test_the_era_page_says_what_its_sessions_run_and_marks_requests(origin, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{origin}/mcp/eras/tour/")
    assert "Not one scenario." in page.locator("article").inner_text()
    ping = page.locator("#a2")
    absent = ping.locator(".era-absent")
    assert absent.count() == 2 and absent.first.inner_text() == "not in this era's session"
    assert absent.first.evaluate("el => getComputedStyle(el).fontStyle") == "italic"  # set apart from "not sent by the client"
    # The modern request is marked where it differs from legacy's: its params carry the _meta envelope.
    request = page.locator("#a3 .era-cell[data-era='modern_tour'] li").first
    assert "tools/list" in request.inner_text()
    assert request.locator(".era-paths mark code").first.inner_text() == "$.params"
    for width in (1400, 390):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate(BROKEN_WORDS_JS) == [], width  # "argumen ts" no more
    page.goto(f"{origin}/mcp/eras/progress/")
    assert "One scenario, played" in page.locator("article").inner_text()


def test_every_release_difference_is_one_click_from_its_side_by_side(origin, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{origin}/mcp/releases/")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 6000, height  # folded: the changes first, not 422 rows (34,735 px before)
    folds = page.locator("details.release-fold")
    from agent_loop_sim.protocols.mcp.releases import MCP_RELEASES  # (one fold for every difference, one for each change)
    assert folds.count() == 1 + len(MCP_RELEASES.changes) and page.locator("details.release-fold[open]").count() == 0
    links = page.locator("details.release-fold").first.locator("a[href*='2.2.0/']")
    counted = re.search(r"they differ in ([\d,]+) messages", page.locator("article").inner_text())
    assert counted and links.count() == int(counted[1].replace(",", ""))  # every difference the page counts, a link
    folds.nth(1).locator("summary").click()
    link = folds.nth(1).locator("a[href*='#m']").first
    target = link.get_attribute("href")
    link.click()  # one click: the pair's page, at the pair
    anchor = target.rsplit("#", 1)[1]
    page.wait_for_function(f"location.hash === '#{anchor}' && location.pathname.includes('/releases/2.2.0/')")
    pair = page.locator(f"#{anchor}")
    sides = pair.locator(".pair-side")
    assert sides.count() == 2
    left, right = sides.nth(0).bounding_box(), sides.nth(1).bounding_box()
    assert abs(left["y"] - right["y"]) < 2 and right["x"] > left["x"] + left["width"] - 1  # side by side
    marked = pair.locator(".l.hl")
    assert marked.count() >= 1 and marked.first.is_visible()
    assert marked.first.evaluate("el => getComputedStyle(el).backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
    page.set_viewport_size({"width": 390, "height": 844})
    left, right = sides.nth(0).bounding_box(), sides.nth(1).bounding_box()
    assert right["y"] >= left["y"] + left["height"] - 1  # one above the other on a phone


def test_the_architecture_diagram_is_not_cut_off(origin, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{origin}/architecture/")
    code = page.locator("article pre").first
    assert "hooks/" in code.inner_text()
    assert code.evaluate("el => el.querySelector('code').scrollWidth <= el.querySelector('code').clientWidth")


def test_by_feature_groups_unknown_methods_once(origin, page):
    page.goto(f"{origin}/mcp/features/")
    headings = page.locator("article h2").all_inner_texts()
    assert any(h.startswith("unknown methods") for h in headings)
    assert not any(h.split("¶")[0].strip() in ("no", "whatever") for h in headings)
    page.goto(f"{origin}/a2a/features/")
    headings = [h.split("¶")[0].strip() for h in page.locator("article h2").all_inner_texts()]
    assert "unknown methods" in headings and "tasks" not in headings
