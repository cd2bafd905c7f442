"""From a checkout to the site's pages: compare, check the findings, render, or refuse.

`render_site` does everything in memory and reports problems instead of raising, so the
MkDocs hook can turn them into one ``PluginError`` before anything is written, and the command
line (`build_pages`) can print them and write nothing.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..as_sent import read_as_sent, sidecar_path
from ..check import Engine, Report, build_report, engine_name, load_engine
from ..errors import InputError, printable
from ..exports import JUNIT_FILE, har_path, jsonl_path, report_junit, transcript_har, transcript_jsonl
from ..jsonio import check_output, write_atomic
from ..project import Project
from ..scenarios import ScenarioFile
from ..staging import check_tree, write_tree
from ..protocols import FAMILIES
from .pages.architecture import ARCHITECTURE_PAGE, render_architecture
from .pages.peers import PEERS_PAGE, render_peers
from .pages.performance import PERFORMANCE_PAGE, render_performance
from .pages.suite import SUITE_PAGE, render_suite
from .parts.badge import conformance_badge
from .pages.coverage import COVERAGE_PAGE, coverage_of, render_coverage
from .pages.coverage import problems as coverage_problems
from .pages.wire_types import WIRE_TYPES_PAGE, failures, load_verdicts, render_wire_types
from .pages.wire_types import problems as verdict_problems
from .pages.engine_note import with_overview_note
from .findings.evidence import Finding, FindingResult, Recorded, check_findings
from .findings import FINDINGS
from .mkdocs.incremental import Memo
from .parts.wirelog import summaries_kept
from .pages.navigation import features, features_page, modes_page, render_features, render_modes
from .pages.conformance import (FINDINGS_PAGE, OVERVIEW, RESULTS_PAGE, WIDE, Context, era_claim_problems, eras_page, family_name, family_page, href, link, page_url, render_eras,
                    render_family, render_findings, render_overview, render_results, render_session)
from .beside import Beside
from .pages.releases import release_pages, releases_page
from .report import report_json
from .pages.worlds import INDEX as WORLDS_INDEX
from .pages.worlds import render_worlds, world_page_of
from .pages.sources import (FORMAT_PAGE, SERVERS_PAGE, reference_modules, reference_page, render_format,
                      render_reference, render_reference_index, render_servers)

REPORT_FILE = "conformance.json"
BADGE_FILE = "badge.svg"
REFERENCE_INDEX = "reference/index.md"
#: the guide's pages (``docs/guide/``, and the Performance page drawn from the benchmark's runs), in the order they are read
GUIDE_PAGES = [{"How it is checked": "guide/how-it-is-checked.md"}, {"Commands": "guide/commands.md"},
               {"The engine in the browser": "guide/browser.md"}, {"MCP over Streamable HTTP": "guide/mcp-http.md"},
               {"The A2A TCK": "guide/tck.md"},
               {"Performance": PERFORMANCE_PAGE}, {"How the tests are tested": "guide/tests.md"}]
SHOWN_PROBLEMS = 60


@dataclass
class Site:
    """The rendered site (``pages``: path under the docs folder -> content) and its verdict."""

    report: Report
    findings: list[FindingResult]
    pages: dict[str, str] = field(default_factory=dict)
    nav: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unreadable: bool = False  #: an input besides the scenarios and recordings (the verdicts) cannot be read

    @property
    def ok(self) -> bool:
        return not self.problems

    def explain(self) -> str:
        """The problems, one per line, for a person reading a failed build."""
        failing = [s.name for s in self.report.sessions if not s.passed]
        head = f"the conformance check failed: {len(self.problems)} problem(s)"
        if failing:
            head += f"; {len(failing)} of {len(self.report.sessions)} sessions differ ({', '.join(failing[:8])}"
            head += ", …)" if len(failing) > 8 else ")"
        shown = [f"  {p}" for p in self.problems[:SHOWN_PROBLEMS]]
        if len(self.problems) > SHOWN_PROBLEMS:
            shown.append(f"  ... and {len(self.problems) - SHOWN_PROBLEMS} more")
        return "\n".join([head, *shown])


def render_site(project: Project, run_session: Engine | None = None, findings: tuple[Finding, ...] | list[Finding] = FINDINGS,
                reference: bool = True, directory_urls: bool = True, coverage_required: bool = True,
                repo_url: str = "", memo: Memo | None = None, beside: bool | None = None,
                playground: bool = False) -> Site:
    """Run the engine, compare, check the findings and render every page, in memory.

    ``coverage_required=False`` renders the coverage page without refusing a project whose
    sessions leave methods uncovered (for small synthetic projects, as ``findings=()`` is).
    ``memo`` (`mkdocs serve`'s, for the project's own engine and findings) keeps what the files
    an edit did not touch gave last time: each scenario file's check, each release comparison,
    each session's page and exports. ``beside``: whether the release comparisons, the exports and
    the reference pages may be made in a second process while this one renders the session pages
    (`beside.Beside`); by default, for a whole build with the project's own engine (no memo to
    keep them in). ``playground``: whether the site has the playground page (`browser`, which the
    MkDocs build adds), for each session page to link its scenario there."""
    if beside is None:
        beside = memo is None and run_session is None
    with summaries_kept():  # every page sums up a transcript's messages the same way: once each
        return _render_site(project, run_session, findings, reference, directory_urls, coverage_required,
                            repo_url, memo, beside, playground)


def _render_site(project: Project, run_session: Engine | None, findings: tuple[Finding, ...] | list[Finding],
                 reference: bool, directory_urls: bool, coverage_required: bool, repo_url: str,
                 memo: Memo | None, beside: bool, playground: bool) -> Site:
    files = _scenario_files(project, memo)
    report = _report(project, run_session, memo, files)
    checked = check_findings(findings, Recorded(report.transcripts, report.scenarios), report.complete_families)
    site = Site(report, checked)
    site.problems += report.problems
    site.problems += [why for r in checked for why in r.failures]
    verdicts, unreadable = load_verdicts(project)
    played = {s.name: s.recorded for s in report.sessions if s.recorded is not None and s.scenario is not None}
    site.problems += unreadable + verdict_problems(verdicts, played)
    site.unreadable = bool(unreadable)
    ctx = Context(report, checked, verdicts=verdicts, directory_urls=directory_urls, **({"repo_url": repo_url} if repo_url else {}))
    ctx.as_sent = _as_sent(project, report, memo)
    if reference:  # (the world pages are reference pages: linked only where they are made)
        ctx.worlds = {str(project.relative(f.path)): world_page_of(f) for f in files or []}
    if playground:
        ctx.playground = _playground_links(ctx, files or [], memo)
    # What does not need the session pages, made beside them when a core is free: each family's
    # release pages, the reference pages, the exports and the JSON report.
    with Beside(lambda: _other_half(project, ctx, checked, run_session, memo, files, reference), beside) as other_half:
        nav, sections = _first_half(project, ctx, site, memo, coverage_required)
        half = other_half.result()
    pages = site.pages
    for family, section in sections.items():
        release_nav, release_page, problems, pair_pages = half.releases[family]
        if release_page is None:
            del pages[releases_page(family)]
        else:
            pages[releases_page(family)] = WIDE + release_page  # (the release page's wide tables)
        pages.update(pair_pages)  # (each session's differences side by side)
        section += release_nav
        site.problems += problems
    if half.reference is not None:
        reference_pages, reference_nav, problems = half.reference
        pages.update(reference_pages)
        nav.append(reference_nav)
        site.problems += problems
    pages[REPORT_FILE] = half.report_file
    pages[BADGE_FILE] = conformance_badge(report.passed, len(report.sessions))
    pages.update(half.exports)
    site.nav = nav
    return site


def _first_half(project: Project, ctx: Context, site: Site, memo: Memo | None,
                coverage_required: bool) -> tuple[list[Any], dict[str, list[Any]]]:
    """Every page but what `_other_half` makes: the navigation and each family's section of it
    (where its release page goes)."""
    report, checked, verdicts, pages, directory_urls = ctx.report, ctx.findings, ctx.verdicts, site.pages, ctx.directory_urls
    pages[OVERVIEW] = with_overview_note(render_overview(ctx), report)
    pages[RESULTS_PAGE] = render_results(ctx)
    # Few top-level entries: each is a tab, and the tabs must fit a 1,400 px screen.
    results: list[Any] = [RESULTS_PAGE]
    nav: list[Any] = [{"Overview": OVERVIEW}, {"Results": results}]
    if checked:
        pages[FINDINGS_PAGE] = render_findings(ctx)
        results.append({"Findings": FINDINGS_PAGE})
    rows, transports = coverage_of(report)
    if coverage_required:
        site.problems += coverage_problems(rows, report.families)
    pages[COVERAGE_PAGE] = WIDE + render_coverage(rows, {name: href(COVERAGE_PAGE, page, directory_urls=directory_urls)
                                                         for name, page in ctx.pages.items()}, transports)
    results.append({"Coverage": COVERAGE_PAGE})
    failed, totals = failures(verdicts, report.transcripts, {s.name: s.family for s in report.sessions})
    pages[WIRE_TYPES_PAGE] = WIDE + render_wire_types(failed, {name: link(WIRE_TYPES_PAGE, page) for name, page in
                                                        ctx.pages.items()}, totals)
    results.append({"Wire types": WIRE_TYPES_PAGE})
    sections: dict[str, list[Any]] = {}
    for family in report.families:
        # Session and era pages are reached from these index pages, not listed in the navigation
        # (mkdocs.yml not_in_nav): a flat list of every session would be on every page.
        pages[family_page(family)] = render_family(ctx, family)
        sessions = [s for f in report.files if f.family == family for s in f.sessions]
        for file in (f for f in report.files if f.family == family):
            for s in file.sessions:
                if s.recorded is not None:
                    pages[ctx.pages[s.name]] = _memo_page(memo, project, ctx, s, file, "page",
                                                          lambda s=s, file=file: render_session(ctx, s, file))
        for scenario, group in ctx.eras(family).items():
            era_page = eras_page(family, scenario)
            pages[era_page] = _memo_eras(memo, project, ctx, family, scenario, group)
            # What the page claims about its sessions, held to their scenario steps.
            site.problems += era_claim_problems(era_page, pages[era_page],
                                                [s for s in group.values() if s.recorded is not None])
        to_features = features_page(family)
        features_of = None if memo is None else \
            (lambda s, unknown: memo.get(("features", s.family, s.name, _session_digest(memo, project, s), unknown),
                                         lambda: features(s.recorded, unknown)))
        pages[to_features] = render_features(family_name(family), sessions,
                                             lambda name, at=to_features: href(at, ctx.pages[name], directory_urls=directory_urls),
                                             features_of)
        to_modes = modes_page(family)
        notes = FAMILIES[family].mode_notes if family in FAMILIES else {}
        pages[to_modes] = render_modes(family_name(family), sessions,
                                       lambda name, at=to_modes: href(at, ctx.pages[name], directory_urls=directory_urls), notes)
        section: list[Any] = [family_page(family), {"By feature": to_features}, {"By era and mode": to_modes}]
        sections[family] = section
        pages[releases_page(family)] = ""  # (its place in the page order; filled in below, or taken out)
        nav.append({family_name(family): section})
    return nav, sections


@dataclass
class _OtherHalf:
    """What `_render_site` makes beside the session pages (see `beside`)."""

    #: family -> its nav entries, page, problems, and the pages of each session's differences
    releases: dict[str, tuple[list[Any], str | None, list[str], dict[str, str]]]
    reference: tuple[dict[str, str], Any, list[str]] | None  #: the reference pages, their nav entry, problems
    report_file: str
    exports: dict[str, str]


def _other_half(project: Project, ctx: Context, checked: list[FindingResult], run_session: Engine | None,
                memo: Memo | None, files: list[ScenarioFile] | None, reference: bool) -> _OtherHalf:
    report = ctx.report
    releases = {}
    for family in report.families:
        made: dict[str, str] = {}
        release_nav, release_problems = release_pages(project, ctx, family, run_session, made, memo, files)
        page = made.pop(releases_page(family), None)
        releases[family] = (release_nav, page, release_problems, made)
    urls = {name: page_url(path, ctx.directory_urls) for name, path in ctx.pages.items()}
    report_file = json.dumps(report_json(report, urls, [r.to_dict() for r in checked]), indent=2, ensure_ascii=False) + "\n"
    exports = export_files(report, lambda s, exports: _memo_page(memo, project, ctx, s, None, "exports", exports))
    return _OtherHalf(releases, _reference(project, report.families, files or []) if reference else None, report_file,
                      exports)


def _reference(project: Project, families: list[str], files: list[ScenarioFile]) -> tuple[dict[str, str], Any, list[str]]:
    """The reference pages (what the site is made from: the fixture servers, the worlds, the scenario
    format, the architecture, the API), their entry in the navigation and the problems reading them."""
    pages: dict[str, str] = {}
    text, problems = render_servers(project, families)
    pages[SERVERS_PAGE] = text
    world_pages, world_problems = render_worlds(project, files)
    pages.update(world_pages)
    problems += world_problems
    pages[FORMAT_PAGE] = render_format(families)
    pages[ARCHITECTURE_PAGE] = render_architecture()  # (it imports every module, to read its docstring)
    pages[PEERS_PAGE] = render_peers()
    pages[SUITE_PAGE] = render_suite(project.root)
    pages[PERFORMANCE_PAGE], performance_problems = render_performance(project.root)  # (a guide page, from the benchmark's runs)
    problems += performance_problems
    modules = reference_modules()
    pages[REFERENCE_INDEX] = render_reference_index(modules)
    for module in modules:
        pages[reference_page(module)] = render_reference(module)
    nav = {"Reference": [
        {"Guide": GUIDE_PAGES},
        {"Fixture servers": SERVERS_PAGE},
        {"World files": [WORLDS_INDEX] + [{p.removeprefix("worlds/").removesuffix(".md"): p}
                                          for p in world_pages if p != WORLDS_INDEX]},
        {"Scenario format": FORMAT_PAGE}, {"Architecture": ARCHITECTURE_PAGE},
        {"Use the simulator in your tests": PEERS_PAGE},
        {"MCP conformance suite": SUITE_PAGE},
        {"API reference": [REFERENCE_INDEX] + [{m.removeprefix("agent_loop_sim."): reference_page(m)} for m in modules]}]}
    return pages, nav, problems


def _scenario_files(project: Project, memo: Memo | None) -> list[ScenarioFile] | None:
    """The checkout's scenario files, read once for the check and the release comparisons (through
    ``memo`` when there is one); ``None`` when they cannot be read (the check then says why)."""
    try:
        return project.scenario_files() if memo is None else memo.scenario_files(project)
    except InputError:
        return None


def _playground_links(ctx: Context, files: list[ScenarioFile], memo: Memo | None) -> dict[str, str]:
    """Each session page's link to the playground (``browser.PLAYGROUND_PAGE``), relative, with the
    session as a scenario file of its own in the fragment (`browser.fragment`); the fragments through
    ``memo``, kept while their scenario file keeps its bytes."""
    from .browser import PLAYGROUND_PAGE, fragment, scenario_text  # (deferred: only the MkDocs build has the page)

    fragments: dict[str, str] = {}
    for f in files:
        made = lambda f=f: {s.name: fragment(scenario_text(f, s)) for s in f.sessions}  # noqa: E731
        fragments.update(made() if memo is None else memo.get(("playground", str(f.path), memo.digest(f.path)), made))
    return {name: href(page, PLAYGROUND_PAGE, fragments[name], ctx.directory_urls)
            for name, page in ctx.pages.items() if name in fragments}


def _report(project: Project, run_session: Engine | None, memo: Memo | None,
            files: list[ScenarioFile] | None) -> Report:
    """`build_report`, file by file through ``memo`` when there is one: a scenario file's result
    is kept while it and its recording keep their bytes."""
    if files is None or memo is None:
        return build_report(project, run_session, files=files)
    results = tuple(memo.get(("file", f.path, memo.digest(f.path), memo.digest(project.recording_path(f))),
                             lambda f=f: build_report(project, run_session, files=[f]).files[0]) for f in files)
    return Report(results, engine=engine_name(run_session))


def _as_sent(project: Project, report: Report, memo: Memo | None) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Each session's messages as they crossed the wire, from the sidecars beside the recordings
    (`agent_loop_sim.as_sent`), where there are ones that read and match the session's message
    count. A missing or broken sidecar only leaves its pages without the switch: ``check`` is
    where it is refused."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    counts = {(s.recording_file, s.name): len(s.recorded.messages) for s in report.sessions if s.recorded is not None}
    for f in report.files:
        path = project.root / f.recording_file
        side = sidecar_path(project.recording_dir, path)

        def read(path: Path = path) -> dict[str, list[dict[str, Any]]]:
            try:
                return read_as_sent(project.recording_dir, path)
            except (InputError, ValueError):
                return {}

        sessions = memo.get(("as sent", side, memo.digest(side)), read) if memo is not None else read()
        for name, entries in sessions.items():
            if counts.get((f.recording_file, name)) == len(entries):
                out[(f.recording_file, name)] = entries
    return out


def _memo_page(memo: Memo | None, project: Project, ctx: Context, s: Any, file: Any, kind: str, render: Any) -> Any:
    """A session's page (or exports) through ``memo``: keyed on the session's scenario file and
    recording, its wire-type verdicts, its era pairing and the page settings, all it reads."""
    if memo is None:
        return render()
    key = (kind, s.family, s.name, _session_digest(memo, project, s),
           (repr(file.sdk), file.transport) if file is not None else None,  # the page names the SDK that recorded it
           repr(ctx.verdicts.get(s.name)), ctx.era_of(s), ctx.repo_url, ctx.directory_urls,
           ctx.playground.get(s.name),  # (its scenario, in the playground link's fragment)
           memo.digest(sidecar_path(project.recording_dir, project.root / s.recording_file)))  # its "as sent"
    return memo.get(key, render)


def _session_digest(memo: Memo, project: Project, s: Any) -> str:
    """What one session's page derives from, as one digest: the session as its scenario file and
    its recording write it, its files' names. Per
    session, not per file: an edit re-renders only the sessions it changed. (The check's result,
    also on the page, follows from these bytes and the code, which the memo as a whole is keyed on.)
    Computed once per version of the two files."""
    files = (s.scenario_file, s.recording_file)
    digests = memo.get(("session digests", files, memo.digest(project.root / files[0]), memo.digest(project.root / files[1])),
                       dict)
    if s.name not in digests:
        whole = [s.name, s.family, *files, s.scenario, s.recorded.to_dict() if s.recorded is not None else None]
        digests[s.name] = hashlib.sha256(json.dumps(whole, ensure_ascii=False).encode()).hexdigest()
    return digests[s.name]


def _memo_eras(memo: Memo | None, project: Project, ctx: Context, family: str, scenario: str, group: Any) -> str:
    """An era page through ``memo``: keyed on its sessions' scenario files and recordings, the
    methods learnt from the family's sessions and the page settings, all it reads."""
    render = lambda: render_eras(ctx, family, scenario, group)  # noqa: E731
    if memo is None:
        return render()
    learnt = sorted((op, sorted(methods)) for op, methods in ctx.learnt(family).items())
    key = ("eras", family, scenario, repr(learnt), tuple(sorted(ctx.openings(family))), ctx.directory_urls,
           tuple((s.name, _session_digest(memo, project, s)) for s in group.values()))
    return memo.get(key, render)


def export_files(report: Report, through: Any = None) -> dict[str, str]:
    """The exports beside the pages: each session's committed transcript as JSON Lines and, for
    A2A, as HAR; the whole run as JUnit XML beside ``conformance.json``. ``through(session,
    render)`` may keep a session's exports (the serve memo)."""
    out = {JUNIT_FILE: report_junit(report)}
    for s in report.sessions:
        if s.recorded is not None:
            out.update(through(s, lambda s=s: _session_exports(s)) if through else _session_exports(s))
    return out


def _session_exports(s: Any) -> dict[str, str]:
    from .. import __version__
    from ..protocols.a2a import RESEARCH_CARD  # the agent the A2A recordings speak to (paths only)

    out = {jsonl_path(s.family, s.name): transcript_jsonl(s.recorded)}
    if s.family == "a2a":
        out[har_path(s.name)] = transcript_har(s.recorded, RESEARCH_CARD.base_url, __version__)
    return out


def render_checkout(root: Path, engine_spec: str = "", directory_urls: bool = True, repo_url: str = "",
                    memo: Memo | None = None, playground: bool = False) -> Site:
    """`render_site` for the checkout at ``root``, with the engine ``module:function`` names, if any;
    ``repo_url`` (mkdocs.yml's) is where the pages link the recordings and scenario files;
    ``playground``: whether the session pages link theirs in the playground.
    ``memo`` is `mkdocs serve`'s (see `mkdocs.incremental`); never used with another engine."""
    if memo is not None:
        memo.start()
    site = render_site(Project(root), run_session=load_engine(engine_spec) if engine_spec else None,
                       directory_urls=directory_urls, repo_url=repo_url, memo=None if engine_spec else memo,
                       playground=playground)
    if memo is not None:
        memo.finish()
    return site


def sessions_of_pages(site: Site) -> dict[str, str]:
    """Each session page's path -> the session it shows (so that an error while MkDocs renders a
    page can name its session)."""
    from .pages.conformance import session_page

    return {session_page(s.family, s.name): s.name for s in site.report.sessions}


def keep_pages(site: Site, folder: Path, touch_all: bool = False, previous: Site | None = None) -> list[str]:
    """Keep every page in ``folder``, rewriting only those whose content changed; ``touch_all``
    marks all as changed (every page carries the navigation, so a new nav changes them all).
    ``previous`` is the site last kept there (under serve): a page it had the same is not read.
    Returns the pages' paths, relative to ``folder``."""
    for path, content in site.pages.items():
        if (not touch_all and previous is not None and previous.pages.get(path) == content
                and (folder / path).is_file()):
            continue
        if not write_atomic(folder / path, content, only_if_changed=True, durable=False) and touch_all:
            os.utime(folder / path)
    return list(site.pages)


def summary(site: Site) -> str:
    report = site.report
    return (f"conformance: {report.passed}/{len(report.sessions)} sessions, {report.message_count} messages, "
            f"{len(site.pages)} generated files")


def write_pages(site: Site, outdir: Path) -> list[Path]:
    """Write every page under ``outdir`` (each file atomically); returns the paths written."""
    written = []
    for path, content in site.pages.items():
        target = outdir / path
        write_atomic(target, content)
        written.append(target)
    return written


class SiteRefused(Exception):
    """The check failed, so no page was written; ``code`` is the exit status to give."""

    def __init__(self, code: int) -> None:
        super().__init__(f"the conformance check failed (exit {code})")
        self.code = code


def build_pages(project: Project, outdir: Path, run_session: Engine | None = None) -> Site:
    """``python -m agent_loop_sim site OUTDIR``: the check and the Markdown pages, without MkDocs.

    When the engine and the recordings differ (or a recording, a finding or a fixture server is
    not as it should be) the problems go to stderr, nothing is written, and `SiteRefused`
    says which exit status to give: 1, or 2 when a recording or scenario file cannot be read.
    An ``outdir`` that is a file, or a page path in it taken by a file or a folder, is an
    `InputError` (exit 2) before any page is written.
    """
    check_output(outdir, folder=True)  # before the check: a file there is refused at once
    project.refuse_inputs(outdir, "the output folder")
    site = render_site(project, run_session)
    for warning in site.warnings:
        print(printable(f"warning: {warning}"), file=sys.stderr)
    if not site.ok:
        print(printable(site.explain()), file=sys.stderr)
        unreadable = bool(site.report.errors) or any(f.error for f in site.report.files) or site.unreadable
        raise SiteRefused(2 if unreadable else 1)
    check_tree(outdir, list(site.pages))  # before any is written, naming the first path refused
    write_tree(outdir, site.pages)  # all or nothing: made beside the output, moved into place at the end
    print(printable(f"wrote {len(site.pages)} files to {outdir}: {site.report.passed}/{len(site.report.sessions)} "
                    f"sessions pass, {site.report.message_count} messages"))
    return site
