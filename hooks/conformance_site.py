"""MkDocs adapter for the conformance site: everything it shows comes from ``agent_loop_sim.site``.

``on_config`` runs the check and renders every page in memory (under ``mkdocs serve``, through a
memo that keeps what an edit did not touch: ``agent_loop_sim.site.incremental``), before MkDocs cleans the site
folder, so a failing check stops the build with one ``PluginError`` and leaves the previous site
untouched. ``on_files`` adds the pages: in memory for a build; under ``mkdocs serve`` (or with
``--dirty``) kept in ``.cache/conformance-pages/`` (outside ``docs/`` and ``watch:``) and rewritten
only when they changed, so that ``mkdocs serve --dirty`` rebuilds just what an edit touched.
``AGENT_LOOP_SIM_ENGINE=module:function`` swaps the engine (tests use fakes).
"""
from __future__ import annotations

import importlib
import logging
import os
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.conformance_site")  # under mkdocs.*: warnings count for --strict
CACHE = Path(".cache") / "conformance-pages"
_last: dict = {}


def on_startup(command, dirty):
    # Only `mkdocs serve` keeps a memo between builds; a build (one per process) checks everything.
    _last["serve"] = command == "serve"
    _last["dirty"] = dirty


def _fresh_site_package(root: Path, engine_spec: str):
    """``mkdocs serve`` keeps this hook loaded: import the checkout's package afresh when its code
    changed (always, with another engine), and start a new memo then."""
    if sys.path[:1] != [str(root)]:
        sys.path.insert(0, str(root))  # this checkout's package, not an installed one
    current = sys.modules.get("agent_loop_sim.site.incremental")
    fingerprint = current.code_fingerprint(root) if current is not None and not engine_spec else None
    if fingerprint is not None and fingerprint == _last.get("fingerprint"):
        return sys.modules["agent_loop_sim.site"]
    engine_module = engine_spec.partition(":")[0]
    for name in list(sys.modules):
        if name == "agent_loop_sim" or name.startswith("agent_loop_sim.") or name == engine_module:
            del sys.modules[name]
    package = importlib.import_module("agent_loop_sim.site")
    incremental = importlib.import_module("agent_loop_sim.site.incremental")
    if _last.get("serve") and not engine_spec:
        _last["fingerprint"] = incremental.code_fingerprint(root)
        _last["memo"] = incremental.Memo(_last["fingerprint"])
    else:
        _last.pop("fingerprint", None)
        _last.pop("memo", None)
    return package


def on_config(config):
    root = Path(config.config_file_path).resolve().parent
    spec = os.environ.get("AGENT_LOOP_SIM_ENGINE", "")
    try:
        site_package = _fresh_site_package(root, spec)
        note = site_package.engine_note
        refused = note.refusal(spec, bool(config.strict), os.environ.get(note.ALLOW))  # before any work
        site = None if refused else site_package.render_checkout(root, spec, config.use_directory_urls,
                                                                       config.repo_url or "", _last.get("memo"))
    except Exception as exc:  # still one readable line, not a traceback
        raise PluginError(f"the conformance site could not be rendered: {type(exc).__name__}: {exc}") from exc
    if refused:
        raise PluginError(refused)
    for warning in site.warnings:
        log.warning(warning)
    if not site.ok:
        raise PluginError(site.explain())
    log.info(site_package.summary(site))
    _last.update(previous=_last.get("site") if _last.get("package") is site_package else None)
    _last.update(site=site, package=site_package, root=root, sessions_of_pages=site_package.sessions_of_pages(site))
    config.nav = config.nav or site.nav
    return config


def on_files(files, config):
    site = _last["site"]
    for path in site.pages:
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"docs/{path} exists, but the conformance site generates that page; remove one")
    if not (_last.get("serve") or _last.get("dirty")):
        # A whole build: the pages go to MkDocs in memory (no later build looks at what it kept).
        for path, content in site.pages.items():
            files.append(File.generated(config, path, content=content))
        # Let go of the check (every recording and transcript: some 40,000 objects the garbage
        # collector tracks): the rest of the build needs only the pages, and the collector would
        # walk them at each full collection while MkDocs renders (about 1.5 % of a build).
        _last["site"] = None
        return files
    cache = _last["root"] / CACHE
    nav_changed = _last.get("nav") not in (None, config.nav)
    _last["nav"] = config.nav
    for path in _last["package"].keep_pages(site, cache, touch_all=nav_changed, previous=_last.get("previous")):
        files.append(File(path, src_dir=str(cache), dest_dir=config.site_dir,
                          use_directory_urls=config.use_directory_urls))
    return files


def _serving():
    return importlib.import_module("agent_loop_sim.site.serving")  # the package on_config imported


def on_serve(server, config, builder):
    _serving().watch_with_events(server)
    return server


def on_env(env, config, files):
    if _last.get("serve"):
        env.bytecode_cache = _last.setdefault("templates", _serving().CompiledTemplates())
    # Every page, the other hooks' too, by the URL search entries name them by (the home page's is "").
    _last["urls"] = {f.page.url if f.page is not None else f.url for f in files.documentation_pages()}
    return env


@event_priority(50)  # before the search plugin writes its index
def on_post_build(config):
    search = config.plugins.get("material/search") or config.plugins.get("search")
    if _last.get("dirty") and search is not None:
        _serving().merge_search_index(search, _last["urls"])


def on_page_markdown(markdown, page, **kwargs):
    _last["page"] = page.file.src_uri  # which page MkDocs is rendering, should it fail
    return markdown


def on_build_error(error, **kwargs):
    """MkDocs names the page it failed on; say which session that page shows."""
    page = _last.get("page")
    name = _last.get("sessions_of_pages", {}).get(page) if page else None
    if name is not None:
        log.error(f"the build failed while rendering {page}, the page of session {name!r}: "
                  f"{type(error).__name__}: {error}")
