"""Scripted agent behaviour: what an agent executor publishes for each message, as data.

A `Script` is the model's counterpart of an SDK ``AgentExecutor``. For a message that
starts a conversation it picks the first `Rule` of ``first_message`` whose condition
holds; for a message into an existing task, the first rule of ``follow_up``. A rule's steps
publish events, as the SDK's ``TaskUpdater`` and helpers do:

- `Reply`: one agent ``Message`` and no task at all;
- `CreateTask`: the task made from the user's message (``TASK_STATE_SUBMITTED``,
  the message as its history);
- `SetStatus`: a status update, stamped with the time, optionally with an agent message;
- `SendArtifact`: one artifact in chunks, the first creating it, the others appended,
  the last flagged ``lastChunk``.

Texts are templates: ``{text}`` is the user's text (the message's text parts joined by a line
break) and ``{subject}`` the same text without the script's ``subject_prefix``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ...jsonio import copy_json
from . import states
from .ids import Clock, IdSource


class Event(NamedTuple):
    """One event an agent publishes, named as in a ``StreamResponse``:
    ``task``, ``message``, ``statusUpdate`` or ``artifactUpdate``. (A named tuple rather than a
    frozen dataclass: several are made for every event, and a frozen dataclass sets each field
    through object.__setattr__.)"""

    kind: str
    body: dict[str, Any]


class AgentCrash(Exception):
    """The scripted agent raised, as the SDK executor would (the engine does not model what follows)."""


@dataclass
class Turn:
    """What a script sees of one request: the user's message as the SDK holds it (task and
    context IDs filled in), the IDs, and the stored task the message continues (if any)."""

    message: dict[str, Any]
    task_id: str
    context_id: str
    current_task: dict[str, Any] | None
    #: the user's text: the message's text parts joined by a line break (every condition tried and
    #: every text filled asks it, and the message stays as it is: made once, with the turn)
    text: str = field(init=False)

    def __post_init__(self) -> None:
        self.text = "\n".join(p["text"] for p in self.message.get("parts", []) if "text" in p)


# --- conditions -------------------------------------------------------------------------------

@dataclass(frozen=True)
class TextStartsWith:
    """The user's text starts with ``prefix``."""

    prefix: str

    def holds(self, turn: Turn) -> bool:
        return turn.text.startswith(self.prefix)


@dataclass(frozen=True)
class TextIs:
    """The user's text is exactly ``text``."""

    text: str

    def holds(self, turn: Turn) -> bool:
        return turn.text == self.text


@dataclass(frozen=True)
class WaitingIn:
    """The task the message continues was left in ``state``."""

    state: str

    def holds(self, turn: Turn) -> bool:
        return turn.current_task is not None and turn.current_task["status"]["state"] == self.state


@dataclass(frozen=True)
class Otherwise:
    """Always holds: the last rule of a list."""

    def holds(self, turn: Turn) -> bool:
        return True


# --- steps ------------------------------------------------------------------------------------

class _Publisher:
    """Publishes a run's events the way the SDK helpers build them (``TaskUpdater`` and co.)."""

    def __init__(self, script: "Script", turn: Turn, ids: IdSource, clock: Clock) -> None:
        self.script, self.turn, self.ids, self.clock = script, turn, ids, clock
        self.events: list[Event] = []
        self.task_id: str | None = None
        self.context_id: str | None = None
        self.state: str | None = None
        if turn.current_task is not None:
            self.task_id = turn.current_task["id"]
            self.context_id = turn.current_task.get("contextId", "")
            self.state = turn.current_task["status"]["state"]

    def fill(self, template: str) -> str:
        text = self.turn.text
        return template.format(text=text, subject=text.removeprefix(self.script.subject_prefix))

    def agent_message(self, text: str, with_task: bool = True) -> dict[str, Any]:
        message: dict[str, Any] = {"messageId": self.ids.new(), "role": "ROLE_AGENT", "parts": [{"text": text}]}
        if with_task and self.task_id:
            message["taskId"] = self.task_id
        if self.context_id:
            message["contextId"] = self.context_id
        return message


@dataclass(frozen=True)
class Reply:
    """Answer with one agent message in the request's context; no task is created."""

    text: str

    def run(self, out: _Publisher) -> None:
        message = {"messageId": out.ids.new(), "role": "ROLE_AGENT", "parts": [{"text": out.fill(self.text)}]}
        if out.turn.context_id:
            message["contextId"] = out.turn.context_id
        out.events.append(Event("message", message))


@dataclass(frozen=True)
class CreateTask:
    """Publish the new task made from the user's message, as ``new_task_from_user_message`` does."""

    def run(self, out: _Publisher) -> None:
        message = out.turn.message
        if message.get("role") != "ROLE_USER":
            raise AgentCrash("Message must be from a user")
        if not message.get("parts"):
            raise AgentCrash("Message parts cannot be empty")
        if any(p.get("text") == "" for p in message["parts"]):
            raise AgentCrash("Message.text cannot be empty")
        out.task_id = message.get("taskId") or out.ids.new()
        out.context_id = message.get("contextId") or out.ids.new()
        out.state = states.transition(None, states.SUBMITTED)
        # (the message itself: the agent changes no message it holds, and writes every answer anew)
        task: dict[str, Any] = {"id": out.task_id, "contextId": out.context_id,
                                "status": {"state": states.SUBMITTED}, "history": [message]}
        out.events.append(Event("task", task))


@dataclass(frozen=True)
class SetStatus:
    """Move the task to ``state``, with an agent message carrying ``text`` if given."""

    state: str
    text: str | None = None

    def run(self, out: _Publisher) -> None:
        if out.state in states.TERMINAL:
            raise AgentCrash(f"Task {out.task_id} is already in a terminal state.")
        if out.state is not None and not states.accepts(out.state, self.state):
            raise AgentCrash(f"a task in {out.state} cannot move to {self.state}")
        out.state = self.state
        status: dict[str, Any] = {"state": self.state}
        if self.text is not None:
            status["message"] = out.agent_message(out.fill(self.text))
        status["timestamp"] = out.clock.now()
        out.events.append(Event("statusUpdate", {"taskId": out.task_id, "contextId": out.context_id,
                                                 "status": status}))


@dataclass(frozen=True)
class SendArtifact:
    """One artifact named ``name``, sent in ``chunks``: each a text part (a template), or a part as
    protobuf holds it (data, a URL, raw bytes, or text with a media type; sent as it is)."""

    name: str
    chunks: tuple[str | dict[str, Any], ...]

    def run(self, out: _Publisher) -> None:
        artifact_id = out.ids.new()
        for i, chunk in enumerate(self.chunks):
            part = {"text": out.fill(chunk)} if isinstance(chunk, str) else copy_json(chunk)
            update: dict[str, Any] = {
                "taskId": out.task_id, "contextId": out.context_id,
                "artifact": {"artifactId": artifact_id, "name": self.name, "parts": [part]},
            }
            if i > 0:
                update["append"] = True
            if i == len(self.chunks) - 1 and len(self.chunks) > 1:
                update["lastChunk"] = True
            out.events.append(Event("artifactUpdate", update))


Step = Reply | CreateTask | SetStatus | SendArtifact
Condition = TextStartsWith | TextIs | WaitingIn | Otherwise


@dataclass(frozen=True)
class Rule:
    """When ``when`` holds, publish ``steps`` in order."""

    when: Condition
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Script:
    """An agent's behaviour: rules for a first message and rules for a follow-up. (Cancelling
    needs none: the agent's cancel, where the SDK calls it, publishes a bare ``TASK_STATE_CANCELED``
    status, as ``TaskUpdater.cancel`` does; see `harness`.)"""

    first_message: tuple[Rule, ...]
    follow_up: tuple[Rule, ...]
    subject_prefix: str = ""

    def execute(self, turn: Turn, ids: IdSource, clock: Clock) -> list[Event]:
        """The events the agent publishes for ``turn``, in order."""
        rules = self.follow_up if turn.current_task is not None else self.first_message
        out = _Publisher(self, turn, ids, clock)
        for rule in rules:
            if rule.when.holds(turn):
                for step in rule.steps:
                    step.run(out)
                break
        return out.events
