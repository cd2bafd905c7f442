"""The coverage page: every method in the engine's tables, and the committed sessions that send it.

Read from the engine's own tables (MCP: `protocols.mcp.methods.SURFACE`, by direction and
revision; A2A: the JSON-RPC methods the agent serves, `protocols.a2a.agent.METHODS`) and from
the committed recordings, never typed by hand. An MCP message counts in the era it is written
in: a client message carrying the 2026-07-28 envelope in ``_meta`` is in the stateless era, any
other in the handshake era, and a server message in the era of the client message before it.
Every method the engine models must be sent in at least one committed session, in every era
that defines it: a cell left at zero is a problem, and the build fails naming it.

Each cell is split by transport, named from the recording's own ``transport`` field (stdio or
Streamable HTTP for MCP, HTTP for A2A).

Then, per method, the kinds of value its sessions send (`KINDS`), each read from the committed
messages with the protocol's own tables (`mcp_kinds`, `a2a_kinds`), and where a kind applies to
a method from the same tables (`applies_mcp`, `applies_a2a`): an enumeration only where a field
of the method is one, a late answer only where the protocol can cancel a request. A kind no
session sends is a gap shown on the page, not a problem: the build fails only on a method no
session sends at all.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from ...protocols.a2a.agent import METHODS as A2A_METHODS
from ...protocols.a2a.scenario import STEP_FIELDS as A2A_STEPS
from ...protocols.a2a.types import ENUMS as A2A_ENUMS
from ...protocols.a2a.types import STRING, TYPES as A2A_TYPES, FieldSpec
from ...protocols.mcp.definition import AskModel, AskUser
from ...protocols.mcp.methods import NOT_SENT_BY_THE_FIXTURE, PARAMS_FIELDS, SURFACE, UNREACHABLE_IN
from ...protocols.mcp.scenario import ACTION_FIELDS as MCP_ACTIONS
from ...protocols.mcp.versions import META_PROTOCOL_VERSION, STATELESS_VERSIONS
from ...protocols.mcp.wire_2025_11_25 import ANSWER_MODELS, server_request
from ...transcript import Transcript
from ..parts import rawhtml
from ..parts.markdown import text

COVERAGE_PAGE = "coverage.md"
ERAS = ("handshake", "2026-07-28")
HANDSHAKE, STATELESS = ERAS

# The kinds of value a session sends, in the page's order.
VALID = "valid"
OUTSIDE = "outside an enumeration"
LITERAL = "literal id"
DUPLICATE = "duplicate id"
MISSING = "missing id"
LATE = "late answer"
RAW = "raw among ordinary steps"
KINDS = (VALID, OUTSIDE, LITERAL, DUPLICATE, MISSING, LATE, RAW)

#: server request -> the client's answer model (the questions the engine's server asks)
_QUESTIONS: dict[str, type] = {server_request(q)[0]: type(q) for q in (AskUser("k", "", {}), AskModel("k", "", 1))}

#: How each kind is read from a session, as the page says it.
KIND_RULES: dict[str, str] = {
    VALID: "a request or notification with none of the marks below, whose answer is not JSON-RPC's refusal of "
           "its shape (-32700, -32600, -32602)",
    OUTSIDE: "a value of an enumeration field (the protocol's own tables: A2A's "
             + ", ".join(f"`{name}`" for name in A2A_ENUMS) + "; MCP's "
             + ", ".join(f"`{name}` of `{method}`" for method, fields in PARAMS_FIELDS.items()
                         for name, (accepted, _) in fields.items() if isinstance(accepted, tuple))
             + ", and the client's answer to "
             + ", ".join(f"`{method}` (`{name}`)" for method, question in _QUESTIONS.items()
                         for name, (_, allowed) in ANSWER_MODELS[question].items() if allowed)
             + ") that names none of its values, by name or number",
    LITERAL: "an id the application wrote itself: A2A, a non-empty id field holding no id the SDKs generated "
             "(the normal form's `<id-N>`); MCP, a request of a raw session (the SDK client numbers its own)",
    DUPLICATE: "an id already sent in the session: A2A, a message's own `messageId` again; MCP, a JSON-RPC "
               "request id the same side already used",
    MISSING: "an id the protocol requires, left out: A2A, a REQUIRED id field absent or empty; MCP, a request "
             "method sent without a JSON-RPC id",
    LATE: "a request its sender cancelled (`notifications/cancelled`: a read timeout or a cancel) before "
          "any answer came, so an answer can only come late",
    RAW: "a raw post written among a session's ordinary steps (the scenario's `raw` step), by the methods "
         "its body names",
}

# JSON-RPC's refusals of a request's shape (parse error, invalid request, invalid params).
_REFUSALS = frozenset({-32700, -32600, -32602})
_GENERATED_ID = re.compile(r"\A<id-\d+>\Z")  # an id the SDKs made, as the normal form names it


def era_of_revision(version: str) -> str:
    return STATELESS if version in STATELESS_VERSIONS else HANDSHAKE


def transport_name(described: str) -> str:
    """The transport a recording's ``transport`` field names: its words, the most specific first."""
    for name in ("Streamable HTTP", "stdio", "HTTP"):
        if name in described:
            return name
    return described or "unknown"


@dataclass
class Row:
    """One method: where it is defined, whether the engine models it, who sends it where."""

    family: str
    direction: str
    method: str
    eras: tuple[str, ...]  # the eras whose revisions define it (A2A: the one binding)
    unmodelled: str | None = None  # why the engine has no rule for it (never sent by the fixture)
    sessions: dict[str, list[str]] = field(default_factory=dict)  # era -> sessions that send it
    unreachable: dict[str, str] = field(default_factory=dict)  # era -> why it cannot be sent there
    applies: tuple[str, ...] = ()  # the kinds of value the protocol lets this method carry
    kinds: dict[str, list[str]] = field(default_factory=dict)  # kind -> sessions that send it

    @property
    def required(self) -> list[str]:
        """The eras in which a committed session must send the method."""
        return [] if self.unmodelled else [era for era in self.eras if era not in self.unreachable]

    @property
    def missing(self) -> list[str]:
        """The required eras in which no committed session sends it."""
        return [era for era in self.required if not self.sessions.get(era)]

    @property
    def gaps(self) -> list[str]:
        """The kinds that apply to it that no committed session sends (shown, not refused)."""
        return [kind for kind in self.applies if not self.kinds.get(kind)]


def _items(message: Any) -> list[dict[str, Any]]:
    items = message if isinstance(message, list) else [message]  # a batch counts item by item
    return [m for m in items if isinstance(m, dict) and isinstance(m.get("method"), str)]


def _answers(message: Any) -> list[dict[str, Any]]:
    items = message if isinstance(message, list) else [message]
    return [m for m in items if isinstance(m, dict) and "method" not in m and ("result" in m or "error" in m)]


def _key(request_id: Any) -> tuple[str, str]:
    """A JSON-RPC id as a key: 1, "1" and true stay three ids, and an object id is one too."""
    return type(request_id).__name__, json.dumps(request_id, sort_keys=True)


def _refused(answer: dict[str, Any]) -> bool:
    error = answer.get("error")
    return isinstance(error, dict) and error.get("code") in _REFUSALS


def _stamped_era(message: dict[str, Any]) -> str:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(META_PROTOCOL_VERSION) if isinstance(meta, dict) else None
    return STATELESS if version in STATELESS_VERSIONS else HANDSHAKE


def mcp_sent(transcript: Transcript) -> set[tuple[str, str, str]]:
    """(direction, method, era) of every method a session sends."""
    out: set[tuple[str, str, str]] = set()
    era = HANDSHAKE
    for m in transcript.messages:
        for item in _items(m.json):
            if m.sender == "client":
                era = _stamped_era(item)
            kind = "request" if "id" in item else "notification"
            out.add((f"{m.sender} {kind}", item["method"], era))
    return out


def _body(m: Any) -> Any:
    """A message's JSON; a raw post's body read as JSON (a raw post is written down as posted)."""
    if m.is_raw:
        try:
            return json.loads(m.raw)
        except ValueError:
            return None
    return m.json


def a2a_sent(transcript: Transcript) -> set[str]:
    """The JSON-RPC methods a session's requests name (a raw post's body is read as JSON)."""
    out: set[str] = set()
    for m in transcript.messages:
        if m.sender == "orchestrator":
            out.update(item["method"] for item in _items(_body(m)))
    return out


# --- Kinds of value: MCP ---------------------------------------------------------------------

_CANCELLED = "notifications/cancelled"


def _mcp_enumerations(direction: str, method: str) -> dict[str, tuple[str, ...]]:
    """The enumeration fields of what is sent for a method: a client request's params, or the
    client's answer to a server request."""
    if direction == "client request":
        fields = PARAMS_FIELDS.get(method, {})
        return {name: accepted for name, (accepted, _) in fields.items() if isinstance(accepted, tuple)}
    if direction == "server request" and method in _QUESTIONS:
        return {name: allowed for name, (_, allowed) in ANSWER_MODELS[_QUESTIONS[method]].items() if allowed}
    return {}


def applies_mcp(direction: str, method: str) -> tuple[str, ...]:
    """The kinds of value the protocol lets a method carry: ids and their faults only on the
    requests an application writes (the client's), a late answer on the requests whose sender can
    cancel them (a ``notifications/cancelled`` of its own), raw among ordinary steps only if the
    scenario language has such a step (MCP's does not: the SDK client owns the connection)."""
    side, kind = direction.split()
    out = [VALID]
    if _mcp_enumerations(direction, method):
        out.append(OUTSIDE)
    if direction == "client request":
        out += [LITERAL, DUPLICATE, MISSING]
    if kind == "request" and _CANCELLED in SURFACE.get(f"{side} notification", {}):
        out.append(LATE)
    if "raw" in MCP_ACTIONS:
        out.append(RAW)
    return tuple(k for k in KINDS if k in out)


@dataclass
class _Sent:
    key: tuple[str, str]  # (direction, method)
    marks: set[str] = field(default_factory=set)
    refused: bool = False
    answered: bool = False


def mcp_kinds(transcript: Transcript, scenario: dict[str, Any] | None = None) -> set[tuple[str, str, str]]:
    """(direction, method, kind) of every value a session sends."""
    written = (scenario or {}).get("mode") == "raw"  # every line of a raw session is the application's
    sent: list[_Sent] = []
    pending: dict[str, dict[Any, _Sent]] = {"client": {}, "server": {}}  # sender -> id -> its request
    used: dict[str, set[Any]] = {"client": set(), "server": set()}
    for m in transcript.messages:
        other = "server" if m.sender == "client" else "client"
        for answer in _answers(m.json):
            request = pending[other].pop(_key(answer.get("id")), None)
            if request is None:
                continue
            request.answered, request.refused = True, _refused(answer)
            result = answer.get("result")
            for name, allowed in _mcp_enumerations(*request.key).items():
                if isinstance(result, dict) and name in result and result[name] not in allowed:
                    request.marks.add(OUTSIDE)
        for item in _items(m.json):
            method = item["method"]
            if "id" not in item:
                if method in SURFACE.get(f"{m.sender} request", {}) and method not in SURFACE.get(
                        f"{m.sender} notification", {}):
                    sent.append(_Sent((f"{m.sender} request", method), {MISSING}))
                    continue
                sent.append(_Sent((f"{m.sender} notification", method)))
                if method == _CANCELLED:
                    _mark_late(pending[m.sender], item, "c" if m.sender == "client" else "s")
                continue
            entry = _Sent((f"{m.sender} request", method))
            request_id = _key(item["id"])
            if request_id in used[m.sender]:
                entry.marks.add(DUPLICATE)
            used[m.sender].add(request_id)
            if written and m.sender == "client":
                entry.marks.add(LITERAL)
            params = item.get("params")
            for name, allowed in _mcp_enumerations(*entry.key).items():
                if isinstance(params, dict) and name in params and params[name] not in allowed:
                    entry.marks.add(OUTSIDE)
            pending[m.sender][request_id] = entry
            sent.append(entry)
    return {(*s.key, kind) for s in sent for kind in (s.marks or ({VALID} if not s.refused else set()))}


def _mark_late(pending: dict[Any, _Sent], cancel: dict[str, Any], prefix: str) -> None:
    """Mark the request a ``notifications/cancelled`` withdraws, if it is still unanswered. Its
    ``requestId`` is the id as sent, which the normal form keeps, while the request's own id is
    renumbered (``c2``): the SDKs number from 1 in order, as the normal form does, so ``2`` is
    ``c2``; with one request pending, that one."""
    params = cancel.get("params")
    wanted = params.get("requestId") if isinstance(params, dict) else None
    request = pending.get(_key(f"{prefix}{wanted}")) or pending.get(_key(wanted))
    if request is None and len(pending) == 1:
        request = next(iter(pending.values()))
    if request is not None:
        request.marks.add(LATE)


# --- Kinds of value: A2A ---------------------------------------------------------------------

def _fields(type_name: str) -> dict[str, FieldSpec]:
    """A type's fields by JSON name and by proto name (protobuf's parser takes both)."""
    return {key: spec for spec in A2A_TYPES.get(type_name, ()) for key in (spec.json, spec.name)}


def _is_id(spec: FieldSpec) -> bool:
    return spec.kind == STRING and not spec.repeated and (spec.name == "id" or spec.name.endswith("_id"))


def _own_id(type_name: str, spec: FieldSpec) -> bool:
    """The field naming the object itself (``Message.message_id``): a new object takes a new one."""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", type_name).lower()
    return spec.name == f"{snake}_id"


def _walk_types(type_name: str, seen: frozenset[str] = frozenset()) -> Iterable[tuple[str, FieldSpec]]:
    """Every (type, field) reachable from a method's params type."""
    for spec in A2A_TYPES.get(type_name, ()):
        yield type_name, spec
        if spec.inner and spec.inner not in seen:
            yield from _walk_types(spec.inner, seen | {type_name})


def applies_a2a(method: str) -> tuple[str, ...]:
    """The kinds of value the protocol lets a method carry, from its params type: an enumeration
    where a field is one, literal ids where a field is an id, a duplicate where the params carry
    an object's own id, a missing id where an id is REQUIRED; no late answer (A2A has no request
    cancellation; CancelTask cancels a task); raw among ordinary steps where the scenario language
    has a ``raw`` step."""
    specs = list(_walk_types(A2A_METHODS[method]))
    out = [VALID]
    if any(spec.enum for _, spec in specs):
        out.append(OUTSIDE)
    if any(_is_id(spec) for _, spec in specs):
        out.append(LITERAL)
    if any(_is_id(spec) and _own_id(t, spec) for t, spec in specs):
        out.append(DUPLICATE)
    if any(_is_id(spec) and spec.required for _, spec in specs):
        out.append(MISSING)
    if "raw" in A2A_STEPS:
        out.append(RAW)
    return tuple(out)


def _outside(names: tuple[str, ...], value: Any) -> bool:
    """Whether an enumeration value names none of its values, by name or by number."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return False  # a wrong type, not a value of the enumeration
    if value in names:
        return False
    try:
        return not 0 <= int(value) < len(names)
    except ValueError:
        return True


def _a2a_marks(type_name: str, value: Any, marks: set[str], own_ids: list[Any]) -> None:
    if not isinstance(value, dict):
        return
    by_key = _fields(type_name)
    for spec in A2A_TYPES.get(type_name, ()):
        # absent, null or empty (protobuf's default): a wrong-typed id is not a missing one
        given = [value[k] for k in (spec.json, spec.name) if value.get(k) not in (None, "")]
        if _is_id(spec) and spec.required and not given:
            marks.add(MISSING)
    for key, item in value.items():
        spec = by_key.get(key)
        if spec is None:
            continue
        if spec.enum and (any(_outside(spec.enum, v) for v in item) if spec.repeated and isinstance(item, list)
                          else _outside(spec.enum, item)):
            marks.add(OUTSIDE)
        if _is_id(spec) and isinstance(item, str) and item and not _GENERATED_ID.match(item):
            marks.add(LITERAL)
        if _is_id(spec) and _own_id(type_name, spec) and isinstance(item, str) and item:  # (a str: hashable)
            own_ids.append(item)
        if spec.inner:
            for inner in (item if spec.repeated and isinstance(item, list) else [item]):
                _a2a_marks(spec.inner, inner, marks, own_ids)


def a2a_kinds(transcript: Transcript, scenario: dict[str, Any] | None = None) -> set[tuple[str, str]]:
    """(method, kind) of every value a session sends."""
    out: set[tuple[str, str]] = set()
    pending: dict[Any, _Sent] = {}
    sent: list[_Sent] = []
    seen_ids: set[Any] = set()
    for m in transcript.messages:
        body = _body(m)
        if m.sender != "orchestrator":
            for answer in _answers(body):
                request = pending.pop(_key(answer.get("id")), None)
                if request is not None:
                    request.refused = _refused(answer)
            continue
        for item in _items(body):
            method = item["method"]
            entry = _Sent(("request", method))
            if method in A2A_METHODS:
                own_ids: list[Any] = []
                params = item.get("params")  # (none at all: read as {}, as protobuf reads it)
                _a2a_marks(A2A_METHODS[method], {} if params is None else params, entry.marks, own_ids)
                if any(i in seen_ids for i in own_ids):
                    entry.marks.add(DUPLICATE)
                seen_ids.update(own_ids)
            pending.setdefault(_key(item.get("id")), entry)
            sent.append(entry)
    for s in sent:
        out.update((s.key[1], kind) for kind in (s.marks or ({VALID} if not s.refused else set())))
    steps = (scenario or {}).get("steps") or []
    if any(isinstance(s, dict) and s.get("op") != "raw" for s in steps):  # ordinary steps around them
        for step in steps:
            if isinstance(step, dict) and step.get("op") == "raw":
                try:
                    body = json.loads(step.get("body", ""))
                except ValueError:
                    continue
                out.update((item["method"], RAW) for item in _items(body))
    return out


# --- The rows --------------------------------------------------------------------------------

def coverage(transcripts: dict[str, Transcript], families: dict[str, str],
             scenarios: dict[str, dict[str, Any]] | None = None) -> list[Row]:
    """The rows of the page; ``families`` maps each session to its family, ``scenarios`` each to
    its scenario session as written (for its mode and its raw steps)."""
    scenarios = scenarios or {}
    rows: list[Row] = []
    mcp_names = [name for name in transcripts if families.get(name) == "mcp"]
    mcp = {name: mcp_sent(transcripts[name]) for name in mcp_names}
    mcp_kind = {name: mcp_kinds(transcripts[name], scenarios.get(name)) for name in mcp_names}
    for direction, methods in SURFACE.items():
        for method, revisions in methods.items():
            row = Row("mcp", direction, method, tuple(e for e in ERAS if any(era_of_revision(v) == e for v in revisions)),
                      NOT_SENT_BY_THE_FIXTURE.get((direction, method)), applies=applies_mcp(direction, method))
            row.unreachable = {era_of_revision(v): why for (d, m, v), why in UNREACHABLE_IN.items()
                               if (d, m) == (direction, method)}
            for era in ERAS:
                row.sessions[era] = sorted(n for n, sent in mcp.items() if (direction, method, era) in sent)
            for kind in KINDS:
                row.kinds[kind] = sorted(n for n, sent in mcp_kind.items() if (direction, method, kind) in sent)
            rows.append(row)
    a2a_names = [name for name in transcripts if families.get(name) == "a2a"]
    a2a = {name: a2a_sent(transcripts[name]) for name in a2a_names}
    a2a_kind = {name: a2a_kinds(transcripts[name], scenarios.get(name)) for name in a2a_names}
    for method in A2A_METHODS:
        rows.append(Row("a2a", "request", method, ("1.0",), applies=applies_a2a(method),
                        sessions={"1.0": sorted(n for n, sent in a2a.items() if method in sent)},
                        kinds={kind: sorted(n for n, sent in a2a_kind.items() if (method, kind) in sent)
                               for kind in KINDS}))
    return rows


def coverage_of(report: Any) -> tuple[list[Row], dict[str, str]]:
    """The rows of a check report (`agent_loop_sim.check.Report`), and each session's transport."""
    transports = {s.name: transport_name(f.transport) for f in report.files for s in f.sessions}
    return coverage(report.transcripts, {s.name: s.family for s in report.sessions}, report.scenarios), transports


def problems(rows: list[Row], families: list[str]) -> list[str]:
    """A problem for each required cell no session fills, in the families the project has."""
    return [f"coverage: the {r.family.upper()} {r.direction} {r.method!r} ({era}) is in the engine's tables but "
            "no committed session sends it" for r in rows if r.family in families for era in r.missing]


# --- The page --------------------------------------------------------------------------------

_SHOWN = 3  # sessions named in a cell before the rest fold away (a <details>, no script needed)


def _names(names: list[str], links: dict[str, str]) -> str:
    def one(n: str) -> str:
        return rawhtml.a(links[n], rawhtml.text(n)) if n in links else rawhtml.text(n)

    shown = ", ".join(one(n) for n in names[:_SHOWN])
    if len(names) > _SHOWN:
        rest = ", ".join(one(n) for n in names[_SHOWN:])
        shown += f' <details class="more-sessions"><summary>and {len(names) - _SHOWN} more</summary>&nbsp;{rest}</details>'
    return f'<span class="sessions">{shown}</span>'


def _by_transport(names: list[str], transports: dict[str, str], order: list[str], links: dict[str, str]) -> str:
    """A cell's sessions, one line per transport (a transport with none is said, so a gap shows)."""
    lines = []
    for transport in order:
        mine = [n for n in names if transports.get(n) == transport]
        head = f"<strong>{rawhtml.text(transport)}</strong>"
        lines.append(f"{head} {len(mine)}: {_names(mine, links)}" if mine else f"{head} <em>none</em>")
    return "<br>".join(lines)


def _cell(row: Row, era: str, links: dict[str, str], transports: dict[str, str], order: list[str]) -> str:
    names = row.sessions.get(era, [])
    defined = era in row.eras
    if not names:
        if not defined:
            return "—"
        if era in row.unreachable:
            return "cannot happen: " + rawhtml.text(row.unreachable[era])
        return "not sent by the fixture" if row.unmodelled else "<strong>none</strong>"
    tag = "" if defined else " (outside its revisions)"
    return f"{len(names)}{tag}:<br>" + _by_transport(names, transports, order, links)


def _kind_cell(names: list[str], links: dict[str, str]) -> str:
    return f"{len(names)}: {_names(names, links)}" if names else '<strong class="gap">gap</strong>'


def _family_transports(rows: list[Row], transports: dict[str, str]) -> list[str]:
    named = {transports[n] for r in rows for names in r.sessions.values() for n in names if n in transports}
    known = ["stdio", "Streamable HTTP", "HTTP"]
    return [t for t in known if t in named] + sorted(named - set(known))


def _applies_table(rows: list[Row]) -> str:
    body = []
    for kind in KINDS:
        methods = [r for r in rows if kind in r.applies]
        where = ("every method" if len(methods) == len(rows) else
                 ", ".join(rawhtml.code(r.method) + (f" ({rawhtml.text(r.direction)})" if r.family == "mcp" else "")
                           for r in methods) or "no method")
        body.append([rawhtml.text(kind), where])
    return rawhtml.table(["Kind", "Applies to"], body, searched=False)


def render_coverage(rows: list[Row], links: dict[str, str], transports: dict[str, str] | None = None) -> str:
    """The page; ``links`` maps a session to its page (a URL relative to this one), ``transports``
    each session to its transport."""
    transports = transports or {}
    lines = ["# Coverage", "",
             "Every method in the engine's tables, whether the engine models it, and the committed "
             "sessions that send it, counted from the recordings at build time, each cell split by the "
             "transport its recording names. An MCP message counts "
             "in the era it is written in (the 2026-07-28 `_meta` envelope marks the stateless era). "
             "A cell marked **none** fails the build; “—” means the era's revisions do not define "
             "the method (a count there is a session sending it anyway, to show the refusal).", "",
             "Below each family's methods, the kinds of value each method's sessions send. "
             "**How a kind is found:** each request and notification of every committed session is read "
             "against the protocol's own tables (the engine's enumerations, id fields and REQUIRED marks, "
             "the requests each side can cancel), and the scenario's steps for raw posts among ordinary "
             "ones; no list of sessions is kept by hand. A message may be of several kinds. "
             "A kind applies to a method only where the protocol lets the method carry it (the tables "
             "under *Where each kind applies*); an applicable kind no session sends is a "
             "**gap**: shown, not a build failure.", ""]
    lines += ["| Kind | How it is read from a session |", "|---|---|"]
    lines += [f"| {text(kind)} | {KIND_RULES[kind].replace('|', '&#124;')} |" for kind in KINDS]
    lines.append("")
    for family, title in (("mcp", "MCP"), ("a2a", "A2A 1.0 (JSON-RPC binding)")):
        mine = [r for r in rows if r.family == family]
        modelled = [r for r in mine if not r.unmodelled]
        order = _family_transports(mine, transports)
        cells = [(r, e) for r in modelled for e in r.required]
        covered = sum(1 for r, e in cells if r.sessions.get(e))
        percent = 100 * covered / len(cells) if cells else 100.0
        kind_cells = [(r, k) for r in modelled for k in r.applies]
        kinds_covered = sum(1 for r, k in kind_cells if r.kinds.get(k))
        lines += [f"## {title}", "",
                  f"{covered} of {len(cells)} method × era cells the engine models are sent in a committed "
                  f"session: **{percent:.0f} %**. "
                  f"{len(mine) - len(modelled)} method(s) the fixture never sends have no rule. "
                  f"Transports: {', '.join(order) or 'none'}.", ""]
        if family == "mcp":
            head = ["Method", "Sent by", "Modelled", "Handshake era", "2026-07-28"]
            body = [[rawhtml.code(r.method), rawhtml.text(r.direction),
                     "no: " + rawhtml.text(r.unmodelled) if r.unmodelled else "yes",
                     _cell(r, HANDSHAKE, links, transports, order), _cell(r, STATELESS, links, transports, order)]
                    for r in mine]
        else:
            head = ["Method", "Modelled", "Sessions"]
            body = [[rawhtml.code(r.method), "yes", _cell(r, "1.0", links, transports, order)] for r in mine]
        lines += [rawhtml.table(head, body, searched=False), ""]
        lines += [f"### {title}: kinds of value", "",
                  f"{kinds_covered} of {len(kind_cells)} method × kind cells that apply are sent in a committed "
                  f"session; {len(kind_cells) - kinds_covered} are gaps. Each kind's sessions are split by "
                  "transport as above.", ""]
        kind_head = ["Method", "Kind", *order] if len(order) > 1 else ["Method", "Kind", "Sessions"]
        kind_body = []
        for r in modelled:
            for kind in r.applies:
                names = r.kinds.get(kind, [])
                method = rawhtml.code(r.method) + (f" <small>{rawhtml.text(r.direction)}</small>"
                                                   if family == "mcp" else "")
                cells_of = ([_kind_cell([n for n in names if transports.get(n) == t], links) for t in order]
                            if len(order) > 1 else [_kind_cell(names, links)])
                kind_body.append([method, rawhtml.text(kind), *cells_of])
        lines += [rawhtml.table(kind_head, kind_body, searched=False), ""]
        lines += [f"### {title}: where each kind applies", "", _applies_table(modelled), ""]
    return "\n".join(lines)

