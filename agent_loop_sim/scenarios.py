"""Scenario files: what the application does in each session, as data.

A scenario file is a JSON object::

    {"recording": "NAME.json",   # the file in recordings/ its live recording is committed to
     "harness": "per_request",   # optional: how the SDK is run while it is recorded (see below)
     "sessions": [ {session}, ... ]}

A session is recorded from the SDK as people deploy it unless its file names another of its
family's harnesses (``Family.harnesses``): A2A's seed sessions keep the ``per_request`` one,
an event loop per HTTP request. The engine plays a session under its file's harness.

Every session has ``name``, ``family`` (``mcp`` or ``a2a``) and ``title``; the rest depends on
the family and is validated by that protocol's ``scenario`` module. A scenario holds only what
the application does; what the SDK adds by itself (handshakes, retries, automatic listings,
progress tokens) is for the engine to model.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .errors import InputError
from .jsonio import json_path, load_json
from .limits import SESSIONS
from .names import MAX_NAME, SESSION_RULE, is_recording_name, is_session_name
from .schema import Field, check_object, describe


_FILE_FIELDS = {"recording": Field(str), "description": Field(str, required=False), "world": Field(str, required=False),
                "harness": Field(str, required=False),
                "transport": Field(str, required=False, choices=("stdio", "http")), "sessions": Field(list)}


@dataclass(frozen=True)
class Session:
    """One validated scenario session."""

    name: str
    family: str
    title: str
    spec: dict[str, Any] = field(repr=False)
    source: str = ""
    #: the world its peer is (the family's reading of the file's ``world``); None: the family's fixture
    world: Any = field(default=None, repr=False, compare=False)
    harness: str | None = None  #: the harness its file names (`Family.harnesses`); None: as deployed
    #: how its messages travel: ``stdio``, or ``http`` (MCP's Streamable HTTP) when its file says so
    transport: str = "stdio"
    #: its place in its file's sessions: what is found wrong in play is named at its JSON path in the file
    index: int | None = field(default=None, compare=False)

    @property
    def mode(self) -> str:
        return self.spec.get("mode", "jsonrpc")


@dataclass(frozen=True)
class ScenarioFile:
    path: str
    recording: str
    sessions: tuple[Session, ...]
    world: str | None = None  #: the world file its sessions' peer is, when not the family's fixture
    harness: str | None = None  #: the harness it names (`Family.harnesses`); None: as deployed
    transport: str = "stdio"  #: ``http``: MCP over Streamable HTTP (the file's ``transport``)

    @property
    def family(self) -> str:
        return self.sessions[0].family

    def session(self, name: str) -> Session:
        for session in self.sessions:
            if session.name == name:
                return session
        known = ", ".join(s.name for s in self.sessions)
        raise InputError(f"no session named {name!r} (known: {known})", file=self.path)


def _families() -> Any:
    """The family registry, imported when a file is first read rather than with this module: the
    recorders import this module and load none of the models until they parse a scenario
    (`tests/test_a2a_requests.py`). (No circle: the models import nothing of this module.)"""
    from .protocols import FAMILIES

    return FAMILIES


def parse_session(raw: Any, index: int, source: str) -> Session:
    families = _families()
    path: list[str | int] = ["sessions", index]
    if type(raw) is not dict:
        raise InputError(f"a session must be an object, got {describe(raw)}", file=source, path=json_path(path))
    name = raw.get("name")
    # (a name far over the limit is shown cut: the one line stays readable)
    label = (name if len(name) <= MAX_NAME else name[:MAX_NAME] + "…") if isinstance(name, str) else None
    try:
        for key in ("name", "family", "title"):
            if key not in raw:
                raise InputError(f"missing field {key!r} in the session", path=json_path(path))
        Field(str).check(name, path + ["name"])
        if not is_session_name(name):
            longer = f" (this one has {len(name):,})" if len(name) > MAX_NAME else ""
            raise InputError(SESSION_RULE + longer, path=json_path(path + ["name"]))
        Field(str, choices=tuple(families)).check(raw["family"], path + ["family"])
        Field(str).check(raw["title"], path + ["title"])
        schema = families[raw["family"]].scenario
        spec_fields = dict(schema.SESSION_FIELDS)
        spec_fields.update(name=Field(str), family=Field(str), title=Field(str))
        check_object(raw, spec_fields, path, "the session")
        schema.validate(raw, path)
    except InputError as exc:
        raise exc.within(file=source, session=label) from None
    return Session(name=name, family=raw["family"], title=raw["title"], spec=raw, source=source, index=index)


def check_recording_name(name: str, source: str) -> None:
    """The ``recording`` field is a file name in ``recordings/``, never a path."""
    if not is_recording_name(name):
        raise InputError(f"the recording is a file name in recordings/ such as \"my_sessions.json\" (letters, "
                         f"digits, '_', '-', '.', ending in .json, no folder, at most {MAX_NAME} characters), "
                         f"not {name!r}",
                         file=source, path="$.recording")


def load(path: str | Path) -> ScenarioFile:
    """Load and validate one scenario file; any problem is an `InputError` naming where."""
    source = str(path)
    data = load_json(path)
    try:
        check_object(data, _FILE_FIELDS, [], "a scenario file")
    except InputError as exc:
        raise exc.within(file=source) from None
    check_recording_name(data["recording"], source)
    if len(data["sessions"]) > SESSIONS.value():
        raise SESSIONS.refuse(f"the file has {len(data['sessions']):,} sessions").within(file=source, path="$.sessions")
    sessions = tuple(parse_session(raw, i, source) for i, raw in enumerate(data["sessions"]))
    if not sessions:
        raise InputError("the file has no sessions", file=source, path="$.sessions")
    seen: set[str] = set()
    for i, session in enumerate(sessions):
        if session.family != sessions[0].family:
            raise InputError(f"all sessions of a file are of one family ({sessions[0].family!r} first)",
                             file=source, session=session.name, path=json_path(["sessions", i, "family"]))
        if session.name in seen:
            raise InputError("two sessions have this name", file=source, session=session.name,
                             path=json_path(["sessions", i, "name"]))
        seen.add(session.name)
    harness = data.get("harness")
    if harness is not None:
        known = _families()[sessions[0].family].harnesses
        if harness not in known:
            raise InputError(f"{harness!r} is not a harness of {sessions[0].family} (known: "
                             f"{', '.join(known) or 'none but the deployed SDK'})", file=source, path="$.harness")
        sessions = tuple(replace(s, harness=harness) for s in sessions)
    transport = data.get("transport", "stdio")
    if "transport" in data:
        check_transport = getattr(_schema(sessions[0].family), "check_transport", None)
        if check_transport is None:
            raise InputError(f"{sessions[0].family} sessions have one transport: this file names none",
                             file=source, path="$.transport")
        sessions = tuple(replace(s, transport=transport) for s in sessions)
    for i, session in enumerate(sessions):
        check_transport = getattr(_schema(session.family), "check_transport", None)
        if check_transport is not None:
            try:
                check_transport(session.spec, transport, ["sessions", i])
            except InputError as exc:
                raise exc.within(file=source, session=session.name) from None
    world = None
    if "world" in data:
        world = str(Path(source).parent / data["world"])
        definition = read_world_file(sessions[0].family, world)
        sessions = tuple(replace(s, world=definition) for s in sessions)
    return ScenarioFile(path=source, recording=data["recording"], sessions=sessions, harness=harness, world=world,
                        transport=transport)


def _schema(family: str) -> Any:
    """``family``'s scenario schema module."""
    return _families()[family].scenario


def read_world_file(family: str, path: str) -> Any:
    """The world file at ``path`` as ``family``'s model reads it: its problems name the world file
    and the JSON path in it."""
    return _families()[family].read_world(load_json(path), path)


def load_many(paths: list[str | Path]) -> list[ScenarioFile]:
    """Load several files; a session name may appear only once across all of them."""
    files = [load(p) for p in paths]
    owner: dict[str, str] = {}
    writer: dict[str, str] = {}
    for f in files:  # two files recorded into one would overwrite each other
        if f.recording in writer and writer[f.recording] != f.path:
            raise InputError(f"the recording {f.recording!r} is also the recording of {writer[f.recording]}",
                             file=f.path, path="$.recording")
        writer[f.recording] = f.path
    for f in files:
        for s in f.sessions:
            if s.name in owner:
                raise InputError(f"the session name is also used in {owner[s.name]}", file=f.path, session=s.name)
            owner[s.name] = f.path
    return files
