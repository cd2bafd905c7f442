"""MkDocs adapter for the conformance site; everything it shows comes from ``agent_loop_sim.site``.

``on_config`` runs the check and renders every page in memory. It runs before MkDocs cleans
the site folder, so a failing check (the engine and a recording differ, a recording cannot be
read, a finding no longer holds) stops the build with a ``PluginError`` listing the problems and
leaves the previous site untouched. ``on_files`` then adds the pages: each is kept in
``.cache/conformance-pages/`` (outside ``docs/`` and outside ``watch:``, so ``mkdocs serve``
does not rebuild in a loop) and rewritten only when its content changed, so that
``mkdocs serve --dirty`` rebuilds just the pages an edit touched.

``mkdocs serve`` loads this module once; the project's modules are imported afresh on every
build so that edits to the engine or the site show up without a restart (``watch:`` in
mkdocs.yml triggers the rebuild). ``AGENT_LOOP_SIM_ENGINE=module:function`` swaps the engine
for another one (the tests use fakes).
"""
from __future__ import annotations

import importlib
import logging
import os
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.conformance_site")  # under mkdocs.*: warnings count for --strict

PACKAGE = "agent_loop_sim"
_pages: dict[str, str] = {}
_site_module = None


def _fresh_import(root: Path, engine_spec: str | None):
    """Import the project's modules from ``root`` as they are on disk now.

    Dropping them from ``sys.modules`` and importing again is ``importlib.reload`` in dependency
    order without having to know the order: every module is re-executed once, and no module
    keeps a reference to a stale copy of another.
    """
    if sys.path[:1] != [str(root)]:
        sys.path.insert(0, str(root))  # this checkout's package, not an installed one
    engine_module = engine_spec.partition(":")[0] if engine_spec else None
    for name in list(sys.modules):
        if name == PACKAGE or name.startswith(PACKAGE + ".") or name == engine_module:
            del sys.modules[name]
    importlib.invalidate_caches()
    site = importlib.import_module(f"{PACKAGE}.site")
    project = importlib.import_module(f"{PACKAGE}.project")
    engine = None
    if engine_spec:
        module, _, attr = engine_spec.partition(":")
        try:
            engine = getattr(importlib.import_module(module), attr or "run_session")
        except (ImportError, AttributeError) as exc:
            raise PluginError(f"AGENT_LOOP_SIM_ENGINE={engine_spec}: {exc}") from None
    return site, project, engine


def on_config(config):
    global _pages, _site_module
    root = Path(config.config_file_path).resolve().parent
    try:
        site_module, project_module, engine = _fresh_import(root, os.environ.get("AGENT_LOOP_SIM_ENGINE"))
        site = site_module.render_site(project_module.Project(root), run_session=engine,
                                       directory_urls=config.use_directory_urls)
    except PluginError:
        raise
    except Exception as exc:  # a bug in the site itself: still one readable line, not a traceback
        raise PluginError(f"the conformance site could not be rendered: {type(exc).__name__}: {exc}") from exc
    for warning in site.warnings:
        log.warning(warning)
    if not site.ok:
        raise PluginError(site.explain())
    log.info(f"conformance: {site.report.passed}/{len(site.report.sessions)} sessions, "
             f"{site.report.message_count} messages, {len(site.pages)} generated files")
    _pages, _site_module = site.pages, site_module
    if not config.nav:
        config.nav = site.nav
    return config


CACHE = Path(".cache") / "conformance-pages"


def _keep(path: Path, content: str) -> None:
    """Write ``content`` only if it differs: an unchanged page keeps its mtime (pydantic's trick)."""
    if path.is_file() and path.read_text(encoding="utf-8") == content:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(content, encoding="utf-8")
    os.replace(tmp, path)


_last_nav: list | None = None


def on_files(files, config):
    global _last_nav
    cache = Path(config.config_file_path).resolve().parent / CACHE
    # Every page carries the navigation: when it changed (a session came or went), every page
    # must be rebuilt, also by a --dirty rebuild.
    nav_changed = _last_nav is not None and config.nav != _last_nav
    _last_nav = config.nav
    for path, content in _pages.items():
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"docs/{path} exists, but the conformance site generates that page; remove one")
        _keep(cache / path, content)
        if nav_changed:
            os.utime(cache / path)
        files.append(File(path, src_dir=str(cache), dest_dir=config.site_dir,
                          use_directory_urls=config.use_directory_urls))
    return files


def on_page_content(html, page, config, files):
    if page.file.src_uri.startswith("reference/") and _site_module is not None:
        return _site_module.sources.strip_sphinx_roles(html)
    return html
