"""The check: every committed session beside what the engine says, and how they differ.

`build_report` is the one place the engine is compared with the committed recordings; the
command line (``check``) prints its `Report` and the site renders it. It takes the engine as a
parameter (``run_session(session) -> Transcript``) so that tests can hand it a fake one, and it
never raises for the project's own problems: an unreadable recording, a scenario the engine
cannot play or a message that differs all end up in `Report.problems`, each naming the file,
the session, the message number and the JSON path it can. `live_differences` compares a live
recording with the committed one the same way (``record --check``).

A recording is first compared as bytes: the engine's recording, written as `record` writes one,
against the committed file (`compare_file`); nearly every check ends there. A file whose bytes
differ is read strictly and compared as below.

Two verdicts per session: the messages compared as JSON (``passed``: the site's rule, an object's
members in any order), and the order of the keys (``key_order_verdict``), reported apart. A
key-order difference fails the check and the build too, but says so in its own words: the site
claims the engine writes keys in the order the SDK does, so a difference there is a defect,
just not a difference of values.
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from . import collector
from .compare import MISSING, Difference, diff_sessions, diff_transcripts
from .errors import InputError
from .project import Project
from .protocols import FAMILIES
from .jsonio import decode_text, parse_json, read_file
from .recording import Recording, check_metadata, expected_sdk, parse_recording
from .scenarios import ScenarioFile, Session
from .transcript import Transcript

Engine = Callable[[Session], Transcript]
PROJECT_ENGINE = "agent_loop_sim.engine:run_session"  #: the project's own engine, as ``module:function``


def engine_name(engine: Engine | None) -> str:
    """``module:function`` of an engine (the project's own when ``None``), for the `Report`."""
    if engine is None:
        return PROJECT_ENGINE
    return f"{getattr(engine, '__module__', '?')}:{getattr(engine, '__qualname__', type(engine).__name__)}"


@dataclass(frozen=True)
class SessionResult:
    """One session: the committed recording of it and the engine's transcript, compared."""

    name: str
    family: str
    recording_file: str
    scenario_file: str
    recorded: Transcript | None
    produced: Transcript | None
    differences: tuple[Difference, ...] = ()  #: value differences (compared as JSON)
    engine_error: str | None = None
    scenario: dict[str, Any] | None = field(default=None, repr=False)  # the scenario session, as written
    key_order: tuple[Difference, ...] = ()  #: objects with the same keys in another order

    @property
    def passed(self) -> bool:
        return (self.recorded is not None and self.produced is not None
                and not self.differences and self.engine_error is None)

    @property
    def verdict(self) -> str:
        return "pass" if self.passed else "fail"

    @property
    def key_order_verdict(self) -> str:
        """``same``, or ``differs at <where>`` for the first object whose keys are in another order."""
        if not self.key_order:
            return "same"
        first = self.key_order[0]
        where = f"message {first.message}, {first.path}" if first.message is not None else first.path
        more = f" (and {len(self.key_order) - 1} more)" if len(self.key_order) > 1 else ""
        return f"differs at {where}{more}"

    def differences_at(self, message: int | None) -> list[Difference]:
        return [d for d in self.differences if d.message == message]

    def problems(self) -> list[str]:
        out = []
        if self.engine_error is not None:
            out.append(f"session {self.name!r}: the engine failed: {self.engine_error}")
        out += [d.render("committed", "engine") for d in self.differences]
        out += [f"key order: {d.render('committed', 'engine')}" for d in self.key_order]
        return out


@dataclass(frozen=True)
class RecordingResult:
    """One scenario file and the recording it names."""

    scenario_file: str
    recording_file: str
    family: str
    recording: Recording | None
    sessions: tuple[SessionResult, ...]
    error: str | None = None
    unreadable: InputError | None = None  # why the recording could not be read, when it could not

    @property
    def sdk(self) -> dict[str, str]:
        return dict(self.recording.sdk) if self.recording else {}

    @property
    def transport(self) -> str:
        return self.recording.transport if self.recording else ""

    @property
    def message_count(self) -> int:
        return self.recording.message_count if self.recording else 0


@dataclass(frozen=True)
class Report:
    files: tuple[RecordingResult, ...]
    errors: tuple[str, ...] = ()  # problems that stop the report as a whole (bad scenario files)
    engine: str = PROJECT_ENGINE  # which engine produced it (``module:function``)

    @property
    def sessions(self) -> list[SessionResult]:
        return [s for f in self.files for s in f.sessions]

    @property
    def families(self) -> list[str]:
        return [family for family in FAMILIES if any(f.family == family for f in self.files)]

    @property
    def complete_families(self) -> list[str]:
        """The families whose recordings could all be read (their findings can be checked)."""
        return [family for family in self.families
                if not self.errors and all(f.error is None for f in self.files if f.family == family)]

    def session(self, name: str) -> SessionResult | None:
        return next((s for s in self.sessions if s.name == name), None)

    @property
    def transcripts(self) -> dict[str, Transcript]:
        """Every committed session by name (what the findings are checked against)."""
        return {s.name: s.recorded for s in self.sessions if s.recorded is not None}

    @property
    def scenarios(self) -> dict[str, dict[str, Any]]:
        """Every scenario session by name, as written in its scenario file."""
        return {s.name: s.scenario for s in self.sessions if s.scenario is not None}

    @property
    def passed(self) -> int:
        return sum(1 for s in self.sessions if s.passed)

    @property
    def message_count(self) -> int:
        return sum(f.message_count for f in self.files)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def problems(self) -> list[str]:
        """Every reason the site must not be published, one line each."""
        out = list(self.errors)
        for f in self.files:
            if f.error is not None:
                out.append(f.error)
            for s in f.sessions:
                out += [f"{f.recording_file}: {line}" for line in s.problems()]
        return out


def _root_cause(exc: BaseException) -> BaseException:
    seen = {id(exc)}
    while exc.__cause__ is not None and id(exc.__cause__) not in seen:
        exc = exc.__cause__
        seen.add(id(exc))
    return exc


def _where(exc: BaseException, project: Project) -> str:
    """The innermost frame of a traceback, as ``file:line in function``."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" ({project.relative(last.filename)}:{last.lineno} in {last.name})"


def _run(engine: Engine, session: Session, project: Project) -> tuple[Transcript | None, str | None]:
    # The engine is other people's code, possibly half-written: any exception is a result, told
    # by its root cause (the engine wraps gaps in EngineFailure) and where that was raised.
    try:
        produced = engine(session)
    except InputError as exc:
        return None, f"the scenario cannot be played: {exc}"
    except Exception as exc:  # noqa: BLE001
        root = _root_cause(exc)
        return None, f"{type(root).__name__}: {root}{_where(root, project)}"
    if not isinstance(produced, Transcript):
        return None, f"the engine returned {type(produced).__name__}, not a Transcript"
    return produced, None


def compare_file(project: Project, file: ScenarioFile, engine: Engine, release: str | None = None) -> RecordingResult:
    """The engine on every session of ``file``, beside the committed recording of ``file`` by
    ``release`` of its SDK (the pinned release by default).

    First as bytes: the engine's recording of the file, written as `record` writes one
    (`Recording.encode`), against the committed file's bytes. The same bytes are the same recording:
    every value, its type and every object's key order; and when the engine's recording holds
    what a recording must (`Recording.reads_back`), so does the file. Then nothing more is read,
    and the engine's transcripts are the recorded ones too. Only a file whose bytes differ
    (another layout, or another recording) is decoded and read strictly (`decode_text`,
    `parse_json`, `parse_recording`) and compared with the engine's message by message, which
    names every difference. The file's nesting depth is limited only there: the limit keeps a
    reader from parsing what is too deep, and the bytes path parses nothing."""
    scenario_file = project.relative(file.path)
    recording_path = project.recording_path(file, release)
    recording_file = project.relative(recording_path)

    def unreadable(exc: InputError, why: str, recording: Recording | None = None) -> RecordingResult:
        exc.file = recording_file  # the path as the project writes it, not as it was opened
        return RecordingResult(scenario_file, recording_file, file.family, recording, (),
                               error=f"{why}: {exc}", unreadable=exc)

    try:
        data = read_file(recording_path)
    except InputError as exc:
        return unreadable(exc, "the recording cannot be read")
    played = {s.name: (s, *_run(engine, s, project)) for s in file.sessions}
    written = _written_alike(file, scenario_file, release, played, data)
    if written is not None:
        return RecordingResult(scenario_file, recording_file, file.family, written, tuple(
            SessionResult(s.name, file.family, recording_file, scenario_file, t, t, scenario=s.spec)
            for s, t, _ in played.values()))
    try:
        text = decode_text(data, str(recording_path))
        recording = parse_recording(parse_json(text, str(recording_path)), str(recording_path))
    except InputError as exc:
        return unreadable(exc, "the recording cannot be read")
    try:
        check_metadata(recording, release, file.harness, file.transport)
    except InputError as exc:
        return unreadable(exc, "the recording's metadata is wrong", recording)
    if recording.family != file.family:
        return RecordingResult(scenario_file, recording_file, file.family, recording, (),
                               error=f"{recording_file}: the recording is of family {recording.family!r}, "
                                     f"its scenario file {scenario_file} of {file.family!r}")
    results = []
    for recorded in recording.sessions:
        session, produced, error = played.pop(recorded.name, (None, None, None))
        if session is None:
            results.append(SessionResult(recorded.name, file.family, recording_file, scenario_file, recorded, None,
                                         (Difference(recorded.name, None, "session", "present", MISSING),)))
            continue
        found = diff_transcripts(recorded, produced) if produced is not None else []
        results.append(SessionResult(recorded.name, file.family, recording_file, scenario_file,
                                     recorded, produced, tuple(d for d in found if not d.key_order), error,
                                     session.spec, tuple(d for d in found if d.key_order)))
    for session, produced, error in played.values():  # in the scenario file, never recorded
        results.append(SessionResult(session.name, file.family, recording_file, scenario_file, None, produced,
                                     (Difference(session.name, None, "session", MISSING, "present"),), error,
                                     session.spec))
    return RecordingResult(scenario_file, recording_file, file.family, recording, tuple(results))


def _written_alike(file: ScenarioFile, scenario_file: str, release: str | None,
                   played: dict[str, tuple[Session, Transcript | None, str | None]], data: bytes) -> Recording | None:
    """The engine's recording of ``file``, if the committed file's bytes, ``data``, are what `record` would
    write for it, header and all (the metadata `check_metadata` asks for; ``scenario_file``, the
    scenario file's path in the project, as `record` names it); else None. None too
    when the engine failed on a session, or said what a recording cannot hold (``NaN``, a lone
    surrogate, no JSON value at all, or a frame `parse_recording` refuses: an ``sse`` of 1, a
    party of another family): the file, read, then says where."""
    sdk = expected_sdk(file.family, release)
    if sdk is None or any(t is None for _, t, _ in played.values()):
        return None
    recording = Recording(file.family, sdk, FAMILIES[file.family].recorded_transport(file.harness, file.transport), scenario_file,
                          [t for _, t, _ in played.values()])  # type: ignore[misc]
    if not recording.reads_back():
        return None
    try:
        return recording if recording.encode() == data else None
    except (ValueError, TypeError, RecursionError):
        return None


def default_engine() -> Engine:
    from . import engine  # imported late: the site must load even when the engine does not

    return engine.run_session


def load_engine(spec: str) -> Engine:
    """Another engine, named ``module:function`` (the tests use fakes); bad names are an `InputError`."""
    import importlib

    module, _, attr = spec.partition(":")
    try:
        return getattr(importlib.import_module(module), attr or "run_session")
    except (ImportError, AttributeError) as exc:
        raise InputError(f"AGENT_LOOP_SIM_ENGINE={spec}: {exc}") from None


def build_report(project: Project, run_session: Engine | None = None,
                 files: list[ScenarioFile] | None = None, release: tuple[str, str] | None = None) -> Report:
    """Run the engine on every session of ``files`` (by default, every scenario file of the
    checkout) and compare it with the committed recordings.

    ``release`` = (family, version) compares the engine speaking that SDK release with that
    release's recordings, for the family's files only; by default, each family's pinned release."""
    with collector.paused(long_lived=True):  # (the report holds every recording and transcript)
        return _build_report(project, run_session, files, release)


def _build_report(project: Project, run_session: Engine | None, files: list[ScenarioFile] | None,
                  release: tuple[str, str] | None) -> Report:
    engine = run_session or default_engine()
    name = engine_name(run_session)
    if files is None:
        try:
            files = project.scenario_files()
        except InputError as exc:
            return Report((), errors=(f"the scenario files cannot be read: {exc}",), engine=name)
    if release is None:
        return Report(tuple(compare_file(project, f, engine) for f in files), engine=name)
    family, version = release

    def speaking(session: Session) -> Transcript:
        return engine(session, release=version)  # type: ignore[call-arg]

    return Report(tuple(compare_file(project, f, speaking, version) for f in files if f.family == family),
                  engine=name)


def release_report(project: Project, files: list[ScenarioFile], release: tuple[str, str] | None = None,
                   run_session: Engine | None = None) -> Report:
    """`build_report` for ``release`` = (family, version), on the files of ``files`` that release
    has a committed recording of (another release's recordings may lag behind a new scenario
    file); ``None``: each family's pinned release, on every file."""
    if release is None:
        return build_report(project, run_session, files)
    recorded = project.recorded_by([f for f in files if f.family == release[0]], release[1])
    return build_report(project, run_session, recorded, release)


def every_release(project: Project, files: list[ScenarioFile]) -> list[tuple[str, str] | None]:
    """What ``check`` compares by default: ``None`` (each family's pinned release), then every
    other release of the families of ``files``, as (family, version)."""
    return [None, *project.other_releases(sorted({f.family for f in files}))]


def live_differences(committed: Recording, live: Recording) -> list[Difference]:
    """What a live recording says that the committed one does not (``record --check``)."""
    diffs = diff_sessions(committed.sessions, live.sessions)
    if committed.sdk != live.sdk:
        diffs.insert(0, Difference("(all)", None, "$.sdk", committed.sdk, live.sdk))
    return diffs
