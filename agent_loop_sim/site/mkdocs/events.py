"""What the site's MkDocs hooks do at each event, as plain functions of the hook's state (a dict the
hook keeps between builds): ``hooks/conformance_site.py`` and ``hooks/browser_engine.py`` only
import this checkout's package and hand each event here.

The conformance pages (`conformance_config`, `conformance_files`): the check runs and every page is
rendered in memory (`build.render_checkout`) before MkDocs cleans the site folder, so a failing
check stops the build with one ``PluginError`` and leaves the previous site untouched. Under
``mkdocs serve`` that goes through a memo (`incremental.Memo`) that keeps what an edit did not
touch, one per version of the code: when the code changes, the hook imports the package afresh
(`stale` says when) and a new memo starts. A build gives MkDocs the pages in memory; under
``mkdocs serve`` (or with ``--dirty``) they are kept in ``.cache/conformance-pages/`` (outside
``docs/`` and ``watch:``) and rewritten only when they changed, so that ``mkdocs serve --dirty``
rebuilds just what an edit touched. ``AGENT_LOOP_SIM_ENGINE=module:function`` swaps the engine
(tests use fakes). When the build has the in-browser part (its hook is listed), each session page
links its scenario in the playground (`build.render_site`'s ``playground``).

The in-browser part (`browser_config`, `browser_files`, from `browser`): the check page and the
playground in the navigation, the Pyodide runtime, the engine zip and the committed scenarios and
recordings copied into the site. Under ``mkdocs serve`` what it gathers is kept while the files it
comes from keep their bytes, and its two pages are kept in ``.cache/browser-pages/`` (with
``--dirty`` too), rewritten only when they change, so a ``--dirty`` rebuild skips them.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Callable, Hashable, TypeVar

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from ...jsonio import write_atomic
from ...project import Project
from .. import browser
from ..pages import engine_note
from . import serving
from ..build import keep_pages, render_checkout, sessions_of_pages, summary
from .incremental import Memo, code_fingerprint

T = TypeVar("T")
ENGINE = "AGENT_LOOP_SIM_ENGINE"  # module:function, another engine than the project's
CONFORMANCE_PAGES = Path(".cache") / "conformance-pages"
BROWSER_PAGES = Path(".cache") / "browser-pages"
BROWSER_HOOK = "browser_engine.py"  # listed in mkdocs.yml: the site has the playground
# Under mkdocs.*, so that warnings count for --strict; named for the hook each part serves.
log = logging.getLogger("mkdocs.hooks.conformance_site")
browser_log = logging.getLogger("mkdocs.hooks.browser_engine")
_LOADED = object()  # this import of the module: a new one means the hook imported the package afresh


def _root(config: Any) -> Path:
    return Path(config.config_file_path).resolve().parent


# --- the conformance pages ----------------------------------------------------------------------

def stale(state: dict, root: str | Path) -> bool:
    """Whether the hook must import this checkout's package afresh before this build: always with
    another engine, and outside ``mkdocs serve``; under it, when the code changed since."""
    fingerprint = state.get("fingerprint")
    return bool(os.environ.get(ENGINE)) or fingerprint is None or fingerprint != code_fingerprint(Path(root))


def _start(state: dict, root: Path, spec: str) -> None:
    """After a fresh import: under ``mkdocs serve`` (the project's engine), a new memo for this
    version of the code; otherwise none (a build, one per process, checks everything)."""
    if state.get("loaded") is _LOADED:
        return
    state["loaded"] = _LOADED
    if state.get("command") == "serve" and not spec:
        state["fingerprint"] = code_fingerprint(root)
        state["memo"] = Memo(state["fingerprint"])
    else:
        state.pop("fingerprint", None)
        state.pop("memo", None)


def conformance_config(state: dict, config: Any) -> Any:
    root = _root(config)
    spec = os.environ.get(ENGINE, "")
    playground = any(Path(name).name == BROWSER_HOOK for name in config.hooks)
    try:
        _start(state, root, spec)
        refused = engine_note.refusal(spec, bool(config.strict), os.environ.get(engine_note.ALLOW))  # before any work
        site = None if refused else render_checkout(root, spec, config.use_directory_urls, config.repo_url or "",
                                                    state.get("memo"), playground=playground)
    except Exception as exc:  # still one readable line, not a traceback
        raise PluginError(f"the conformance site could not be rendered: {type(exc).__name__}: {exc}") from exc
    if refused:
        raise PluginError(refused)
    for warning in site.warnings:
        log.warning(warning)
    if not site.ok:
        raise PluginError(site.explain())
    log.info(summary(site))
    state.update(previous=state.get("site") if state.get("package") is _LOADED else None)
    state.update(site=site, package=_LOADED, root=root, sessions_of_pages=sessions_of_pages(site))
    config.nav = config.nav or site.nav
    return config


def conformance_files(state: dict, files: Any, config: Any) -> Any:
    site = state["site"]
    for path in site.pages:
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"docs/{path} exists, but the conformance site generates that page; remove one")
    if not (state.get("command") == "serve" or state.get("dirty")):
        # A whole build: the pages go to MkDocs in memory (no later build looks at what it kept).
        for path, content in site.pages.items():
            files.append(File.generated(config, path, content=content))
        # Let go of the check (every recording and transcript: some 40,000 objects the garbage
        # collector tracks): the rest of the build needs only the pages, and the collector would
        # walk them at each full collection while MkDocs renders (about 1.5 % of a build).
        state["site"] = None
        return files
    cache = state["root"] / CONFORMANCE_PAGES
    nav_changed = state.get("nav") not in (None, config.nav)
    state["nav"] = config.nav
    for path in keep_pages(site, cache, touch_all=nav_changed, previous=state.get("previous")):
        files.append(File(path, src_dir=str(cache), dest_dir=config.site_dir,
                          use_directory_urls=config.use_directory_urls))
    return files


def conformance_serve(server: Any) -> Any:
    serving.watch_with_events(server)
    return server


def conformance_env(state: dict, env: Any, files: Any) -> Any:
    if state.get("command") == "serve":
        env.bytecode_cache = state.setdefault("templates", serving.CompiledTemplates())
    # Every page, the other hooks' too, by the URL search entries name them by (the home page's is "").
    state["urls"] = {f.page.url if f.page is not None else f.url for f in files.documentation_pages()}
    return env


def conformance_post_build(state: dict, config: Any) -> None:
    """Before the search plugin writes its index (the hook's priority): under ``--dirty``, merge it page by page."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    if state.get("dirty") and search is not None:
        serving.merge_search_index(search, state["urls"])


def build_error(state: dict, error: Exception) -> None:
    """MkDocs names the page it failed on (``state["page"]``); say which session that page shows."""
    page = state.get("page")
    name = state.get("sessions_of_pages", {}).get(page) if page else None
    if name is not None:
        log.error(f"the build failed while rendering {page}, the page of session {name!r}: "
                  f"{type(error).__name__}: {error}")


# --- the in-browser part ------------------------------------------------------------------------

def _browser_memo(state: dict, root: Path) -> Memo | None:
    """Under ``mkdocs serve``, one memo per version of the package's code (a build has none)."""
    if state.get("command") != "serve":
        return None
    fingerprint = code_fingerprint(root)
    if getattr(state.get("memo"), "fingerprint", None) != fingerprint:
        state["memo"] = Memo(fingerprint)
    state["memo"].start()
    return state["memo"]


def _kept(memo: Memo | None, key: Hashable, compute: Callable[[], T]) -> T:
    return compute() if memo is None else memo.get(key, compute)


def browser_config(state: dict, config: Any) -> Any:
    root = _root(config)
    project = Project(root)
    runtime = browser.runtime_files(root)
    if runtime is None:
        browser_log.info("browser_engine: node_modules/pyodide is missing (run `npm ci`); the check page and the "
                         "playground say so instead of running the engine")
    memo = _browser_memo(state, root)
    scenarios = None if memo is None else tuple((str(p), memo.digest(p)) for p in project.scenario_paths())
    sessions = _kept(memo, ("sessions", scenarios), lambda: browser.playground_sessions(project))
    state.update(root=root, project=project, runtime=runtime, sessions=sessions)
    section = browser.nav_section()
    if config.nav is not None and section not in config.nav:
        config.nav.append(section)
    return config


def browser_files(state: dict, files: Any, config: Any) -> Any:
    runtime, root, memo = state["runtime"], state["root"], state.get("memo")
    directory_urls = config.use_directory_urls
    kept = state.get("command") == "serve" or state.get("dirty")  # (its two pages kept on disk for the next build)
    for path, text in {browser.CHECK_PAGE: browser.check_page(runtime is not None, directory_urls),
                       browser.PLAYGROUND_PAGE: browser.playground_page(runtime is not None, directory_urls)}.items():
        if not kept:  # a whole build: in memory, as the conformance pages are given
            files.append(File.generated(config, path, content=text))
            continue
        write_atomic(root / BROWSER_PAGES / path, text, only_if_changed=True, durable=False)
        files.append(File.generated(config, path, abs_src_path=str(root / BROWSER_PAGES / path)))
    generated: dict[str, str | bytes] = {}
    if runtime is not None:
        generated[browser.ENGINE_ZIP] = _kept(memo, ("zip", getattr(memo, "fingerprint", None)),
                                              lambda: browser.engine_zip(root))
        project = state["project"]
        served = None if memo is None else tuple(
            (str(p), memo.digest(p)) for paths in browser.served_files(project).values() for p in paths)
        generated.update(_kept(memo, ("served", served), lambda: browser.served_project(project, state["sessions"])))
        for path, source in runtime.items():
            files.append(File.generated(config, path, abs_src_path=str(source)))
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    if memo is not None:
        memo.finish()
    return files
