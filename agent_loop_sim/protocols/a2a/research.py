"""The research agent of the conformance fixture (``conformance/a2a_sdk_server.py``), as data.

Another agent delegates summaries to it. Its card offers two skills; its script answers a
greeting with a plain message, refuses to delete anything, asks which meeting to summarise,
asks the user to sign in before reading the calendar, and otherwise summarises at once, the
summary being one artifact in two chunks.
"""
from __future__ import annotations

from . import states
from .card import AgentCard, Skill
from .script import CreateTask, Otherwise, Reply, Rule, Script, SendArtifact, SetStatus, TextIs, TextStartsWith, WaitingIn

FINDINGS = "three decisions, two actions, no blockers."

#: The card the fixture serves.
RESEARCH_CARD = AgentCard(
    name="Research agent",
    description="Summarises documents and meetings for other agents.",
    version="1.0.0",
    base_url="https://research.example.com",
    rpc_path="/a2a",
    protocol_version="1.0",
    streaming=True,
    default_input_modes=("text/plain",),
    default_output_modes=("text/plain",),
    skills=(
        Skill("summarise", "Summarise", "Summarise a document or a meeting.",
              tags=("summary", "text"), examples=("summarise the design notes",)),
        Skill("calendar", "Calendar digest", "Today's meetings from the user's calendar (the user signs in first).",
              tags=("calendar",), examples=("check my calendar",)),
    ),
)


def _summary(head: str, body: str = FINDINGS) -> tuple[SendArtifact, SetStatus]:
    return SendArtifact("summary", (head, body)), SetStatus(states.COMPLETED)


#: The fixture's behaviour, rule by rule.
RESEARCH_AGENT = Script(
    first_message=(
        Rule(TextStartsWith("hello"), (Reply("Hello. Ask me to summarise something."),)),
        Rule(TextStartsWith("delete"), (
            CreateTask(),
            SetStatus(states.REJECTED, "I only summarise; I do not delete files."))),
        Rule(TextIs("summarise the meeting"), (
            CreateTask(), SetStatus(states.WORKING),
            SetStatus(states.INPUT_REQUIRED, "Which meeting: Monday's or Tuesday's?"))),
        Rule(TextIs("check my calendar"), (
            CreateTask(), SetStatus(states.WORKING),
            SetStatus(states.AUTH_REQUIRED, "Sign in to the calendar first: https://calendar.example.com/authorize"))),
        Rule(Otherwise(), (CreateTask(), SetStatus(states.WORKING), *_summary("Summary of {subject}: "))),
    ),
    follow_up=(
        Rule(WaitingIn(states.AUTH_REQUIRED), (
            SetStatus(states.WORKING), *_summary("Today: ", "design review at 10:00, one-to-one at 15:00."))),
        Rule(Otherwise(), (SetStatus(states.WORKING), *_summary("Summary of {text}'s meeting: "))),
    ),
    subject_prefix="summarise ",
)
