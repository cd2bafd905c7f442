"""The wire lines kept beside a recording: every message as it crossed, before any normalising.

A recording holds the SDK's messages in the normal form (`agent_loop_sim.normalise`), which a
bug in the package would shape on both sides of every comparison. So `record` also writes what
the recorder captured before normalising, a *sidecar* at the recording's path under
``recordings/raw/`` (``recordings/raw/sdk_exchanges.json`` beside ``recordings/sdk_exchanges.json``,
``recordings/raw/mcp-2.2.0/...`` for another release), one entry per message of the recording, in
its order::

    {
      "recording": "recordings/sdk_exchanges.json",
      "sessions": [
        {"name": "...", "wire": [
          {"n": 1, "from": "client", "line": "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":0,...}"},
          {"n": 2, "from": "server", "http": {"status": 200, "headers": [["content-type", "text/event-stream"]]},
           "frame": "event: message\\r\\ndata: {...}\\r\\n\\r\\n"}
        ]}
      ]
    }

Each entry holds one of: ``line``, a line of a stdio session as written (without its line end);
``body``, an HTTP body's text as sent (``null``: none, as a GET's or a 202's); ``frame``, an SSE
event's frame as sent, its line ends and the blank line that ends it included (``null``: a
stream that ended with no event). A body posted exactly as a scenario wrote it (an A2A raw post)
is marked ``"as_written": true``: the recording keeps its text, JSON or not. A message that
carries an HTTP envelope in the recording has
``http`` here too: the method and path, or the status, and the same headers the envelope keeps,
with their names as written on the wire. "The wire" is where each recorder captures: the stdio
tee between the SDK's client and server, the client's HTTP library at its socket (MCP over
Streamable HTTP), the A2A recorder's HTTP client; for the seed page's sessions (the
``per_request`` harness, the A2A app mounted in process) it is the ASGI interface the request
and the answer cross, as no socket is there. Ids, session ids and times are the run's own, so a
sidecar differs from one run to the next; only its shape is held to the recording
(`read_sidecar`), and the tests' own normal form of it to the recording's messages.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import InputError
from .jsonio import json_path, load_json, one_line
from .protocols import FAMILIES
from .recording import Recording
from .schema import check_object, Field

#: The folder of ``recordings/`` the sidecars are kept in, at their recording's relative path.
FOLDER = "raw"
#: What an entry holds of its message's text, one of these.
TEXTS = ("line", "body", "frame")

_TOP = {"recording": Field(str), "sessions": Field(list)}
_SESSION = {"name": Field(str), "wire": Field(list)}
_ENVELOPE = {"method": Field(str, required=False), "path": Field(str, required=False),
             "status": Field(int, required=False), "headers": Field(list)}


def sidecar_path(recording_dir: Path, recording_path: Path) -> Path:
    """Where the sidecar of the recording at ``recording_path`` (under ``recording_dir``) is."""
    return recording_dir / FOLDER / recording_path.relative_to(recording_dir)


def encode_sidecar(recording_name: str, sessions: list[tuple[str, list[dict[str, Any]]]]) -> str:
    """The sidecar's text, one entry to a line as a recording is written: ``sessions`` is each
    session's name and its wire entries (as a recorder printed them, without ``n``)."""
    lines = ["{", f'  "recording": {one_line(recording_name)},', '  "sessions": [']
    for i, (name, entries) in enumerate(sessions, 1):
        lines.append(f'    {{"name": {one_line(name)}, "wire": [')
        lines.append(",\n".join(f"      {one_line({'n': n, **entry})}" for n, entry in enumerate(entries, 1)))
        lines.append("    ]}" + ("," if i < len(sessions) else ""))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def read_sidecar(path: Path, recording: Recording | None = None) -> dict[str, list[dict[str, Any]]]:
    """The sidecar at ``path``: each session's entries by name, read strictly. With the
    ``recording`` it stands beside, it must be aligned with it: the same sessions in the same
    order, an entry for each message, from the same party, with an envelope where the message
    has one and a ``frame`` where the message is an SSE event. Raises `InputError` naming the
    file, the session, the message and the JSON path."""
    where = str(path)
    if not path.is_file():
        raise InputError("no wire lines beside this recording (`python -m agent_loop_sim record` writes them)",
                         file=where)
    data = load_json(path)
    session: str | None = None
    message: int | None = None
    try:
        check_object(data, _TOP, [], "a sidecar of wire lines")
        out: dict[str, list[dict[str, Any]]] = {}
        for i, raw in enumerate(data["sessions"]):
            session, message = None, None
            check_object(raw, _SESSION, ["sessions", i], "a session's wire lines")
            session = raw["name"]
            if session in out:
                raise InputError("two sessions have this name", path=json_path(["sessions", i, "name"]))
            for j, entry in enumerate(raw["wire"]):
                message = j + 1
                _entry(entry, ["sessions", i, "wire", j], j + 1, recording)
            out[session] = raw["wire"]
        session, message = None, None
        if recording is not None:
            _aligned(out, recording)
    except InputError as exc:
        raise exc.within(file=where, session=session, message=message) from None
    return out


def _entry(entry: Any, path: list[str | int], n: int, recording: Recording | None) -> None:
    parties = FAMILIES[recording.family].parties if recording is not None else None
    fields = {"n": Field(int), "from": Field(str, choices=parties) if parties else Field(str),
              "http": Field(dict, required=False), "line": Field(str, required=False),
              "body": Field(str, required=False, nullable=True), "frame": Field(str, required=False, nullable=True),
              "as_written": Field(bool, required=False, choices=(True,))}
    check_object(entry, fields, path, "a message as sent")
    if entry["n"] != n:
        raise InputError(f"entries are numbered 1, 2, ...: expected {n}, got {entry['n']}", path=json_path(path + ["n"]))
    texts = [key for key in TEXTS if key in entry]
    if len(texts) != 1:
        raise InputError(f"an entry has exactly one of {', '.join(TEXTS)}", path=json_path(path))
    if "as_written" in entry and type(entry.get("body")) is not str:
        raise InputError("only a body's text is posted as written", path=json_path(path + ["as_written"]))
    if "http" in entry:
        http = check_object(entry["http"], _ENVELOPE, path + ["http"], "an HTTP envelope as sent")
        if ("status" in http) == ("method" in http) or ("method" in http) != ("path" in http):
            raise InputError("an envelope has a method and a path (a request) or a status (a reply)",
                             path=json_path(path + ["http"]))
        for k, pair in enumerate(http["headers"]):
            if not (type(pair) is list and len(pair) == 2 and all(type(x) is str for x in pair)):
                raise InputError("a header is a [name, value] pair of strings",
                                 path=json_path(path + ["http", "headers", k]))


def _aligned(sidecar: dict[str, list[dict[str, Any]]], recording: Recording) -> None:
    """Each message of ``recording`` has its entry, in order (see `read_sidecar`)."""
    names = list(sidecar)
    expected = [t.name for t in recording.sessions]
    if names != expected:
        missing = [n for n in expected if n not in sidecar]
        extra = [n for n in names if n not in expected]
        said = (f"no wire lines for session(s) {', '.join(map(repr, missing))}" if missing else
                f"session(s) the recording lacks: {', '.join(map(repr, extra))}" if extra else
                "the sessions are in another order than the recording's")
        raise InputError(f"not aligned with its recording: {said}", path="$.sessions")
    for i, transcript in enumerate(recording.sessions):
        entries = sidecar[transcript.name]
        if len(entries) != len(transcript.messages):
            raise InputError(f"not aligned with its recording: {len(entries)} entries for "
                             f"{len(transcript.messages)} messages", session=transcript.name,
                             path=json_path(["sessions", i, "wire"]))
        for j, (entry, m) in enumerate(zip(entries, transcript.messages)):
            path = ["sessions", i, "wire", j]
            problem = None
            if entry["from"] != m.sender:
                problem, path = f"from {entry['from']!r}, but the recording's message is from {m.sender!r}", path + ["from"]
            elif ("http" in entry) != (m.http is not None):
                problem = ("an envelope the recording's message has not" if "http" in entry
                           else "no envelope, but the recording's message has one")
            elif ("frame" in entry) != m.sse:
                problem = ("an SSE frame, but the recording's message is no SSE event" if "frame" in entry
                           else "no SSE frame, but the recording's message is an SSE event")
            elif "as_written" in entry and m.raw is None:
                problem, path = "posted as written, but the recording's message is JSON", path + ["as_written"]
            if problem is not None:
                raise InputError(f"not aligned with its recording: {problem}", session=transcript.name,
                                 message=j + 1, path=json_path(path))


def sent_text(entry: dict[str, Any]) -> str | None:
    """The text an entry holds, whichever kind: a line, a body or an SSE frame (``None``: none)."""
    return next(entry[key] for key in TEXTS if key in entry)


def read_as_sent(recording_dir: Path, recording_path: Path,
                 recording: Recording | None = None) -> dict[str, list[dict[str, Any]]]:
    """The messages of the recording at ``recording_path`` as they were sent, by session: entry N
    of a session is message N's (what a page may show as "as sent"). See `read_sidecar`."""
    return read_sidecar(sidecar_path(recording_dir, recording_path), recording)
