"""The conformance site: committed recordings and the engine, compared, as Markdown pages.

Four parts, each usable alone: :mod:`.report` runs the engine and compares (the engine is a
parameter, so tests can pass a fake one), :mod:`.findings` holds what the recordings showed as
checkable data, :mod:`.pages` and :mod:`.sources` render Markdown, and :mod:`.build` puts them
together. ``hooks/conformance_site.py`` adapts :func:`render_site` to MkDocs;
``python -m agent_loop_sim site OUTDIR`` calls :func:`build_pages`.
"""
from __future__ import annotations

from .build import Site, build_pages, render_site, write_pages
from .findings import FINDINGS, Finding
from .report import Report, SessionResult, build_report

__all__ = ["FINDINGS", "Finding", "Report", "SessionResult", "Site", "build_pages", "build_report", "render_site",
           "write_pages"]
