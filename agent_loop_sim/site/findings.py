"""What the recordings showed, as data: each finding names the messages that show it.

A finding is prose (ours) plus evidence. Every piece of evidence points at a session and a
message number and says what must hold there: a JSON path has a value, a message is a
JSON-RPC error with a code, a message gets no reply, a field differs between two messages.
The site checks all of it against the committed recordings on every build, so a finding
cannot outlive the behaviour it describes: when the SDK changes and the recordings are made
again, the build fails naming the finding and the message.

Paths are written as the rest of the project writes them (``$.result.tools[0].name``,
``$.params._meta["io.modelcontextprotocol/protocolVersion"]``).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..transcript import Message, Transcript
from .markdown import code, json_value

MISSING: Any = object()

KINDS = {
    "observation": "What the recordings showed",
    "departure": "Where the SDK departs from the specification",
}

_STEP = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


def parse_path(path: str) -> list[str | int]:
    """``$.a[0]["b/c"]`` -> ``["a", 0, "b/c"]``; the inverse of :func:`agent_loop_sim.jsonio.json_path`."""
    if not path.startswith("$"):
        raise ValueError(f"a JSON path starts with '$': {path!r}")
    parts: list[str | int] = []
    at = 1
    while at < len(path):
        m = _STEP.match(path, at)
        if m is None:
            raise ValueError(f"cannot read the JSON path {path!r} at character {at + 1}")
        name, index, quoted = m.groups()
        parts.append(name if name is not None else int(index) if index is not None else json.loads(quoted))
        at = m.end()
    return parts


def resolve(value: Any, path: str) -> Any:
    """The value at ``path``, or :data:`MISSING`."""
    for part in parse_path(path):
        if isinstance(part, int) and isinstance(value, list) and 0 <= part < len(value):
            value = value[part]
        elif isinstance(part, str) and isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return MISSING
    return value


class NotThere(Exception):
    """The message an evidence points at does not exist (or is not JSON)."""


@dataclass(frozen=True)
class Recorded:
    """What evidence is checked against: the committed sessions, and the scenarios that made them
    (some facts, such as a header left out on purpose, are only in the scenario)."""

    transcripts: dict[str, Transcript]
    scenarios: dict[str, dict[str, Any]] = field(default_factory=dict)


def message_at(rec: Recorded, session: str, n: int) -> Message:
    transcript = rec.transcripts.get(session)
    if transcript is None:
        raise NotThere(f"there is no session {session!r} in the committed recordings")
    if not 1 <= n <= len(transcript.messages):
        raise NotThere(f"session {session!r} has {len(transcript.messages)} messages, not {n}")
    return transcript.messages[n - 1]


def json_at(rec: Recorded, session: str, n: int, path: str) -> Any:
    message = message_at(rec, session, n)
    if message.is_raw:
        raise NotThere(f"session {session!r}, message {n} is a raw line, not JSON")
    return resolve(message.json, path)


def _shown(value: Any) -> str:
    return "(absent)" if value is MISSING else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class At:
    """A place in the committed recordings; message 0 is the session's scenario."""

    session: str
    message: int
    path: str = "$"


class Evidence(Protocol):
    def places(self) -> list[At]: ...

    def claim(self) -> str:
        """What must hold, as Markdown (the places are linked by the page)."""

    def check(self, rec: Recorded) -> str | None:
        """``None`` when it holds, else why not (one line)."""


@dataclass(frozen=True)
class _OneMessage:
    """Evidence about one message of one session; ``where`` is the JSON path it looks at."""

    session: str
    message: int

    @property
    def where(self) -> str:
        return "$"

    def places(self) -> list[At]:
        return [At(self.session, self.message, self.where)]


@dataclass(frozen=True)
class _AtPath(_OneMessage):
    path: str

    @property
    def where(self) -> str:
        return self.path


@dataclass(frozen=True)
class JsonEquals(_AtPath):
    value: Any

    def claim(self) -> str:
        return f"{code(self.path)} is {json_value(self.value)}"

    def check(self, rec: Recorded) -> str | None:
        found = json_at(rec, self.session, self.message, self.path)
        if found is not MISSING and type(found) is type(self.value) and found == self.value:
            return None
        return f"{self.path} is {_shown(found)}, the finding needs {_shown(self.value)}"


@dataclass(frozen=True)
class Present(_AtPath):
    def claim(self) -> str:
        return f"carries {code(self.path)}"

    def check(self, rec: Recorded) -> str | None:
        if json_at(rec, self.session, self.message, self.path) is MISSING:
            return f"{self.path} is absent, the finding needs it present"
        return None


@dataclass(frozen=True)
class Absent(_AtPath):
    def claim(self) -> str:
        return f"has no {code(self.path)}"

    def check(self, rec: Recorded) -> str | None:
        found = json_at(rec, self.session, self.message, self.path)
        return None if found is MISSING else f"{self.path} is {_shown(found)}, the finding needs it absent"


@dataclass(frozen=True)
class ErrorCode(_OneMessage):
    """A JSON-RPC error response with this code."""

    code: int

    @property
    def where(self) -> str:
        return "$.error.code"

    def claim(self) -> str:
        return f"is a JSON-RPC error, code {code(str(self.code))}"

    def check(self, rec: Recorded) -> str | None:
        found = json_at(rec, self.session, self.message, "$.error.code")
        if type(found) is int and found == self.code:
            return None
        return f"$.error.code is {_shown(found)}, the finding needs {self.code}"


@dataclass(frozen=True)
class IsRaw(_OneMessage):
    """The message is a line that is not JSON."""

    def claim(self) -> str:
        return "is a line that is not JSON"

    def check(self, rec: Recorded) -> str | None:
        return None if message_at(rec, self.session, self.message).is_raw else "the message is JSON"


@dataclass(frozen=True)
class NoReply(_OneMessage):
    """The other side says nothing before the sender's next message (nor a late -32700)."""

    def claim(self) -> str:
        return "gets no reply: the next message on the wire comes from the same side"

    def check(self, rec: Recorded) -> str | None:
        sent = message_at(rec, self.session, self.message)
        later = rec.transcripts[self.session].messages[self.message:]
        if later and later[0].sender != sent.sender:
            return f"message {self.message + 1} comes from the {later[0].sender}: a reply"
        for i, m in enumerate(later, self.message + 1):
            if m.sender == sent.receiver and isinstance(m.json, dict) and m.json.get("id") is None \
                    and resolve(m.json, "$.error.code") == -32700:
                return f"message {i} is a parse error (-32700) answering it"
        return None


@dataclass(frozen=True)
class ValuesDiffer:
    """One field, two messages (of one session or two), two different values."""

    a: At
    b: At

    def places(self) -> list[At]:
        return [self.a, self.b]

    def claim(self) -> str:
        same = self.a.path == self.b.path
        return (f"{code(self.a.path)} differs between the two" if same
                else f"{code(self.a.path)} and {code(self.b.path)} differ")

    def check(self, rec: Recorded) -> str | None:
        x = json_at(rec, self.a.session, self.a.message, self.a.path)
        y = json_at(rec, self.b.session, self.b.message, self.b.path)
        if x is MISSING or y is MISSING:
            return f"{self.a.path} is {_shown(x)} and {self.b.path} is {_shown(y)}: both must be present"
        if type(x) is type(y) and x == y:
            return f"both are {_shown(x)}, the finding needs them to differ"
        return None


@dataclass(frozen=True)
class ScenarioEquals:
    """What the application was told to do (a JSON path of the scenario session has a value)."""

    session: str
    path: str
    value: Any

    def places(self) -> list[At]:
        return [At(self.session, 0, self.path)]

    def claim(self) -> str:
        return f"the scenario's {code(self.path)} is {json_value(self.value)}"

    def check(self, rec: Recorded) -> str | None:
        spec = rec.scenarios.get(self.session)
        if spec is None:
            raise NotThere(f"there is no scenario session {self.session!r}")
        found = resolve(spec, self.path)
        if found is not MISSING and type(found) is type(self.value) and found == self.value:
            return None
        return f"the scenario's {self.path} is {_shown(found)}, the finding needs {_shown(self.value)}"


@dataclass(frozen=True)
class Finding:
    id: str
    family: str
    kind: str  # a key of KINDS
    title: str  # Markdown
    summary: str  # Markdown, our own words
    evidence: tuple[Evidence, ...]
    specification: str | None = None  # what the specification says instead (Markdown)

    def places(self) -> list[At]:
        return [p for e in self.evidence for p in e.places()]


@dataclass(frozen=True)
class FindingResult:
    finding: Finding
    checked: bool  # False when the project has no recordings of the finding's family
    failures: tuple[str, ...] = ()

    @property
    def holds(self) -> bool | None:
        return None if not self.checked else not self.failures

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.finding.id, "family": self.finding.family, "kind": self.finding.kind,
                "holds": self.holds, "failures": list(self.failures),
                "evidence": [{"session": p.session, "message": p.message, "path": p.path}
                             for p in self.finding.places()]}


def check_finding(finding: Finding, rec: Recorded, families: list[str]) -> FindingResult:
    if finding.family not in families:
        return FindingResult(finding, checked=False)
    if rec.scenarios and any(p.session not in rec.scenarios for p in finding.places()):
        # A finding about sessions this checkout has no scenario for (a trimmed copy) is not
        # checked; one whose scenario exists but whose recording lost the evidence fails.
        return FindingResult(finding, checked=False)
    failures = []
    for evidence in finding.evidence:
        place = evidence.places()[0]
        try:
            why = evidence.check(rec)
        except NotThere as exc:
            why = str(exc)
        if why is not None:
            where = f"message {place.message}" if place.message else "scenario"
            failures.append(f"finding {finding.id!r}: session {place.session!r}, {where}: {why}")
    return FindingResult(finding, checked=True, failures=tuple(failures))


def check_findings(findings: tuple[Finding, ...] | list[Finding], rec: Recorded,
                   families: list[str]) -> list[FindingResult]:
    return [check_finding(f, rec, families) for f in findings]


MCP_VERSION = '$.params._meta["io.modelcontextprotocol/protocolVersion"]'

FINDINGS: tuple[Finding, ...] = (
    Finding(
        id="no-reply-to-bad-json",
        family="mcp",
        kind="departure",
        title="A line that is not JSON is dropped without a word",
        summary=(
            "The SDK's stdio server reads its input one line at a time. A line that does not parse "
            "as JSON is skipped: nothing goes back to the client, and the next answer on the wire "
            "already belongs to the next request."
        ),
        specification=(
            "JSON-RPC 2.0 has an answer for exactly this case: a *Parse error* response, code "
            "`-32700`, with a null `id`."
        ),
        evidence=(IsRaw("raw_errors", 1), NoReply("raw_errors", 1)),
    ),
    Finding(
        id="era-locked-connection",
        family="mcp",
        kind="observation",
        title="A connection stays in the era it started in",
        summary=(
            "The first valid request decides which era a connection speaks. Once a client has done "
            "the `initialize` handshake, a request wrapped in the 2026-07-28 `_meta` envelope is "
            "refused on that connection as an invalid request (`-32600`), with a message saying "
            "the connection serves the handshake era."
        ),
        evidence=(
            JsonEquals("raw_handshake", 3, "$.method", "initialize"),
            JsonEquals("raw_handshake", 4, "$.result.protocolVersion", "2025-11-25"),
            Present("raw_handshake", 6, MCP_VERSION),
            ErrorCode("raw_handshake", 7, -32600),
        ),
    ),
    Finding(
        id="tools-listed-after-structured-result",
        family="mcp",
        kind="observation",
        title="A structured tool result makes the client list the tools",
        summary=(
            "The SDK's client checks `structuredContent` against the tool's `outputSchema`, which "
            "it finds in the tool list. When the application has not listed the tools yet on this "
            "connection, the client does it by itself straight after the result, so a "
            "`tools/list` shows up that the scenario never asked for. Both eras behave the same."
        ),
        evidence=(
            Present("legacy_progress", 8, "$.result.structuredContent"),
            JsonEquals("legacy_progress", 9, "$.method", "tools/list"),
            Present("modern_progress", 5, "$.result.structuredContent"),
            JsonEquals("modern_progress", 6, "$.method", "tools/list"),
        ),
    ),
    Finding(
        id="unknown-tool-is-a-result",
        family="mcp",
        kind="departure",
        title="An unknown tool is a failed result, not a protocol error",
        summary=(
            "Asking for a tool the server does not have brings back an ordinary result: "
            "`isError` is `true` and the text says `Unknown tool: nope`. It looks exactly like "
            "the answer for a tool that ran and failed."
        ),
        specification=(
            "The specification's example for an unknown tool is a JSON-RPC error, code `-32602` "
            "(invalid params)."
        ),
        evidence=(
            JsonEquals("legacy_errors", 6, "$.params.name", "nope"),
            JsonEquals("legacy_errors", 7, "$.result.isError", True),
            Absent("legacy_errors", 7, "$.error"),
            JsonEquals("modern_errors", 4, "$.result.isError", True),
        ),
    ),
    Finding(
        id="discover-advertises-list-changed",
        family="mcp",
        kind="observation",
        title="`server/discover` and `initialize` disagree about `listChanged`",
        summary=(
            "Asked with `server/discover`, the server promises to announce changes to its tools, "
            "prompts and resources (`listChanged: true`, and `subscribe: true` for resources). "
            "Asked with `initialize`, the same server gives its own settings: `false` throughout."
        ),
        evidence=(
            JsonEquals("auto_tour", 2, "$.result.capabilities.tools.listChanged", True),
            JsonEquals("legacy_tour", 2, "$.result.capabilities.tools.listChanged", False),
            ValuesDiffer(At("auto_tour", 2, "$.result.capabilities.resources.subscribe"),
                         At("legacy_tour", 2, "$.result.capabilities.resources.subscribe")),
        ),
    ),
    Finding(
        id="cancel-keeps-status-message",
        family="a2a",
        kind="observation",
        title="Cancelling a task that waits for input keeps its question",
        summary=(
            "A task that is waiting for input has nothing running, so the SDK cancels it by writing "
            "`TASK_STATE_CANCELED` over the status it has stored. The status message (the agent's "
            "question) is left in place in the cancelled task."
        ),
        evidence=(
            JsonEquals("a2a_cancel", 4, "$.result.task.status.state", "TASK_STATE_INPUT_REQUIRED"),
            JsonEquals("a2a_cancel", 5, "$.method", "CancelTask"),
            JsonEquals("a2a_cancel", 6, "$.result.status.state", "TASK_STATE_CANCELED"),
            JsonEquals("a2a_cancel", 6, "$.result.status.message.parts[0].text",
                       "Which meeting: Monday's or Tuesday's?"),
        ),
    ),
    Finding(
        id="terminal-task-refuses-messages",
        family="a2a",
        kind="observation",
        title="A finished task refuses anything more",
        summary=(
            "Once a task has reached a terminal state, another message to it is refused with "
            "`-32004` and a text naming the task and its state (`Task … is in terminal state: …`). "
            "Subscribing to it is refused the same way; cancelling it again gets `-32002`."
        ),
        evidence=(
            ErrorCode("a2a_cancel", 10, -32004),
            JsonEquals("a2a_cancel", 10, "$.error.message", "Task <id-3> is in terminal state: TASK_STATE_CANCELED"),
            ErrorCode("a2a_cancel", 12, -32004),
            ErrorCode("a2a_cancel", 8, -32002),
        ),
    ),
    Finding(
        id="missing-version-means-0-3",
        family="a2a",
        kind="observation",
        title="No `A2A-Version` header means version 0.3",
        summary=(
            "A request without an `A2A-Version` header is read as a 0.3 request. The fixture agent "
            "speaks 1.0 only, so it turns the request down with `-32009` (version not supported), "
            "which is what the specification asks of such an agent. (Headers are not part of the "
            "recorded messages; the scenario is where the header is left out.)"
        ),
        evidence=(
            ScenarioEquals("a2a_errors", "$.steps[1].version", None),
            JsonEquals("a2a_errors", 3, "$.method", "SendMessage"),
            ErrorCode("a2a_errors", 4, -32009),
            JsonEquals("a2a_errors", 4, "$.error.message",
                       "A2A version '0.3' is not supported by this handler. Expected version '1.0'."),
        ),
    ),
    Finding(
        id="ping-removed-in-2026",
        family="mcp",
        kind="observation",
        title="`ping` is gone in 2026-07-28, but the client still sends it",
        summary=(
            "The 2026-07-28 revision has no `ping`. Asked to ping on such a connection, the SDK's "
            "client sends it anyway, wrapped in the envelope, and the server answers `-32601` "
            "(method not found) with the method's name as `data`."
        ),
        evidence=(
            JsonEquals("modern_ping", 1, "$.method", "ping"),
            Present("modern_ping", 1, MCP_VERSION),
            ErrorCode("modern_ping", 2, -32601),
            JsonEquals("modern_ping", 2, "$.error.data", "ping"),
        ),
    ),
    Finding(
        id="prompt-failures-per-era",
        family="mcp",
        kind="departure",
        title="A failing prompt is code `0` in one era and `-32603` in the other",
        summary=(
            "An unknown prompt, a missing argument or an unexpected one make the prompt handler "
            "raise. On a handshake connection the error goes out with code `0` and the exception's "
            "text (`Unknown prompt: nope`); on a 2026-07-28 connection it is a generic `-32603` "
            "`Internal server error`, the text kept on the server."
        ),
        specification=(
            "The specification lists an invalid prompt name and missing required arguments as "
            "`-32602` (invalid params); `0` is not a JSON-RPC error code at all."
        ),
        evidence=(
            JsonEquals("legacy_prompt_errors", 4, "$.params.name", "nope"),
            ErrorCode("legacy_prompt_errors", 5, 0),
            JsonEquals("legacy_prompt_errors", 5, "$.error.message", "Unknown prompt: nope"),
            ErrorCode("modern_prompt_errors", 2, -32603),
            JsonEquals("modern_prompt_errors", 2, "$.error.message", "Internal server error"),
        ),
    ),
    Finding(
        id="no-answer-to-batches",
        family="mcp",
        kind="departure",
        title="Batches get no answer at all",
        summary=(
            "A JSON array on one line, whether two pings, an empty array or a list of numbers, is "
            "dropped like a line that is not JSON: the server answers none of it, and says nothing "
            "about why."
        ),
        specification=(
            "MCP dropped batching in 2025-06-18, so not running the batch is expected; but JSON-RPC "
            "2.0 answers an empty or malformed batch with an *Invalid Request* error (`-32600`)."
        ),
        evidence=(
            JsonEquals("raw_batches", 4, "$[0].method", "ping"),
            NoReply("raw_batches", 4),
            NoReply("raw_batches", 5),
            NoReply("raw_batches", 6),
        ),
    ),
    Finding(
        id="initialized-not-waited-for",
        family="mcp",
        kind="observation",
        title="The server does not wait for `notifications/initialized`",
        summary=(
            "Requests sent after the `initialize` result but before `notifications/initialized` "
            "are served normally: the successful handshake alone opens the connection."
        ),
        evidence=(
            JsonEquals("raw_request_before_initialized", 3, "$.method", "prompts/list"),
            Present("raw_request_before_initialized", 4, "$.result.prompts"),
        ),
    ),
    Finding(
        id="extended-card-error-code",
        family="a2a",
        kind="departure",
        title="No extended card is an unsupported operation",
        summary=(
            "The fixture agent has no authenticated extended card. Asked for one, the SDK answers "
            "`-32004` with the reason `UNSUPPORTED_OPERATION` and a message saying so."
        ),
        specification=(
            "A2A 1.0 has its own error for this case: `-32007`, *ExtendedAgentCardNotConfiguredError*."
        ),
        evidence=(
            JsonEquals("a2a_errors", 9, "$.method", "GetExtendedAgentCard"),
            ErrorCode("a2a_errors", 10, -32004),
            JsonEquals("a2a_errors", 10, "$.error.data[0].reason", "UNSUPPORTED_OPERATION"),
        ),
    ),
    Finding(
        id="task-without-context-fails",
        family="a2a",
        kind="departure",
        title="A follow-up that names the task but not its context breaks the task",
        summary=(
            "A message that carries the `taskId` of a task waiting for input but no `contextId` is "
            "given a fresh context by the SDK, which then finds that context at odds with the task "
            "and answers `-32602` (`Context in event doesn't match TaskManager …`). Read back, the "
            "task has failed."
        ),
        specification=(
            "The specification lets a server infer the context from the task when only `taskId` "
            "is given."
        ),
        evidence=(
            Absent("a2a_contexts", 3, "$.params.message.contextId"),
            Present("a2a_contexts", 3, "$.params.message.taskId"),
            ErrorCode("a2a_contexts", 4, -32602),
            JsonEquals("a2a_contexts", 6, "$.result.status.state", "TASK_STATE_FAILED"),
        ),
    ),
    Finding(
        id="history-length-zero",
        family="a2a",
        kind="observation",
        title="`historyLength: 0` leaves the history out",
        summary=(
            "`GetTask` with `historyLength` 0 returns the task with no `history` field at all; with "
            "1 it keeps only the last message."
        ),
        evidence=(
            JsonEquals("a2a_history_length", 5, "$.params.historyLength", 0),
            Absent("a2a_history_length", 6, "$.result.history"),
            JsonEquals("a2a_history_length", 7, "$.params.historyLength", 1),
            Present("a2a_history_length", 8, "$.result.history[0]"),
            Absent("a2a_history_length", 8, "$.result.history[1]"),
        ),
    ),
    Finding(
        id="listen-ends-with-connection-closed",
        family="mcp",
        kind="observation",
        title="A `subscriptions/listen` stream is acknowledged at once and answered only at the end",
        summary=(
            "Over stdio, a 2026-07-28 `subscriptions/listen` request is acknowledged straight away "
            "by a notification carrying the subscription's id (the request's own id) and the kinds "
            "of change it will deliver. The request itself stays open while other requests are "
            "served; it is answered only when the client closes its side, with the SDK's own "
            "`-32000` `Connection closed` error."
        ),
        evidence=(
            JsonEquals("raw_listen", 1, "$.method", "subscriptions/listen"),
            JsonEquals("raw_listen", 2, "$.method", "notifications/subscriptions/acknowledged"),
            JsonEquals("raw_listen", 2, '$.params._meta["io.modelcontextprotocol/subscriptionId"]', 1),
            Present("raw_listen", 4, "$.result.tools"),
            ErrorCode("raw_listen", 7, -32000),
            JsonEquals("raw_listen", 7, "$.id", "c1"),
        ),
    ),
)
