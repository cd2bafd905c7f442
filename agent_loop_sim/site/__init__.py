"""The conformance site: committed recordings and the engine, compared, as Markdown pages.

The site only renders: `agent_loop_sim.check` runs the engine and compares (the same check the
command line runs), `findings` holds what the recordings showed as checkable data (`evidence` checks it), `pages`,
`sources` and `report` render it, and `build` puts them together. ``hooks/conformance_site.py``
adapts `render_site` to MkDocs (through `mkdocs_events`, where the hooks' work is);
``python -m agent_loop_sim site OUTDIR`` calls `build_pages`.
"""
from __future__ import annotations

from . import engine_note
from .build import Site, build_pages, keep_pages, render_checkout, render_site, sessions_of_pages, summary, write_pages
from .evidence import Finding
from .findings import FINDINGS
from ..check import Report, SessionResult, build_report

__all__ = ["FINDINGS", "Finding", "Report", "SessionResult", "Site", "build_pages", "build_report", "keep_pages",
           "render_checkout", "render_site", "sessions_of_pages", "summary", "write_pages"]
