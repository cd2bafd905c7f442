"""The conformance site: committed recordings and the engine, compared, as Markdown pages.

The site only renders: `agent_loop_sim.check` runs the engine and compares (the same check the
command line runs) and `build` puts the site together from it, in memory, or refuses. Its rooms:
`pages` (every page, as plain functions), `parts` (what pages are made of: Markdown, raw HTML
blocks, the wire log, diagrams), `findings` (what the recordings showed, as checkable data, and
`findings.evidence`, the check), `browser` (what the in-browser check and the playground are
served), `mkdocs` (what the hooks call, and what only ``mkdocs serve`` needs), `report`
(``conformance.json``) and `beside` (the second process a build renders half the pages in).
``hooks/conformance_site.py`` adapts `render_site` to MkDocs through `mkdocs.events`;
``python -m agent_loop_sim site OUTDIR`` calls `build_pages`.
"""
from __future__ import annotations

from .pages import engine_note
from .build import Site, build_pages, keep_pages, render_checkout, render_site, sessions_of_pages, summary, write_pages
from .findings.evidence import Finding
from .findings import FINDINGS
from ..check import Report, SessionResult, build_report

__all__ = ["FINDINGS", "Finding", "Report", "SessionResult", "Site", "build_pages", "build_report", "keep_pages",
           "render_checkout", "render_site", "sessions_of_pages", "summary", "write_pages"]
