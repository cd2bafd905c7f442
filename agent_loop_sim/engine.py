"""The engine's front door: a validated scenario session in, its normalised transcript out.

Each protocol family (`agent_loop_sim.protocols.FAMILIES`) has a model and a normal form; this
module only dispatches. Nothing here, or below, reads a recording.
"""
from __future__ import annotations

from typing import Any, Callable

from . import collector
from .errors import EngineFailure, InputError
from .protocols import FAMILIES
from .scenarios import Session
from .transcript import Message, Transcript


def play(session: Session, release: str | None = None,
         observe: Callable[[int, dict[str, Any]], None] | None = None) -> list[Message]:
    """Play one validated scenario session with its protocol's model; its messages, not normalised.

    ``release`` names the SDK release the model speaks (the family's pinned release by default).
    ``observe``, when given, is told after each message the model handled how many messages
    are logged and the model's state (the MCP server's era, the A2A agent's tasks).
    Raises InputError when the scenario cannot be played as written (e.g. a scripted answer is
    missing), and EngineFailure, naming the session, for a gap in the model.
    """
    family = FAMILIES[session.family]
    try:
        return family.run_session(session, release=release, observe=observe)
    except InputError as exc:  # a scenario the protocol cannot play (e.g. an answer missing)
        raise exc.within(file=session.source, session=session.name) from None
    except Exception as exc:  # a gap in the model: say which session, keep the cause for debugging
        raise EngineFailure(session.name, exc) from exc


def run_session(session: Session, release: str | None = None) -> Transcript:
    """Play one validated scenario session (`play`) as ``release`` says it; the normalised transcript."""
    with collector.paused():
        messages = FAMILIES[session.family].normalise(play(session, release))
    return Transcript(session.name, session.mode, session.title, messages)
