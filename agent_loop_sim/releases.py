"""Two SDK releases side by side: where their recordings differ, and which wire change says why.

`compare_release` puts a family's pinned release beside another release it speaks:

- the engine speaking that release is compared with that release's recordings (`check.build_report`);
- every session's two recordings are compared message by message;
- each difference is given its cause by the model itself: the engine plays the session with the
  pinned release's rules and one wire change of `protocols.releases.Releases.between` put in
  effect, and a change explains the differences it alone brings about.

A difference no change explains, or a change no committed session shows, is a problem (the site
refuses to build), so the causes on the release page cannot go stale. Nothing here reads one
release's recordings to produce the other's.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Callable

from .check import Engine, RecordingResult, Report, build_report, default_engine, engine_name
from .compare import Difference, diff_transcripts
from .errors import InputError
from .project import Project
from .protocols import FAMILIES
from .protocols.releases import Releases, WireChange
from .recording import Recording, load_recording
from .scenarios import ScenarioFile, Session
from .transcript import Transcript

#: the model with a set of wire changes in effect: (session, rules) -> normalised transcript
RuleEngine = Callable[[Session, frozenset], Transcript]


@dataclass(frozen=True)
class SessionPair:
    """One scenario session as the two releases said it, and where they differ."""

    name: str
    scenario_file: str
    title: str
    pinned: Transcript | None
    other: Transcript | None
    differences: tuple[Difference, ...] = ()
    causes: dict[tuple[int | None, str], tuple[str, ...]] = field(default_factory=dict)  # (message, path) -> keys

    @property
    def agree(self) -> bool:
        return self.pinned is not None and self.other is not None and not self.differences

    def messages(self) -> list[int]:
        """The numbers of the messages that differ, in order."""
        return sorted({d.message for d in self.differences if d.message is not None})

    def change_keys(self) -> list[str]:
        return list(dict.fromkeys(k for keys in self.causes.values() for k in keys))


@dataclass
class ReleaseComparison:
    family: str
    releases: Releases
    version: str                      #: the release put beside the pinned one
    report: Report                    #: the engine speaking ``version`` against its recordings
    sessions: list[SessionPair] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unrecorded: list[str] = field(default_factory=list)  #: scenario files ``version`` has no recording of

    @property
    def changes(self) -> tuple[WireChange, ...]:
        return self.releases.between(self.releases.pinned, self.version)

    def shown_by(self, key: str) -> list[tuple[SessionPair, int | None, list[str]]]:
        """Where the change ``key`` shows: (session, message, the JSON paths it changes there)."""
        out = []
        for pair in self.sessions:
            by_message: dict[int | None, list[str]] = {}
            for d in pair.differences:
                if key in pair.causes.get((d.message, d.path), ()):
                    by_message.setdefault(d.message, []).append(d.path)
            out += [(pair, n, paths) for n, paths in by_message.items()]
        return out


def _speaking(engine: Engine) -> Engine:
    """``engine`` if it can speak a release (takes ``release=``); else the project's own engine.

    The site's tests hand it fakes that replay one release's recordings; those stand for the
    pinned release only, and the other releases are still checked, by the real model."""
    try:
        if "release" in inspect.signature(engine).parameters:
            return engine
    except (TypeError, ValueError):
        pass
    return default_engine()


def model_with_rules(family: str) -> RuleEngine:
    """The family's model with a given set of wire changes in effect, normalised."""
    model = FAMILIES[family]

    def run(session: Session, rules: frozenset) -> Transcript:
        messages = model.run_session(session, rules=rules)
        return Transcript(session.name, session.mode, session.title, model.normalise(messages))
    return run


def compare_release(project: Project, family: str, version: str, run_session: Engine | None = None,
                    rule_engine: RuleEngine | None = None, every: list[ScenarioFile] | None = None,
                    keep: Callable[[ScenarioFile, Callable[[], FilePart]], FilePart] | None = None,
                    pinned: Report | None = None) -> ReleaseComparison:
    """The pinned release of ``family`` beside ``version``; never raises for the project's problems.

    ``every`` is the checkout's scenario files if already loaded; ``keep(file, compare)`` may keep
    a file's part from an earlier build (the site's serve memo, keyed on the file's bytes);
    ``pinned`` is the check of the pinned release if already made (its recordings are not read again)."""
    releases = FAMILIES[family].releases
    assert releases is not None and version in releases.others
    engine = _speaking(run_session or default_engine())
    label = f"{releases.package} {version}"
    try:
        every = [f for f in (project.scenario_files() if every is None else every) if f.family == family]
    except InputError as exc:
        return ReleaseComparison(family, releases, version, Report(()), problems=[
            f"{label}: the scenario files cannot be read: {exc}"])
    files = project.recorded_by(every, version)
    rule_engine = rule_engine or model_with_rules(family)
    keep = keep or (lambda file, compare: compare())
    read = {f.scenario_file: f.recording for f in pinned.files} if pinned is not None else {}
    parts = [keep(file, lambda file=file: _compare_file(project, file, engine, rule_engine, family, version,
                                                        read.get(project.relative(file.path))))
             for file in files]
    report = Report(tuple(part.result for part in parts), engine=engine_name(engine))
    out = ReleaseComparison(family, releases, version, report,
                            unrecorded=[project.relative(f.path) for f in every if f not in files])
    out.problems += [f"{label}: {p}" for p in report.problems]
    for part in parts:
        out.sessions += part.sessions
        out.problems += part.problems
    for change in out.changes if not out.unrecorded else ():  # a partial set need not show them all
        if not out.shown_by(change.key):
            out.problems.append(f"{label}: the wire change {change.key!r} ({change.entry}) shows in no committed "
                                "session: add a session that shows it, or take it out of the table")
    return out


@dataclass
class FilePart:
    """What one scenario file adds to a `ReleaseComparison`."""

    result: RecordingResult  #: the engine speaking the release against that release's recording
    sessions: list[SessionPair] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _compare_file(project: Project, file: ScenarioFile, engine: Engine, rule_engine: RuleEngine, family: str,
                  version: str, pinned_recording: Recording | None = None) -> FilePart:
    releases = FAMILIES[family].releases
    assert releases is not None
    label = f"{releases.package} {version}"
    part = FilePart(build_report(project, engine, files=[file], release=(family, version)).files[0])
    out = ReleaseComparison(family, releases, version, Report(()))  # what _explain adds to
    pinned_rules = releases.rules(releases.pinned)
    pinned_path, other_path = project.recording_path(file), project.recording_path(file, version)
    other_recording = part.result.recording  # the check just above read it (None: it could not)
    try:
        pinned = {t.name: t for t in (pinned_recording or load_recording(str(pinned_path))).sessions}
        other = {t.name: t for t in (other_recording or load_recording(str(other_path))).sessions}
    except InputError as exc:
        part.problems.append(f"{label}: a recording cannot be read: {exc}")
        return part
    scenario_file = project.relative(file.path)
    for session in file.sessions:
        a, b = pinned.get(session.name), other.get(session.name)
        differences = tuple(diff_transcripts(a, b)) if a is not None and b is not None else ()
        pair = SessionPair(session.name, scenario_file, session.title, a, b, differences)
        if differences:
            _explain(out, pair, session, rule_engine, pinned_rules, label)
        part.sessions.append(pair)
    part.problems += out.problems
    return part


def _explain(out: ReleaseComparison, pair: SessionPair, session: Session, rule_engine: RuleEngine,
             pinned_rules: frozenset, label: str) -> None:
    """Give each difference of ``pair`` the wire changes that, alone, bring it about."""
    assert pair.pinned is not None
    caused: dict[str, set[tuple[int | None, str]]] = {}
    for change in out.changes:
        try:
            produced = rule_engine(session, pinned_rules ^ {change.key})
        except Exception as exc:  # noqa: BLE001 - a gap in the model is a problem to report, not a crash
            out.problems.append(f"{label}: session {session.name!r}: the model with {change.key!r} alone "
                                f"failed: {type(exc).__name__}: {exc}")
            continue
        caused[change.key] = {(d.message, d.path) for d in diff_transcripts(pair.pinned, produced)}
    for d in pair.differences:
        keys = tuple(k for k, places in caused.items() if (d.message, d.path) in places)
        pair.causes[(d.message, d.path)] = keys
        if not keys:
            out.problems.append(f"{label}: {d.render(out.releases.pinned, out.version)}: no wire change of the "
                                "release table explains this difference")
