"""The A2A models: an agent as the official SDK serves it, and the orchestrator that talks to it.

Pure Python, no I/O: the orchestrator turns a scenario's steps into HTTP requests, the agent
answers them as ``a2a-sdk`` 1.2.2 does (JSON-RPC binding, protocol 1.0), and
:func:`run_session` records what they say to each other.

- :class:`Agent` (:mod:`.agent`): card, JSON-RPC dispatcher, request handler, task store;
- :class:`Orchestrator` (:mod:`.orchestrator`): requests from steps and from earlier answers;
- :data:`TASK_TRANSITIONS` (:mod:`.states`): the task life cycle as one table;
- :class:`Script` (:mod:`.script`) and :data:`RESEARCH_AGENT` (:mod:`.research`): scripted
  agent behaviour, and the fixture's research agent written that way.
"""
from __future__ import annotations

from .agent import Agent, NotModelled, StreamHangs
from .card import AgentCard, Skill
from .errors import ERROR_KINDS, A2AError
from .http import HttpRequest, HttpResponse
from .orchestrator import Orchestrator
from .research import RESEARCH_AGENT, RESEARCH_CARD
from .script import Script
from .session import exchange, run_session
from .states import TASK_STATES, TASK_TRANSITIONS, IllegalTransition, transition

__all__ = [
    "A2AError", "Agent", "AgentCard", "ERROR_KINDS", "HttpRequest", "HttpResponse", "IllegalTransition",
    "NotModelled", "Orchestrator", "RESEARCH_AGENT", "RESEARCH_CARD", "Script", "Skill", "StreamHangs",
    "TASK_STATES", "TASK_TRANSITIONS", "exchange", "run_session", "transition",
]
