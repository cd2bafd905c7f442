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
from test_site_fakes import MKDOCS, ROOT, built_site, recorded_sessions, replay

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
def site(tmp_path_factory) -> tuple[Path, Path]:
    project, site_dir, done = built_site(tmp_path_factory.getbasetemp() / "site-build")
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


# Per message heading (h2#mN): its number, and the first code block after it: highlighted?
MESSAGES_JS = """() => [...document.querySelectorAll('article h2[id^="m"]')].map(h => {
  let el = h.nextElementSibling;
  while (el && !(el.matches('div.highlight') || el.matches('h2'))) el = el.nextElementSibling;
  const block = el && el.matches('div.highlight') ? el : null;
  return {id: h.id, text: h.textContent, spans: block ? block.querySelectorAll('code span[class]').length : -1,
          code: block ? block.querySelector('code').textContent : null,
          lang: block ? block.className : null};
})"""


def test_every_session_page_shows_its_messages_in_order_highlighted(site, origin, page):
    project, _ = site
    sessions = recorded_sessions(project / "recordings")
    # The messages are in the HTML itself; without scripts, Material does not start its search
    # worker (which indexes the whole site) on each of these page loads.
    page.context.new_cdp_session(page).send("Emulation.setScriptExecutionDisabled", {"value": True})
    for name, transcript in sessions.items():
        family = "a2a" if name.startswith("a2a") else "mcp"
        page.goto(f"{origin}/{family}/sessions/{name}/", wait_until="domcontentloaded")
        shown = page.evaluate(MESSAGES_JS)
        assert [m["id"] for m in shown] == [f"m{n}" for n in range(1, len(transcript.messages) + 1)], name
        for n, (m, message) in enumerate(zip(shown, transcript.messages), 1):
            assert m["text"].startswith(f"{n}. {message.sender} → {message.receiver}"), (name, m["text"])
            if message.is_raw:  # as it is, or as a JSON string when Markdown would change it
                assert m["code"].rstrip("\n") in (message.raw, json.dumps(message.raw, ensure_ascii=False)), (name, n)
            else:
                assert m["spans"] > 0 and "language-json" in m["lang"], (name, n)  # pygments spans
                assert json.loads(m["code"]) == message.json, (name, n)


def test_search_finds_a_method_name(origin, page):
    page.goto(f"{origin}/")
    page.locator("input.md-search__input").click()
    page.keyboard.type("tools/call")
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=30_000)
    hrefs = [results.nth(i).get_attribute("href") for i in range(min(results.count(), 10))]
    assert any("/sessions/" in (h or "") for h in hrefs), hrefs


def test_the_palettes_toggle_and_screenshots(origin, page):
    OUTPUT.mkdir(exist_ok=True)
    for path, name in (("", "overview"), ("mcp/sessions/legacy_tour/", "session")):
        page.goto(f"{origin}/{path}")
        if name == "session":  # Material's copy button on every code block
            page.locator("button.md-code__button").first.wait_for()
            assert page.locator("button.md-code__button").count() >= page.locator("article h2[id^='m']").count()
        for scheme in ("default", "slate"):
            if page.evaluate("document.body.getAttribute('data-md-color-scheme')") != scheme:
                page.locator("form[data-md-component='palette'] label:visible").first.click()
                page.wait_for_function(f"document.body.getAttribute('data-md-color-scheme') === '{scheme}'")
            page.screenshot(path=str(OUTPUT / f"{name}-{'light' if scheme == 'default' else 'dark'}.png"))
    for name in ("overview", "session"):
        for scheme in ("light", "dark"):
            assert (OUTPUT / f"{name}-{scheme}.png").stat().st_size > 10_000


def test_no_request_leaves_the_sites_origin(origin, browser, page):
    """Every request of this browser so far (all the tests above) and of a few more pages."""
    for path in ("", "findings/", "mcp/", "mcp/eras/tour/", "servers/", "reference/engine/"):
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
    docs = root / "docs"
    write_pages(site, docs)
    shutil.copytree(ROOT / "docs" / "stylesheets", docs / "stylesheets")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    for key in ("hooks", "watch"):
        config.pop(key, None)
    config.update(plugins=["search"], nav=site.nav, docs_dir="docs", site_dir="site")
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config))
    done = subprocess.run([MKDOCS, "build", "--strict"], cwd=root, capture_output=True, text=True,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), timeout=300)
    assert done.returncode == 0, done.stderr
    server, url = serve(root / "site")
    yield url
    server.shutdown()


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
    assert HOSTILE in shown[1]["text"] and json.loads(shown[1]["code"])["method"] == HOSTILE
    assert json.loads(shown[2]["code"])["result"] == {HOSTILE: "</details></div>" + HOSTILE}
    assert "window.__xss = 3" in page.locator("article").inner_text()
    assert not dialogs
