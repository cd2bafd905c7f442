"""The engine's front door: a validated scenario session in, its normalised transcript out.

Each protocol package (``agent_loop_sim.protocols.<family>``) exposes ``run_session(session)``;
this module only dispatches. Nothing here, or below, reads a recording.
"""
from __future__ import annotations

from importlib import import_module

from .normalise import NORMALISERS
from .scenarios import Session
from .transcript import Transcript


def run_session(session: Session) -> Transcript:
    protocol = import_module(f"agent_loop_sim.protocols.{session.family}")
    messages = protocol.run_session(session)
    return Transcript(session.name, session.mode, session.title, NORMALISERS[session.family](messages))
