"""The A2A models: an agent as the official SDK serves it, and the orchestrator that talks to it.

Pure Python, no I/O: the orchestrator turns a scenario's steps into HTTP requests, the agent
answers them as ``a2a-sdk`` 1.2.2 does (JSON-RPC binding, protocol 1.0), and
`run_session` records what they say to each other.

- `Agent` (`agent`): the HTTP front door (card, JSON-RPC envelope) over the request handler;
- `Orchestrator` (`orchestrator`): requests from steps and from earlier answers;
- `TASK_TRANSITIONS` (`states`): the task life cycle as one table;
- `Script` (`script`) and `RESEARCH_AGENT` (`research`): scripted agent behaviour, and the
  fixture's research agent written that way;
- `FAMILY`: all of it, for the rest of the project.
"""
from __future__ import annotations

from pathlib import Path

from ...normalise import normalise_a2a
from ..family import Family
from . import scenario
from .agent import Agent, NotModelled, StreamHangs
from .card import AgentCard, Skill
from .errors import ERROR_KINDS, A2AError
from .http import HttpRequest, HttpResponse
from .orchestrator import Orchestrator
from .releases import A2A_RELEASES
from .research import RESEARCH_AGENT, RESEARCH_CARD
from .world import read_world
from .script import Script
from .session import exchange, run_session
from .states import TASK_STATES, TASK_TRANSITIONS, IllegalTransition, task_rules, transition

__all__ = [
    "A2AError", "Agent", "FAMILY", "AgentCard", "ERROR_KINDS", "HttpRequest", "HttpResponse", "IllegalTransition",
    "NotModelled", "Orchestrator", "RESEARCH_AGENT", "RESEARCH_CARD", "Script", "Skill", "StreamHangs",
    "TASK_STATES", "TASK_TRANSITIONS", "exchange", "run_session", "transition",
]


#: Everything the project knows about A2A: its words are data (``family.json``), its rules code.
FAMILY = Family.from_file(Path(__file__).with_name("family.json"), run_session=run_session,
                          normalise=normalise_a2a, scenario=scenario, rule_tables=task_rules,
                          releases=A2A_RELEASES, read_world=read_world)
