"""One scenario session played between the orchestrator model and the agent model."""
from __future__ import annotations

from typing import Any, Callable

from ...errors import InputError
from ...transcript import Message
from .agent import Agent, NotModelled, StreamHangs
from .harness import harness_rules
from .orchestrator import Orchestrator
from .raw import RawPoster
from .releases import A2A_RELEASES
from .card import AgentCard
from .research import RESEARCH_AGENT, RESEARCH_CARD
from .script import Script

#: Told, after the agent has handled a request, how many messages are logged and the agent's
#: state (``Agent.state``): the playground shows it message by message.
Observer = Callable[[int, dict[str, Any]], None]


def exchange(orchestrator: Orchestrator | RawPoster, agent: Agent, observe: Observer | None = None) -> list[Message]:
    """Every message of the session, in order (not normalised)."""
    out: list[Message] = []
    while True:
        try:
            request = orchestrator.next_request()
        except InputError as exc:  # a step that cannot be played: named as the message it would have been
            raise exc.within(message=len(out) + 1) from None
        if request is None:
            break
        out.append(request.message())
        response = agent.handle(request)
        if observe is not None:
            observe(len(out), agent.state())
        if not response.is_stream:
            out.append(response.message())
            orchestrator.receive(response)
            continue
        closed = False
        for i, event in enumerate(response.events or []):
            out.append(response.event_message(event, first=i == 0))
            if orchestrator.receive_event(event):
                closed = True
                break
        if not closed:
            if response.open:
                raise StreamHangs("the agent keeps the stream open and sends nothing the orchestrator waits for")
            orchestrator.end_of_stream()
    return out


def run_spec(spec: dict[str, Any], where: list[str | int] | None = None, release: str | None = None,
             rules: frozenset[str] | None = None, observe: Observer | None = None,
             world: tuple[AgentCard, Script] | None = None, harness: str | None = None) -> list[Message]:
    """Play a session's steps against ``world``'s agent (the fixture's research agent by
    default), served by ``release`` of the SDK (`releases.A2A_RELEASES`; the pinned one by
    default), or with the wire changes ``rules`` in effect (the release page asks which change
    makes which difference), run as ``harness`` runs it (`harness`; None: as deployed)."""
    card, script = world or (RESEARCH_CARD, RESEARCH_AGENT)
    rules = A2A_RELEASES.rules(release) if rules is None else rules
    agent = Agent(card, script, rules=rules | harness_rules(harness))
    if spec.get("mode") == "raw":
        return exchange(RawPoster(spec["posts"], card.base_url + card.rpc_path), agent, observe)
    orchestrator = Orchestrator(spec["steps"], card.base_url, card.rpc_path, where=where)
    return exchange(orchestrator, agent, observe)


def run_session(session: Any, release: str | None = None, rules: frozenset[str] | None = None,
                observe: Observer | None = None) -> list[Message]:
    """The messages of a validated scenario session (``agent_loop_sim.scenarios.Session``)."""
    try:
        index = getattr(session, "index", None)
        return run_spec(session.spec, where=None if index is None else ["sessions", index], release=release,
                        rules=rules, observe=observe, world=session.world, harness=getattr(session, "harness", None))
    except InputError as exc:
        raise exc.within(file=session.source or None, session=session.name) from None
    except (NotModelled, StreamHangs) as exc:
        raise InputError(f"the engine cannot play this session: {exc}", file=session.source or None,
                         session=session.name) from None
