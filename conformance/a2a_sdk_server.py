"""The research agent behind the A2A recordings, built on the official A2A Python SDK (a2a-sdk).

``scripts/record_a2a_sdk.py`` mounts :func:`app` in process and talks to it over the JSON-RPC
binding (protocol 1.0); no port is opened. Its counterpart in the engine is
``agent_loop_sim.protocols.a2a.research`` (the same script, as data), which has to produce the
same JSON-RPC replies and SSE events up to generated IDs and timestamps.

What the agent does with the first message of a task, by the text it reads:

============================  ===========================================================
text                          outcome
============================  ===========================================================
starts with ``hello``         one agent Message, no task at all
starts with ``delete``        task created, then rejected with an explanation
``summarise the meeting``     task asks which meeting (input required)
``check my calendar``         task asks the user to sign in (auth required)
anything else                 a ``summary`` artifact sent in two chunks, then completed
============================  ===========================================================

A follow-up message to a task that is waiting finishes it: after a sign-in, with today's
meetings; after a question, with the summary of the meeting the reply names.
"""
from __future__ import annotations

import uuid

from starlette.applications import Starlette

from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.request_handlers import DefaultRequestHandlerV2
from a2a.server.routes.agent_card_routes import create_agent_card_routes
from a2a.server.routes.jsonrpc_routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, TaskState

BASE_URL = "https://research.example.com"
JSONRPC_PATH = "/a2a"

GREETING = "Hello. Ask me to summarise something."
REFUSAL = "I only summarise; I do not delete files."
WHICH_MEETING = "Which meeting: Monday's or Tuesday's?"
SIGN_IN = "Sign in to the calendar first: https://calendar.example.com/authorize"
FINDINGS = "three decisions, two actions, no blockers."
CALENDAR_HEAD, CALENDAR_BODY = "Today: ", "design review at 10:00, one-to-one at 15:00."

SKILLS = [
    AgentSkill(
        id="summarise",
        name="Summarise",
        description="Summarise a document or a meeting.",
        tags=["summary", "text"],
        examples=["summarise the design notes"],
    ),
    AgentSkill(
        id="calendar",
        name="Calendar digest",
        description="Today's meetings from the user's calendar (the user signs in first).",
        tags=["calendar"],
        examples=["check my calendar"],
    ),
]

CARD = AgentCard(
    name="Research agent",
    description="Summarises documents and meetings for other agents.",
    version="1.0.0",
    supported_interfaces=[
        AgentInterface(url=BASE_URL + JSONRPC_PATH, protocol_binding="JSONRPC", protocol_version="1.0"),
    ],
    capabilities=AgentCapabilities(streaming=True),
    default_input_modes=["text/plain"],
    default_output_modes=["text/plain"],
    skills=SKILLS,
)


async def _say(updater: TaskUpdater, outcome, text: str) -> None:  # noqa: ANN001
    """Move the task to ``outcome`` with one agent message carrying ``text``."""
    await outcome(updater.new_agent_message([new_text_part(text)]))


async def _deliver_summary(updater: TaskUpdater, head: str, body: str) -> None:
    # One artifact, two chunks: the second is appended and closes it.
    artifact_id = str(uuid.uuid4())
    await updater.add_artifact([new_text_part(head)], artifact_id=artifact_id, name="summary")
    await updater.add_artifact([new_text_part(body)], artifact_id=artifact_id, name="summary",
                               append=True, last_chunk=True)
    await updater.complete()


class ResearchAgent(AgentExecutor):
    """Scripted: the reply depends only on the text and on the state the task waits in."""

    async def execute(self, context: RequestContext, event_queue) -> None:  # noqa: ANN001
        text = context.get_user_input()
        if context.current_task is not None:
            await self._follow_up(context, event_queue, text)
        else:
            await self._first_message(context, event_queue, text)

    async def _first_message(self, context: RequestContext, event_queue, text: str) -> None:  # noqa: ANN001
        if text.startswith("hello"):
            await event_queue.enqueue_event(new_text_message(GREETING, context_id=context.context_id))
            return
        task = new_task_from_user_message(context.message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        if text.startswith("delete"):
            await _say(updater, updater.reject, REFUSAL)
            return
        await updater.start_work()
        if text == "summarise the meeting":
            await _say(updater, updater.requires_input, WHICH_MEETING)
        elif text == "check my calendar":
            await _say(updater, updater.requires_auth, SIGN_IN)
        else:
            subject = text.removeprefix("summarise ") if text.startswith("summarise ") else text
            await _deliver_summary(updater, f"Summary of {subject}: ", FINDINGS)

    async def _follow_up(self, context: RequestContext, event_queue, text: str) -> None:  # noqa: ANN001
        task = context.current_task
        waited_for = task.status.state
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work()
        if waited_for == TaskState.TASK_STATE_AUTH_REQUIRED:
            await _deliver_summary(updater, CALENDAR_HEAD, CALENDAR_BODY)
        else:
            await _deliver_summary(updater, f"Summary of {text}'s meeting: ", FINDINGS)

    async def cancel(self, context: RequestContext, event_queue) -> None:  # noqa: ANN001
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def app(executor: AgentExecutor | None = None) -> Starlette:
    """The agent as an ASGI app: the card at the well-known path, JSON-RPC at ``/a2a``.

    ``executor`` replaces the research agent (the recorder's fault tests pass a broken one).
    """
    handler = DefaultRequestHandlerV2(
        agent_executor=executor or ResearchAgent(),
        task_store=InMemoryTaskStore(),
        agent_card=CARD,
    )
    return Starlette(routes=create_agent_card_routes(CARD) + create_jsonrpc_routes(handler, JSONRPC_PATH))
