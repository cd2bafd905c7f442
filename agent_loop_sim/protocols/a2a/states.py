"""The A2A task life cycle as one table: every state a task can be in, and what moves it.

Everything that changes a task's state goes through `transition`. The inputs are of two
kinds: the status updates the agent publishes while it runs (``TASK_STATE_WORKING``,
``TASK_STATE_COMPLETED``, ...), and the three requests another agent can make about an
existing task (`FOLLOW_UP` a message into it, `CANCEL` it, `SUBSCRIBE` to it).
A pair missing from `TASK_TRANSITIONS` is illegal, and that is the one place the
SDK's errors about a task's state come from (see `REFUSALS`).

A status update leaves the task in the state it names; a follow-up message or a subscription
leaves the state as it is (the agent then publishes updates of its own); cancelling a task
moves it to ``TASK_STATE_CANCELED`` (how the status is written depends on the harness, see
`harness`). Between two requests a task is always parked (input or sign-in required) or
finished: the agent has done all it can before the next request comes.
"""
from __future__ import annotations

from ..family import Code, RuleTable

SUBMITTED = "TASK_STATE_SUBMITTED"
WORKING = "TASK_STATE_WORKING"
INPUT_REQUIRED = "TASK_STATE_INPUT_REQUIRED"
AUTH_REQUIRED = "TASK_STATE_AUTH_REQUIRED"
COMPLETED = "TASK_STATE_COMPLETED"
CANCELED = "TASK_STATE_CANCELED"
FAILED = "TASK_STATE_FAILED"
REJECTED = "TASK_STATE_REJECTED"

#: Every task state, in the order of the protocol's ``TaskState`` enum (0 is ``UNSPECIFIED``).
TASK_STATES = (SUBMITTED, WORKING, COMPLETED, FAILED, CANCELED, INPUT_REQUIRED, REJECTED, AUTH_REQUIRED)
#: States a task never leaves.
TERMINAL = frozenset({COMPLETED, CANCELED, FAILED, REJECTED})
#: States in which the agent has stopped and waits for the other side.
INTERRUPTED = frozenset({INPUT_REQUIRED, AUTH_REQUIRED})
#: States after which a request's answer is final: terminal or interrupted.
STOPPED = TERMINAL | INTERRUPTED

# The requests about an existing task, named after the JSON-RPC methods that make them.
FOLLOW_UP = "SendMessage"
CANCEL = "CancelTask"
SUBSCRIBE = "SubscribeToTask"
REQUESTS = (FOLLOW_UP, CANCEL, SUBSCRIBE)

_UPDATES = {state: state for state in TASK_STATES}
_STAYS = object()  # marker: the request leaves the state unchanged

# A task that is not finished takes every status update and all three requests: the SDK
# does not restrict the order of updates, only what happens after a terminal one.
_LIVE: dict[str, str | object] = dict(_UPDATES, **{FOLLOW_UP: _STAYS, CANCEL: CANCELED, SUBSCRIBE: _STAYS})

#: ``{state: {input: next state}}``. ``None`` is "no task yet": only the agent's first
#: ``TASK_STATE_SUBMITTED`` task creates one. A terminal task takes nothing at all.
TASK_TRANSITIONS: dict[str | None, dict[str, str | object]] = {
    None: {SUBMITTED: SUBMITTED},
    SUBMITTED: _LIVE,
    WORKING: _LIVE,
    INPUT_REQUIRED: _LIVE,
    AUTH_REQUIRED: _LIVE,
    COMPLETED: {},
    CANCELED: {},
    FAILED: {},
    REJECTED: {},
}

#: What the SDK answers when a request meets a task in a state that does not take it:
#: ``(error kind, message template)``; the template may use ``{task_id}`` and ``{state}``.
REFUSALS: dict[str, tuple[str, str | None]] = {
    FOLLOW_UP: ("UnsupportedOperationError", "Task {task_id} is in terminal state: {state}"),
    CANCEL: ("TaskNotCancelableError", None),
    SUBSCRIBE: ("UnsupportedOperationError", "Task {task_id} is in terminal state: {state}"),
}


class IllegalTransition(Exception):
    """An input the task's current state does not take."""

    def __init__(self, state: str | None, event: str) -> None:
        super().__init__(f"a task in {state or 'no state'} does not take {event}")
        self.state = state
        self.event = event


def transition(state: str | None, event: str) -> str | None:
    """The state after ``event``; raises `IllegalTransition` for a pair not in the table."""
    try:
        target = TASK_TRANSITIONS[state][event]
    except KeyError:
        raise IllegalTransition(state, event) from None
    return state if target is _STAYS else target  # type: ignore[return-value]


def accepts(state: str | None, event: str) -> bool:
    """Whether a task in ``state`` takes ``event``."""
    return event in TASK_TRANSITIONS.get(state, {})


def _short(state: str) -> str:
    return state.removeprefix("TASK_STATE_").lower()


def task_rules() -> list[RuleTable]:
    """`TASK_TRANSITIONS` as the site draws it: a row per state, a column per input."""
    inputs = [*TASK_STATES, *REQUESTS]
    rows = []
    for state, takes in TASK_TRANSITIONS.items():
        cells = [_short(transition(state, i) or "") if i in takes else "—" for i in inputs]
        rows.append((Code(_short(state)) if state else "(no task)", *cells))
    head = tuple(_short(i) if i in TASK_STATES else Code(i) for i in inputs)
    return [RuleTable(
        "The task life cycle",
        "The engine's rule, drawn from its table (`TASK_TRANSITIONS`): the state a task moves to "
        "(row: its state now) on each status update the agent publishes (`TASK_STATE_…`, shortened) "
        "and on each request about the task; — marks what that state refuses.",
        ("State", *head), tuple(rows))]
