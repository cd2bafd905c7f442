"""Which engine produced a report, said where a reader looks when it is not the project's own.

``AGENT_LOOP_SIM_ENGINE=module:function`` swaps the engine (the tests replay recordings with
fakes). A replaying fake passes every session, so a site built with one must say so on its
overview, and the strict build (what publishes) refuses one unless
``AGENT_LOOP_SIM_ALLOW_OTHER_ENGINE=1`` says it is meant.
"""
from __future__ import annotations

from ...check import PROJECT_ENGINE, Report
from ..parts.markdown import code

ALLOW = "AGENT_LOOP_SIM_ALLOW_OTHER_ENGINE"


def refusal(spec: str, strict: bool, allow: str | None) -> str | None:
    """Why a build must stop (a strict build with another engine, not said to be meant), or None."""
    if not spec or spec == PROJECT_ENGINE or not strict or allow == "1":
        return None
    return (f"AGENT_LOOP_SIM_ENGINE={spec} is not the project's engine ({PROJECT_ENGINE}): the strict build "
            f"publishes only what the project's own engine says; set {ALLOW}=1 if this engine is meant")


def overview_note(report: Report) -> str:
    """One paragraph for the overview when another engine produced the pages; empty otherwise."""
    if report.engine == PROJECT_ENGINE:
        return ""
    return (f"**Not the project's engine:** these pages were produced by {code(report.engine)} "
            f"(`AGENT_LOOP_SIM_ENGINE`), not by {code(PROJECT_ENGINE)}; the verdicts below are that engine's.\n\n")


def with_overview_note(page: str, report: Report) -> str:
    """``page`` (the overview's Markdown) with `overview_note` after its first heading."""
    note = overview_note(report)
    if not note:
        return page
    head, sep, rest = page.partition("\n\n")
    return f"{head}{sep}{note}{rest}" if sep else f"{page}\n\n{note}"
