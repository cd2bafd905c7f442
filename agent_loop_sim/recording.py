"""Recording files: what a recorder wrote down from the live SDK, read strictly.

A recording file is written (`Recording.encode`) one message to a line, as a wire log reads::

    {
      "family": "mcp",
      "sdk": {"package": "mcp", "version": "2.3.0"},
      "transport": "stdio",
      "scenarios": "scenarios/mcp.json",
      "sessions": [
        {"name": "...", "mode": "...", "title": "...", "messages": [
          {"n": 1, "from": "client", "to": "server", "sse": false, "json": {...}},
          {"n": 2, "from": "server", "to": "client", "sse": false, "raw": "a line that is not JSON"}
        ]}
      ]
    }

(A2A messages also carry ``"http"``, their HTTP envelope: `agent_loop_sim.http_log`.) It is
read as JSON, in any layout; this one is what `record` writes, and what the check compares the
engine's recording with before it reads anything (`agent_loop_sim.check`).

The engine never reads one; the checker, the site and the tests do.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .errors import InputError
from .jsonio import json_path, load_json, one_line
from .protocols import FAMILIES
from .schema import Field, check_object
from .transcript import Message, Transcript


@dataclass
class Recording:
    family: str
    sdk: dict[str, str]
    transport: str
    scenarios: str
    sessions: list[Transcript]

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "sdk": self.sdk,
            "transport": self.transport,
            "scenarios": self.scenarios,
            "sessions": [s.to_dict() for s in self.sessions],
        }

    def encode(self) -> bytes:
        """The recording's file, in the one layout of recordings (the module's docstring), as the
        UTF-8 bytes `record` writes. Raises ``ValueError`` for a ``NaN``/``Infinity`` or a lone
        surrogate (``UnicodeEncodeError``) and ``TypeError`` for what is not JSON.

        Bytes rather than text, because the check compares them with the file's bytes as read:
        a text holding one character past U+FFFF is four bytes a character in memory, and
        decoding the file into one costs more than the comparison it serves. The engine's lines
        are joined and encoded a session at a time, so such a character widens only its session's
        text."""
        top = (f'{{\n  "family": {one_line(self.family)},\n  "sdk": {one_line(self.sdk)},\n'
               f'  "transport": {one_line(self.transport)},\n  "scenarios": {one_line(self.scenarios)},\n')
        if not self.sessions:
            return f'{top}  "sessions": []\n}}\n'.encode()
        pieces = [f'{top}  "sessions": ['.encode()]
        for i, t in enumerate(self.sessions, 1):
            head = (f'    {{"name": {one_line(t.name)}, "mode": {one_line(t.mode)}, '
                    f'"title": {one_line(t.title)}, "messages": [')
            end = "]}" if i == len(self.sessions) else "]},"
            if not t.messages:
                pieces.append((head + end).encode())
                continue
            # (a session at a time: joined once and encoded once, the indent joined in, not added to each line)
            lines = _BETWEEN_MESSAGES.join([_message_line(n, m) for n, m in enumerate(t.messages, 1)])
            pieces.append(f"{head}\n      {lines}\n    {end}".encode())
        pieces.append(b"  ]\n}\n")
        return b"\n".join(pieces)

    def dumps(self) -> str:
        """The recording's file as text (`encode`)."""
        return self.encode().decode()

    def reads_back(self) -> bool:
        """Whether the file `encode` writes holds what `parse_recording` asks of a recording, as
        far as its frame goes: at least one session, each named once, with text for its name,
        mode and title and at least one message; each message from one party of the family to
        the other, ``sse`` true or false, a line of text or a JSON value (not both), an HTTP
        envelope of the usual shape if any. Told from the objects, without writing anything.
        Not the messages' JSON (what JSON cannot hold, `encode` refuses) nor its nesting depth,
        a limit for what parses a file (`check.compare_file` parses none it does not need to)."""
        parties = FAMILIES[self.family].parties
        names: set[str] = set()
        for t in self.sessions:
            if not (type(t.name) is str and type(t.mode) is str and type(t.title) is str and t.messages
                    and t.name not in names):
                return False
            names.add(t.name)
            for m in t.messages:
                if not (m.sender in parties and m.receiver in parties and m.sender != m.receiver
                        and type(m.sse) is bool and (m.raw is None or (type(m.raw) is str and m.json is None))
                        and (m.http is None or _well_formed_http(m.http))):
                    return False
        return bool(self.sessions)

    def session(self, name: str) -> Transcript | None:
        return next((s for s in self.sessions if s.name == name), None)

    @property
    def message_count(self) -> int:
        return sum(len(s.messages) for s in self.sessions)


_BETWEEN_MESSAGES = ",\n      "


def _message_line(n: int, m: Message) -> str:
    """``one_line(m.to_dict(n))``, the message's line, with its envelope's ``from``, ``to`` and
    ``sse`` written once for each combination (`_envelope`) rather than as a new object each time."""
    http = "" if m.http is None else f'"http": {one_line(m.http)}, '
    last = f'"json": {one_line(m.json)}' if m.raw is None else f'"raw": {one_line(m.raw)}'
    if type(m.sse) is bool and type(m.sender) is str and type(m.receiver) is str:
        envelope = _envelope(m.sender, m.receiver, m.sse)
    else:  # (not kept: values equal as keys but written apart, 0.0 and -0.0, or none a key at all)
        envelope = _envelope.__wrapped__(m.sender, m.receiver, m.sse)
    return f'{{"n": {n}, {envelope}{http}{last}}}'


@lru_cache(maxsize=64)  # (for text and bools only: see `_message_line`)
def _envelope(sender: Any, receiver: Any, sse: Any) -> str:
    return f'"from": {one_line(sender)}, "to": {one_line(receiver)}, "sse": {one_line(sse)}, '


_TOP = {
    "family": Field(str, choices=tuple(FAMILIES)),
    "sdk": Field(dict),
    "transport": Field(str),
    "scenarios": Field(str),
    "sessions": Field(list),
}
_SDK = {"package": Field(str), "version": Field(str)}
_SESSION = {"name": Field(str), "mode": Field(str), "title": Field(str), "messages": Field(list)}


@cache
def _message_fields(family: str) -> dict[str, Field]:
    a, b = FAMILIES[family].parties
    return {
        "n": Field(int),
        "from": Field(str, choices=(a, b)),
        "to": Field(str, choices=(a, b)),
        "sse": Field(bool),
        "json": Field((dict, list, str, int, float, bool), required=False, nullable=True),
        "raw": Field(str, required=False),
        "http": Field(dict, required=False),
    }


def _well_formed(raw: Any, parties: tuple[str, str]) -> bool:
    """The shape nearly every message has, told in a few comparisons (a message that is not
    this shape is checked field by field, for the error that names what is wrong)."""
    return (type(raw) is dict and len(raw) == 5 + ("http" in raw) and type(raw.get("n")) is int
            and raw.get("from") in parties and raw.get("to") in parties and type(raw.get("sse")) is bool
            and (type(raw.get("raw")) is str if "raw" in raw else "json" in raw))


def _sound(raw: Any, n: int, parties: tuple[str, str]) -> bool:
    """Whether a message is well formed and numbered ``n``, from one party to the other, with a
    well-formed envelope if any: everything `_message` checks, told without building a path (a
    check reads every committed message; only one that is not so is checked field by field)."""
    return (_well_formed(raw, parties) and raw["n"] == n and raw["from"] != raw["to"]
            and ("http" not in raw or _well_formed_http(raw["http"])))


def _message(raw: Any, family: str, path: list[str | int], expected_n: int) -> Message:
    if not _well_formed(raw, FAMILIES[family].parties):
        check_object(raw, _message_fields(family), path, "a message")
    if "http" in raw:
        _http(raw["http"], path + ["http"])
    if ("json" in raw) == ("raw" in raw):
        raise InputError("a message has exactly one of 'json' and 'raw'", path=json_path(path))
    if raw["n"] != expected_n:
        raise InputError(f"messages are numbered 1, 2, ...: expected {expected_n}, got {raw['n']}",
                         path=json_path(path + ["n"]))
    if raw["from"] == raw["to"]:
        raise InputError("a message goes from one party to the other", path=json_path(path + ["to"]))
    return Message(sender=raw["from"], receiver=raw["to"], json=raw.get("json"), raw=raw.get("raw"), sse=raw["sse"],
                   http=raw.get("http"))


_HTTP_REQUEST = {"method": Field(str), "path": Field(str), "headers": Field(list)}
_HTTP_REPLY = {"status": Field(int), "headers": Field(list)}


def _well_formed_http(http: Any) -> bool:
    """The shape of nearly every envelope, told in a few comparisons (as `_well_formed`)."""
    if type(http) is not dict or type(http.get("headers")) is not list:
        return False
    if len(http) == 2:
        shaped = type(http.get("status")) is int
    else:
        shaped = len(http) == 3 and type(http.get("method")) is str and type(http.get("path")) is str
    if not shaped:
        return False
    for p in http["headers"]:  # (a loop, not all() of a generator: half the cost)
        if type(p) is not list or len(p) != 2 or type(p[0]) is not str or type(p[1]) is not str:
            return False
    return True


def _http(http: Any, path: list[str | int]) -> None:
    """An A2A message's HTTP envelope (`agent_loop_sim.http_log`): a request's or a reply's."""
    if _well_formed_http(http):
        return
    check_object(http, _HTTP_REPLY if isinstance(http, dict) and "status" in http else _HTTP_REQUEST,
                 path, "an HTTP envelope")
    for i, pair in enumerate(http["headers"]):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise InputError("a header is a [name, value] pair of strings", path=json_path(path + ["headers", i]))


def parse_recording(data: Any, source: str) -> Recording:
    session_name: str | None = None
    message_n: int | None = None
    try:
        check_object(data, _TOP, [], "a recording")
        check_object(data["sdk"], _SDK, ["sdk"], "the SDK description")
        family = data["family"]
        parties = FAMILIES[family].parties
        sessions: list[Transcript] = []
        seen: set[str] = set()
        for i, raw in enumerate(data["sessions"]):
            session_name = raw.get("name") if isinstance(raw, dict) and isinstance(raw.get("name"), str) else None
            message_n = None
            check_object(raw, _SESSION, ["sessions", i], "a session")
            if raw["name"] in seen:
                raise InputError("two sessions have this name", path=json_path(["sessions", i, "name"]))
            seen.add(raw["name"])
            if not raw["messages"]:
                raise InputError("a session has at least one message", path=json_path(["sessions", i, "messages"]))
            messages = []
            for j, m in enumerate(raw["messages"], 1):
                if _sound(m, j, parties):
                    messages.append(Message(m["from"], m["to"], m.get("json"), m.get("raw"), m["sse"], m.get("http")))
                    continue
                message_n = j  # not the usual shape: checked field by field, for the error that names it
                messages.append(_message(m, family, ["sessions", i, "messages", j - 1], j))
            sessions.append(Transcript(raw["name"], raw["mode"], raw["title"], messages))
        session_name = message_n = None
        if not sessions:
            raise InputError("a recording has at least one session", path="$.sessions")
    except InputError as exc:
        raise exc.within(file=source, session=session_name, message=message_n) from None
    return Recording(family, dict(data["sdk"]), data["transport"], data["scenarios"], sessions)


def expected_sdk(family: str, release: str | None = None) -> dict[str, str] | None:
    """The ``sdk`` a recording of ``family`` filed under ``release`` (the pinned one by default)
    says, or None for a family with no release table."""
    releases = FAMILIES[family].releases
    return None if releases is None else {"package": releases.package, "version": release or releases.pinned}


def check_metadata(recording: Recording, release: str | None = None, harness: str | None = None,
                   transport: str = "stdio") -> None:
    """A recording says which SDK release made it and over which transport: it must be the release
    it is filed under (the pinned one by default) and the transport of the harness its scenario
    file names (`Family.harnesses`), or the site would name an SDK that never said it. Raises
    `InputError` naming the field."""
    family = FAMILIES[recording.family]
    expected = expected_sdk(recording.family, release)
    if expected is not None:
        for key, value in expected.items():
            if recording.sdk.get(key) != value:
                raise InputError(f"the recording says it was made by {key} {recording.sdk.get(key)!r}, but it is "
                                 f"filed as {family.releases.package} {expected['version']}'s (expected {value!r})",
                                 path=f"$.sdk.{key}")
    expected = family.recorded_transport(harness, transport)
    if recording.transport != expected:
        raise InputError(f"the recording's transport is {recording.transport!r}, but {family.recorder_for(transport)} "
                         f"records over {expected!r}" + (f" under the harness {harness!r}" if harness else ""),
                         path="$.transport")


def load_recording(path: str) -> Recording:
    return parse_recording(load_json(path), str(path))
