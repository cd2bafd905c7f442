"""Evidence: what must hold at a place in the committed recordings, and the check that it does.

A finding (`findings`) is prose (ours) plus evidence. Every piece of evidence points at a session and a
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
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from ...compare import MISSING, diff_transcripts, show
from ...errors import InputError
from ...jsonio import json_path
from ...schema import Field, check_object
from ...transcript import Message, Transcript
from ..parts.markdown import code, json_value

KINDS = {
    "observation": "What the recordings showed",
    "departure": "Where the SDK departs from the specification",
}

_SPEC_URL = re.compile(r"^https://[^\s#]+#[^\s]+$")
_STEP = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')

def parse_path(path: str) -> list[str | int]:
    """``$.a[0]["b/c"]`` -> ``["a", 0, "b/c"]``; the inverse of `agent_loop_sim.jsonio.json_path`."""
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
    """The value at ``path``, or `MISSING`."""
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
        try:  # an A2A raw post is written down as posted; when that text is JSON, its JSON is read
            return resolve(json.loads(message.raw), path)
        except ValueError:
            raise NotThere(f"session {session!r}, message {n} is a raw line, not JSON") from None
    return resolve(message.json, path)

def _shown(value: Any) -> str:
    return show(value, limit=10_000)

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
class HttpEquals(_AtPath):
    """A message's HTTP envelope (``http``: method, path, status, headers) has a value at ``path``."""

    value: Any

    def claim(self) -> str:
        return f"its HTTP envelope's {code(self.path)} is {json_value(self.value)}"

    def check(self, rec: Recorded) -> str | None:
        message = message_at(rec, self.session, self.message)
        found = resolve(message.http, self.path) if message.http is not None else MISSING
        if found is not MISSING and type(found) is type(self.value) and found == self.value:
            return None
        return f"the HTTP envelope's {self.path} is {_shown(found)}, the finding needs {_shown(self.value)}"


@dataclass(frozen=True)
class NoHttpHeader(_OneMessage):
    """A message's HTTP envelope was recorded and has no header ``name`` (any case): what a
    request left out is shown by the request itself."""

    name: str

    @property
    def where(self) -> str:
        return "$"  # (the envelope, above the JSON: the message as a whole is the place)

    def claim(self) -> str:
        return f"was sent with no {code(self.name)} header (its HTTP envelope is recorded)"

    def check(self, rec: Recorded) -> str | None:
        message = message_at(rec, self.session, self.message)
        if message.http is None:
            return "the message has no recorded HTTP envelope, the finding needs one"
        sent = [value for key, value in message.http.get("headers") or [] if key.lower() == self.name.lower()]
        return None if not sent else f"its {self.name} header is {_shown(sent[0])}, the finding needs none"


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
class SameStepsDifferAt:
    """Two sessions that play the same steps (recorded under two harnesses, say) differ at these
    messages and nowhere else."""

    a: str
    b: str
    messages: tuple[int, ...]

    def places(self) -> list[At]:
        return [At(session, n) for n in self.messages for session in (self.a, self.b)]

    def claim(self) -> str:
        shown = ", ".join(str(n) for n in self.messages)
        return (f"{code(self.a)} and {code(self.b)} play the same steps, and their recordings differ at "
                f"message{'s' if len(self.messages) > 1 else ''} {shown} and nowhere else")

    def check(self, rec: Recorded) -> str | None:

        for session in (self.a, self.b):
            if session not in rec.transcripts:
                raise NotThere(f"there is no session {session!r} in the committed recordings")
        steps = [(rec.scenarios.get(s) or {}).get("steps") for s in (self.a, self.b)]
        if rec.scenarios and steps[0] != steps[1]:
            return f"the scenarios of {self.a!r} and {self.b!r} play different steps"
        found = sorted({d.message for d in diff_transcripts(rec.transcripts[self.a], rec.transcripts[self.b])
                        if d.message is not None} or ())
        if found != sorted(self.messages):
            return (f"the recordings differ at messages {found or 'none'}, the finding needs "
                    f"{sorted(self.messages)}")
        return None


@dataclass(frozen=True)
class Finding:
    id: str
    family: str
    kind: str  # a key of KINDS
    title: str  # Markdown
    summary: str  # Markdown, our own words
    evidence: tuple[Evidence, ...]
    specification: str | None = None  # what the specification says instead (Markdown)
    spec: str | None = None  # the URL of the specification's section

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

#: The kinds of evidence a findings file may use, by name.
EVIDENCE_KINDS: dict[str, type] = {k.__name__: k for k in (JsonEquals, Present, Absent, ErrorCode, IsRaw, NoReply,
                                                          ValuesDiffer, ScenarioEquals, SameStepsDifferAt, HttpEquals,
                                                          NoHttpHeader)}
_FINDING_FIELDS = {"id": Field(str), "family": Field(str), "kind": Field(str, choices=tuple(KINDS)),
                   "title": Field(str), "summary": Field(str), "specification": Field(str, required=False),
                   "spec": Field(str, required=False),
                   "evidence": Field(list)}
_AT_FIELDS = {"session": Field(str), "message": Field(int), "path": Field(str, required=False)}
_VALUE_TYPES = (dict, list, str, int, float, bool)

def _evidence(raw: Any, path: list[str | int]) -> Evidence:
    kind = EVIDENCE_KINDS.get(raw.get("kind")) if isinstance(raw, dict) else None
    if kind is None:
        raise InputError(f"evidence names its kind, one of {', '.join(EVIDENCE_KINDS)}", path=json_path(path + ["kind"]))
    wanted: dict[str, Field] = {"kind": Field(str)}
    for f in fields(kind):
        if f.name in ("a", "b"):
            wanted[f.name] = Field(str if kind is SameStepsDifferAt else dict)
        elif f.name == "messages":
            wanted[f.name] = Field(list)
        elif f.name == "value":
            wanted[f.name] = Field(_VALUE_TYPES, nullable=True)
        else:
            wanted[f.name] = Field({"str": str, "int": int}[f.type])  # the annotations are strings here
    check_object(raw, wanted, path, f"{kind.__name__} evidence")
    args = {k: v for k, v in raw.items() if k != "kind"}
    for end in ("a", "b"):
        if isinstance(args.get(end), dict):
            args[end] = At(**check_object(args[end], _AT_FIELDS, path + [end], "a place"))
    if "messages" in args:
        if not args["messages"] or not all(type(n) is int and n > 0 for n in args["messages"]):
            raise InputError("messages is a list of message numbers (1, 2, ...)", path=json_path(path + ["messages"]))
        args["messages"] = tuple(args["messages"])
    return kind(**args)

def load_findings(data: Any, source: str) -> tuple[Finding, ...]:
    """Findings from their data (``{"findings": [...]}``); a mistake is an `InputError` naming where."""
    try:
        check_object(data, {"findings": Field(list)}, [], "a findings file")
        out = []
        for i, raw in enumerate(data["findings"]):
            check_object(raw, _FINDING_FIELDS, ["findings", i], "a finding")
            evidence = tuple(_evidence(e, ["findings", i, "evidence", j]) for j, e in enumerate(raw["evidence"]))
            spec = raw.get("spec")
            if spec is not None and not _SPEC_URL.match(spec):
                raise InputError("a finding's spec is the https URL of the specification's section, with its #anchor",
                                 path=json_path(["findings", i, "spec"]))
            if raw["kind"] == "departure" and spec is None:
                raise InputError("a departure from the specification links the specification's section (spec)",
                                 path=json_path(["findings", i]))
            out.append(Finding(raw["id"], raw["family"], raw["kind"], raw["title"], raw["summary"], evidence,
                               raw.get("specification"), spec))
    except InputError as exc:
        raise exc.within(file=source) from None
    return tuple(out)
