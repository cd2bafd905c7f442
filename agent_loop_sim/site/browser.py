"""The site's in-browser part, at build time: what the check page and the playground are served.

The engine runs in the reader's browser under Pyodide (``agent_loop_sim.inbrowser`` is what
the pages call). At build time this module gathers what that needs, all from this checkout,
so that nothing is fetched from anywhere but the site's own origin:

* the Pyodide runtime, copied from ``node_modules/pyodide`` (the npm package pinned in
  ``package-lock.json``, installed by ``npm ci``);
* the engine, this checkout's ``agent_loop_sim`` package as a zip (:func:`engine_zip`);
* the committed scenarios and recordings, and a list of them (:func:`served_project`);
* the two pages (:func:`check_page`, :func:`playground_page`), which load their scripts from
  ``docs/javascripts/``; no other page loads the runtime.

``hooks/browser_engine.py`` adapts this to MkDocs (through `mkdocs.events`).
"""
from __future__ import annotations

import base64
import html
import io
import json
import zlib
import zipfile
from pathlib import Path
from typing import Any

from ..limits import FILE_BYTES
from ..project import Project
from ..protocols import FAMILIES
from ..scenarios import ScenarioFile, Session
from .pages.conformance import link
from .pages.sources import FORMAT_PAGE

FOLDER = "browser"  # under the site's root: the pages, the runtime, the engine, the data
CHECK_PAGE = f"{FOLDER}/check.md"
PLAYGROUND_PAGE = f"{FOLDER}/playground.md"
RUNTIME = f"{FOLDER}/pyodide"
ENGINE_ZIP = f"{FOLDER}/engine/agent_loop_sim.zip"
PROJECT = f"{FOLDER}/project"
# What loadPyodide() fetches from its indexURL when no extra package is loaded.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PACKAGE = "agent_loop_sim"
_ZIP_DATE = (2026, 1, 1, 0, 0, 0)  # fixed, so the same checkout gives the same zip


def nav_section() -> dict[str, list[dict[str, str]]]:
    """The navigation's entry for the two pages (the hook adds it; the benchmark's plain build too)."""
    return {"In the browser": [{"Playground": PLAYGROUND_PAGE}, {"Check": CHECK_PAGE}]}


def runtime_files(root: Path) -> dict[str, Path] | None:
    """Site path -> file in ``node_modules``; None when Pyodide is not installed (no ``npm ci``)."""
    folder = root / "node_modules" / "pyodide"
    files = {f"{RUNTIME}/{name}": folder / name for name in RUNTIME_FILES}
    return files if all(path.is_file() for path in files.values()) else None


def engine_zip(root: Path) -> bytes:
    """The ``agent_loop_sim`` package of this checkout as a zip (its sources and the data files
    beside them, such as ``family.json``; no bytecode), byte-for-byte reproducible."""
    out = io.BytesIO()
    files = [p for p in (root / PACKAGE).rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(path.relative_to(root).as_posix(), _ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return out.getvalue()


def playground_sessions(project: Project) -> list[dict[str, str]]:
    """Every committed session as the playground lists it: its family, scenario file, name, title
    and its text as the editor will hold it (`scenario_text`), worked out once per build."""
    return [{"family": f.family, "scenario": project.relative(f.path), "name": s.name, "title": s.title,
             "text": scenario_text(f, s)} for f in project.scenario_files() for s in f.sessions]


def served_files(project: Project) -> dict[str, list[Path]]:
    """The files the in-browser check reads, by folder (relative to the checkout): the scenario
    files, the pinned releases' recordings, and each other release's (``recordings/<package>-
    <version>/``), and the world files scenarios name (``worlds/``), as the command line's ``check``
    reads them."""
    folders = [project.scenario_dir, project.recording_dir]
    if (project.root / "worlds").is_dir():  # (the worlds scenario files name, as ../worlds/NAME.json)
        folders.append(project.root / "worlds")
    for family in FAMILIES.values():
        if family.releases is not None:
            folders += [project.recording_dir / family.releases.slug(v) for v in family.releases.others]
    return {folder.relative_to(project.root).as_posix(): sorted(folder.glob("*.json")) for folder in folders}


def served_project(project: Project, sessions: list[dict[str, str]] | None = None) -> dict[str, bytes]:
    """The committed scenario and recording files, as they are, and ``files.json`` listing them
    (the worker writes them into Pyodide's file system as a checkout: ``scenarios/``, ``recordings/``).
    ``sessions``: `playground_sessions`, if already worked out."""
    out: dict[str, bytes] = {}
    listing: dict[str, list[str]] = {}
    for folder, paths in served_files(project).items():
        listing[folder] = [p.name for p in paths]
        for path in paths:
            out[f"{PROJECT}/{folder}/{path.name}"] = path.read_bytes()
    out[f"{PROJECT}/files.json"] = json.dumps(listing, indent=2).encode()
    # The playground's list of committed sessions, each as the editor will hold it.
    listed = [{k: s[k] for k in ("scenario", "name", "title", "text")}
              for s in (playground_sessions(project) if sessions is None else sessions)]
    out[f"{FOLDER}/sessions.json"] = json.dumps(listed, ensure_ascii=False).encode()
    return out


def scenario_text(file: ScenarioFile, session: Session) -> str:
    """One session as a scenario file of its own: what the playground's editor holds (a world, as
    ``../worlds/NAME.json``: the page's engine keeps the committed worlds there)."""
    head: dict[str, Any] = {"recording": file.recording}
    if file.world is not None:
        head["world"] = f"../worlds/{Path(file.world).name}"
    return json.dumps({**head, "sessions": [session.spec]}, indent=2, ensure_ascii=False)


def fragment(text: str) -> str:
    """The playground's URL fragment for a scenario: ``scenario=`` and the text, raw-deflated and
    base64url-encoded (the browser's own ``DecompressionStream("deflate-raw")`` reads it)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode()) + packer.flush()
    return "scenario=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def _missing_runtime() -> list[str]:
    return ['!!! warning "The in-browser runtime is not part of this build"', "",
            "    Pyodide comes from npm (`npm ci`, run by `make setup` when Node is installed); this site "
            "was built without it, so this page cannot run the engine.", ""]


def _script(name: str, directory_urls: bool) -> str:
    up = "../../" if directory_urls else "../"
    return f'<script type="module" src="{up}javascripts/{name}"></script>'


def check_page(has_runtime: bool, directory_urls: bool = True) -> str:
    lines = [
        "# The engine in your browser, checked",
        "",
        "This page runs **the same engine** as the command line — this checkout's `agent_loop_sim`, "
        "pure Python — in your browser under [Pyodide](https://pyodide.org) (served from this site, "
        "in a Web Worker). It plays every committed scenario and compares each transcript with the "
        "committed recording of the official SDK, with the project's own comparison code: the same "
        "work as `python -m agent_loop_sim check`, for every SDK release the engine speaks (the "
        "pinned releases, and each other release against its own recordings).",
        "",
    ]
    if not has_runtime:
        return "\n".join(lines + _missing_runtime())
    lines += ['<div id="browser-check" class="browser-check" data-state="loading" markdown="0">',
              '<p class="browser-check__verdict">Loading Python in a worker…</p>', "</div>", "",
              _script("check.js", directory_urls), ""]
    return "\n".join(lines)


def playground_page(has_runtime: bool, directory_urls: bool = True) -> str:
    lines = [
        "# Playground",
        "",
        f"Pick a committed session or write a scenario of your own (the [scenario format]"
        f"({link(PLAYGROUND_PAGE, FORMAT_PAGE)})), run it with the engine in your browser, and step through "
        "the conversation message by message (**←** / **→**, **Home** / **End**) with the model's state "
        "at each step. The address holds the scenario: copy it to share what you wrote. The model "
        "speaks the pinned SDK releases, or another release it knows (as `run --release`).",
        "",
    ]
    if not has_runtime:
        return "\n".join(lines + _missing_runtime())
    # data-max-bytes: a link's scenario over the engine's largest file is refused before it is inflated.
    lines += [f'<div id="pg-app" class="playground" data-state="loading" data-releases="{_releases_attribute()}" '
              f'data-max-bytes="{FILE_BYTES.default}" markdown="0"></div>', "", _script("playground.js", directory_urls), ""]
    return "\n".join(lines)


def _releases_attribute() -> str:
    """The SDK releases the playground offers, as JSON for its ``data-releases``: each family's,
    its pinned one (what the model speaks by default) first, as ``{package, version, pinned}``."""
    offered = [{"package": r.package, "version": v, "pinned": v == r.pinned}
               for r in (f.releases for f in FAMILIES.values()) if r is not None for v in r.versions]
    return html.escape(json.dumps(offered), quote=True)
