"""MkDocs adapter for the site's in-browser part (``agent_loop_sim.site.browser``).

Adds the check page and the playground to the navigation, copies the Pyodide runtime, the
engine zip and the committed scenarios and recordings into the built site, and gives every
session page a link that opens its scenario in the playground. Listed after
``conformance_site.py`` in mkdocs.yml: that hook has already imported this checkout's package
afresh, and refused the build if a scenario cannot be read. Under ``mkdocs serve`` what it
gathers is kept while the files it comes from keep their bytes (``agent_loop_sim.site.incremental``),
and its two pages are kept in ``.cache/browser-pages/`` (with ``--dirty`` too), rewritten only when
they change, so a ``--dirty`` rebuild skips them; a whole build hands them to MkDocs in memory.
"""
from __future__ import annotations

import importlib
import logging
from pathlib import Path

from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

log = logging.getLogger("mkdocs.hooks.browser_engine")

_state: dict = {}
PAGES = Path(".cache") / "browser-pages"


def on_startup(command, dirty):
    _state["serve"] = command == "serve"
    _state["kept"] = command == "serve" or dirty  # (its two pages kept on disk for the next build)


def _memo(root: Path):
    """Under ``mkdocs serve``, one memo per version of the package's code (a build has none)."""
    if not _state.get("serve"):
        return None
    incremental = importlib.import_module("agent_loop_sim.site.incremental")
    fingerprint = incremental.code_fingerprint(root)
    if getattr(_state.get("memo"), "fingerprint", None) != fingerprint:
        _state["memo"] = incremental.Memo(fingerprint)
    _state["memo"].start()
    return _state["memo"]


def _kept(memo, key, compute):
    return compute() if memo is None else memo.get(key, compute)


def on_config(config):
    root = Path(config.config_file_path).resolve().parent
    browser = importlib.import_module("agent_loop_sim.site.browser")
    pages = importlib.import_module("agent_loop_sim.site.pages")
    project = importlib.import_module("agent_loop_sim.project").Project(root)
    runtime = browser.runtime_files(root)
    if runtime is None:
        log.info("browser_engine: node_modules/pyodide is missing (run `npm ci`); the check page and the "
                 "playground say so instead of running the engine")
    memo = _memo(root)
    scenarios = None if memo is None else tuple((str(p), memo.digest(p)) for p in project.scenario_paths())
    sessions = _kept(memo, ("sessions", scenarios), lambda: browser.playground_sessions(project))
    links = _kept(memo, ("links", scenarios), lambda: {
        pages.session_page(s["family"], s["name"]): browser.fragment(s["text"]) for s in sessions})
    _state.update(root=root, browser=browser, project=project, runtime=runtime, links=links, sessions=sessions)
    section = browser.nav_section()
    if config.nav is not None and section not in config.nav:
        config.nav.append(section)
    return config


def on_files(files, config):
    browser, runtime, root, memo = _state["browser"], _state["runtime"], _state["root"], _state.get("memo")
    directory_urls = config.use_directory_urls
    write_atomic = importlib.import_module("agent_loop_sim.jsonio").write_atomic
    for path, text in {browser.CHECK_PAGE: browser.check_page(runtime is not None, directory_urls),
                       browser.PLAYGROUND_PAGE: browser.playground_page(runtime is not None, directory_urls)}.items():
        if not _state.get("kept"):  # a whole build: in memory, as the conformance hook gives its pages
            files.append(File.generated(config, path, content=text))
            continue
        write_atomic(root / PAGES / path, text, only_if_changed=True, durable=False)
        files.append(File.generated(config, path, abs_src_path=str(root / PAGES / path)))
    generated: dict[str, str | bytes] = {}
    if runtime is not None:
        generated[browser.ENGINE_ZIP] = _kept(memo, ("zip", getattr(memo, "fingerprint", None)),
                                              lambda: browser.engine_zip(root))
        project = _state["project"]
        served = None if memo is None else tuple(
            (str(p), memo.digest(p)) for paths in browser.served_files(project).values() for p in paths)
        generated.update(_kept(memo, ("served", served), lambda: browser.served_project(project, _state["sessions"])))
        for path, source in runtime.items():
            files.append(File.generated(config, path, abs_src_path=str(source)))
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    if memo is not None:
        memo.finish()
    return files


def on_page_content(html, page, config, files):
    fragment = _state.get("links", {}).get(page.file.src_uri)
    if fragment is None:
        return html
    playground = files.get_file_from_path(_state["browser"].PLAYGROUND_PAGE)
    href = get_relative_url(playground.url, page.file.url) + "#" + fragment
    item = f'<li><strong>Playground:</strong> <a class="playground-link" href="{href}">open in the playground</a></li>'
    # The first list of a session page is its summary (result, protocol, files, messages).
    head, sep, rest = html.partition("</ul>")
    return head + item + sep + rest if sep else html
