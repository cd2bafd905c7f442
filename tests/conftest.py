"""Shared fixtures: the checkout, and a throw-away copy of it for tests that break things."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"  # Debian's (scripts/ensure_chromium.sh)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


#: the seed where neither the environment nor the checkout names one (a source tarball)
FALLBACK_FUZZ_SEED = 7


def draw_fuzz_seed(environ: dict[str, str], checkout: Path) -> tuple[int, str]:
    """The differential tests' seed and where it came from: ``AGENT_LOOP_SIM_FUZZ_SEED`` when
    set (to replay a run), else drawn from the commit under test, so that every commit draws
    sessions no earlier run drew; a fixed one only where there is no commit to draw from."""
    given = environ.get("AGENT_LOOP_SIM_FUZZ_SEED", "").strip()
    if given:
        return int(given), "AGENT_LOOP_SIM_FUZZ_SEED"
    commit = ""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True, timeout=30)
        commit = done.stdout.strip() if done.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):  # no git on this machine
        pass
    commit = commit or environ.get("GITHUB_SHA", "")  # a checkout git will not read (another owner)
    if len(commit) >= 6 and all(c in "0123456789abcdef" for c in commit.lower()):
        # Six hex digits: a seed short enough to type, and a million of them to draw from.
        return int(commit[:6], 16), f"commit {commit[:12]}"
    return FALLBACK_FUZZ_SEED, "fixed: no commit to draw from"


@cache
def fuzz_seed() -> tuple[int, str]:
    """This run's seed (`draw_fuzz_seed` for this checkout), the same for every test."""
    return draw_fuzz_seed(dict(os.environ), ROOT)


def pytest_report_header(config):  # noqa: ANN001 - pytest's hook
    seed, origin = fuzz_seed()
    return f"fuzz seed: {seed} ({origin}); replay with AGENT_LOOP_SIM_FUZZ_SEED={seed}"


def run_cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float = 300):
    """``python -m agent_loop_sim ARGS`` in ``cwd``; returns the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "agent_loop_sim", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, timeout=timeout)


def run_async(awaitable: Any) -> Any:
    """Run ``awaitable`` to its end on a fresh event loop, on a thread of its own: the browser tests'
    Playwright (sync API, kept open for the session) holds a running loop in the main thread, and
    ``asyncio.run`` there is refused."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, awaitable).result()


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A copy of what the engine and the recorders need: the package, data and scripts."""
    dest = tmp_path / "project"
    for name in ("agent_loop_sim", "scenarios", "recordings", "scripts", "conformance", "worlds"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def live_vs_engine(tmp_path: Path, family: str, sessions: list[dict], jobs: int = 4) -> list[str]:
    """Record ``sessions`` live with the family's recorder, play them with the engine, and
    return every difference (rendered); the differential tests want it empty."""
    import json

    from agent_loop_sim import engine, scenarios
    from agent_loop_sim.compare import diff_sessions
    from agent_loop_sim.protocols import FAMILIES
    from agent_loop_sim.recording import parse_recording

    path = tmp_path / f"{family}_random.json"
    path.write_text(json.dumps({"recording": path.name, "sessions": sessions}))
    done = subprocess.run([sys.executable, str(ROOT / FAMILIES[family].recorder), str(path), "--jobs", str(jobs)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    live = json.loads(done.stdout)
    assert [s["name"] for s in live["sessions"]] == [s["name"] for s in sessions]
    wire = [s.pop("wire") for s in live["sessions"]]  # (the messages as they crossed: see below)
    recording = parse_recording({"family": family, "scenarios": str(path), **live}, "live")
    loaded = scenarios.load(path).sessions
    produced = [engine.run_session(s) for s in loaded]
    found = [d.render("live", "engine") for d in diff_sessions(recording.sessions, produced)]
    # The same, judged by the normal form written apart (plain_normal_form): the recorder's
    # messages went through normalise.py, the engine's here do not, so a bug in it shows.
    # And the recorder's wire lines, from before it normalised, in the plain form are its recording.
    from plain_normal_form import NORMAL_FORMS, from_wire

    for session, recorded, lines in zip(loaded, live["sessions"], wire):
        played = [m.to_dict(n) for n, m in enumerate(engine.play(session), 1)]
        expected = [json.dumps(m) for m in recorded["messages"]]
        if [json.dumps(m) for m in NORMAL_FORMS[family](played)] != expected:
            found.append(f"session {session.name!r}: the live recording is not the plain normal form of the engine's")
        if [json.dumps(m) for m in NORMAL_FORMS[family](from_wire(family, lines))] != expected:
            found.append(f"session {session.name!r}: the live recording is not the plain normal form of its wire lines")
    return found


_HISTOGRAMS: list[str] = []
_HISTOGRAM = "fuzz op histogram"


@pytest.fixture
def op_histogram(request):
    """Record one line of what a fuzz run drew; printed in the terminal summary (``-s`` not needed).
    The line travels with the test's report, so a worker's lines reach the summary too."""
    def note(label: str, counts: dict[str, int]) -> None:
        line = f"{label}: " + ", ".join(f"{k}={v}" for k, v in counts.items())
        request.node.user_properties.append((_HISTOGRAM, line))
    return note


def pytest_runtest_logreport(report):  # noqa: ANN001 - pytest's hook
    if report.when == "teardown":  # (each phase's report carries the lines noted so far)
        _HISTOGRAMS.extend(line for key, line in report.user_properties if key == _HISTOGRAM)


def pytest_terminal_summary(terminalreporter):  # noqa: ANN001 - pytest's hook
    if _HISTOGRAMS:
        terminalreporter.section("fuzz op histograms")
        seed, origin = fuzz_seed()
        terminalreporter.write_line(f"seed {seed} ({origin}); replay with AGENT_LOOP_SIM_FUZZ_SEED={seed}")
        for line in _HISTOGRAMS:
            terminalreporter.write_line(line)


# Under pytest-xdist (pyproject's addopts: a worker per core) a session fixture is
# made once per worker. The one MkDocs build of the project (`site_build`) is made once per run
# all the same: the first worker to need it builds it under a lock, the others read it. Each
# worker starts its own Chromium (`browser`, two seconds): the browser tests then share the cores
# with the rest, where one worker holding all of them (five minutes) ended the run on one core.
BROWSER_OR_SITE = {"site_build", "browser"}


def pytest_xdist_auto_num_workers(config):  # noqa: ANN001 - pytest-xdist's hook, for `-n auto`
    """One worker per core (a third on two cores, measured, made the run slower: each worker's
    Chromium and SDK processes crowd the others'); a run of one file is one process, where starting
    workers costs more than it saves. The environment's ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still
    decides when set (xdist's own answer)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    files = {arg.split("::")[0] for arg in config.args}
    return 0 if len(files) == 1 and files.pop().endswith(".py") else os.cpu_count() or 1


#: The modules ``make quick`` leaves out (``-m "not slow"``): they record an SDK live, start
#: servers or a browser, or build the site with MkDocs; what is left checks the model and the
#: site's pages in seconds. A test of another module that reads the built site or drives the
#: browser is slow too (`BROWSER_OR_SITE`).
SLOW_MODULES = {
    "test_a2a_fuzz", "test_a2a_recorder", "test_a2a_requests", "test_as_sent", "test_browser", "test_browser_engine",
    "test_browser_truth", "test_example_peers", "test_faults", "test_hostile_input", "test_hostile_second_round",
    "test_inbrowser", "test_live", "test_mcp_fuzz", "test_mcp_http", "test_names_property", "test_normal_form_apart",
    "test_record_mcp", "test_regressions", "test_releases", "test_scale", "test_serve_a2a", "test_serve_a2a_subscribe",
    "test_serve_mcp", "test_site_build", "test_site_incremental", "test_site_rawhtml", "test_site_serving",
    "test_swap", "test_swap_fork", "test_wire_types", "test_worlds",
}


#: The modules whose tests need their process to have one thread (`agent_loop_sim.site.beside`
#: forks only then): they run first in their worker.
SINGLE_THREADED_MODULES = {"test_beside"}


def pytest_configure(config):  # noqa: ANN001 - pytest's hook
    config.addinivalue_line("markers", "slow: records an SDK live, starts a browser or servers, or builds the site "
                                       "(left out of make quick)")


def pytest_collection_modifyitems(config, items):  # noqa: ANN001 - pytest's hook
    for item in items:
        if BROWSER_OR_SITE & set(item.fixturenames) or item.module.__name__ in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
    # In the order the workers are handed them: those that fork a child beside a process of one
    # thread (before a worker starts its browser, whose driver is a thread), the slow tests that
    # need no site while the site is built (`pytest_collection_finish`), then those that read it,
    # then the quick ones, which fill the run's end evenly (a long test last would end it on one core).
    def order(item) -> int:  # noqa: ANN001
        if item.module.__name__ in SINGLE_THREADED_MODULES:
            return -1
        return 1 if "site_build" in item.fixturenames else 0 if item.get_closest_marker("slow") else 2
    items.sort(key=order)


def pytest_collection_finish(session):  # noqa: ANN001 - pytest's hook
    """The site build starts as soon as the tests to run are known, beside them, in one process of
    the run (the first worker, or the only process): a test that needs it then waits for what is
    left of it, not for all of it (both workers once sat idle for most of a minute)."""
    if session.config.option.collectonly:
        return
    if os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0" and any(
            "site_build" in item.fixturenames for item in session.items):
        # In a process of its own, not a thread: a test process with a second thread may not fork
        # (`agent_loop_sim.site.beside`), and its tests would see one.
        session.config.stash[_SITE_BUILDER] = subprocess.Popen(
            [sys.executable, "-c", "import sys; from pathlib import Path; from test_site_fakes import built_site; "
                                   "built_site(Path(sys.argv[1]))", str(_site_build_path(session.config))],
            cwd=Path(__file__).parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pytest_sessionfinish(session):  # noqa: ANN001 - pytest's hook
    builder = session.config.stash.get(_SITE_BUILDER, None)
    if builder is not None:  # (done by now unless no test got to it: then it is not waited for)
        builder.kill()
        builder.wait()


_SITE_BUILDER = pytest.StashKey[subprocess.Popen]()


def _site_build_path(config):  # noqa: ANN001, ANN202
    """The run's one site build's folder: in the run's temporary folder, which each worker's lies in."""
    # (pytest's own factory: a second one made from the config would empty the folder again)
    base = config._tmp_path_factory.getbasetemp()  # noqa: SLF001
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "site-build"


@pytest.fixture(scope="session")
def site_build(request):
    """The one MkDocs build of a copy of the project (``test_site_fakes.built_site``): its project,
    its site folder and the finished build process; once per run, in the run's folder (a
    worker's own is in it)."""
    from test_site_fakes import built_site

    return built_site(_site_build_path(request.config))


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """One persistent Chromium context (a fresh --user-data-dir) that records every request,
    shared by every browser test: Playwright's sync API runs once per process."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, args=FLAGS, headless=True,
            viewport={"width": 1280, "height": 900})
        context.requests = []  # type: ignore[attr-defined]
        context.on("request", lambda request: context.requests.append(request.url))
        yield context
        context.close()
