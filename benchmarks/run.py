"""The benchmark: speed and scale, measured side by side in one run, printed as ratios.

    .venv/bin/python benchmarks/run.py [--quick]

These machines are shared and noisy, so every figure is a ratio of two things measured in
the same run (or a time against its goal), each the median of several repetitions.

P1  the engine on the 26 sessions of the seed page in process, against the live SDK recording
    of the same sessions (one at a time)                         goal: >= 1000x faster
P2  `mkdocs build` with the conformance hooks, against the same site built from the pages
    already rendered (hooks off)                                 goal: <= 1.10x
P3  `mkdocs serve`: from saving an edited recording to the rebuilt page being served
                                                                 goal: <= 2 s
P4  scale: 1x, 10x, 100x the sessions (synthetic copies under new names): engine and render
    time per session                                             goal: 100x within 1.2x of 1x,
                                                                       and the 100x site builds
P5  the live re-recording of the 26 sessions, run in parallel    goal: <= 4 s
P6, P7  the served peers against the SDK's fixtures served the same way (benchmarks/peers.py)
P8  the engine in the browser (headless Chromium): the playground opened -> first transcript,
    cold and with the runtime cached; the engine on every committed session in the browser
    against natively                                             (figures; no goal set)
P9  the largest input the CLI accepts (every limit at its default: the largest file, the most
    sessions, the deepest nesting): `run` on it, wall time and peak memory, and the refusal of
    a file one byte over the limit                               (figures; no goal set)
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Callable

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_loop_sim import engine  # noqa: E402
from agent_loop_sim.cli import record_live  # noqa: E402
from agent_loop_sim.project import Project  # noqa: E402
from agent_loop_sim.site import render_site  # noqa: E402
from agent_loop_sim.site.build import write_pages  # noqa: E402
from benchmarks import peers  # noqa: E402
from agent_loop_sim import inbrowser  # noqa: E402
from browser_bench import p6_browser  # noqa: E402


COPIED = ("agent_loop_sim", "scenarios", "recordings", "conformance", "hooks", "docs")


def copy_checkout(dest: Path) -> Path:
    for name in COPIED:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", ".cache"))
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    return dest


def mkdocs_build(project: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--site-dir", str(project / "site")],
                          cwd=project, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    if check and done.returncode != 0:
        raise SystemExit(f"mkdocs build failed in {project}:\n{done.stderr[-2000:]}")
    return done


SURFACE_FILES = ("mcp_surface.json", "a2a_surface.json")
VERDICTS = "verdicts/wire_types.json"


def synthetic_project(dest: Path, factor: int) -> Path:
    """The 26 seed sessions ``factor`` times, each copy under new session names."""
    copy_checkout(dest)
    # The surface sessions stay: without them the build refuses (a method of the engine's tables
    # would be sent by no session), so they are a fixed base under every factor.
    kept = [json.loads((ROOT / "scenarios" / name).read_text())["recording"] for name in SURFACE_FILES]
    for folder in ("scenarios", "recordings"):
        for path in (dest / folder).glob("*.json"):
            if path.name not in SURFACE_FILES and path.name not in kept:
                path.unlink()
    verdicts_path = dest / "recordings" / VERDICTS
    verdicts = json.loads(verdicts_path.read_text())
    for seed_file in ("mcp.json", "a2a.json"):
        scenario = json.loads((ROOT / "scenarios" / seed_file).read_text())
        recording = json.loads((ROOT / "recordings" / scenario["recording"]).read_text())
        for k in range(factor):
            suffix = f"_copy{k}"
            stem = Path(scenario["recording"]).stem + suffix
            s = {**scenario, "recording": stem + ".json",
                 "sessions": [{**x, "name": x["name"] + suffix} for x in scenario["sessions"]]}
            r = {**recording, "scenarios": f"scenarios/{Path(seed_file).stem}{suffix}.json",
                 "sessions": [{**x, "name": x["name"] + suffix} for x in recording["sessions"]]}
            (dest / "scenarios" / f"{Path(seed_file).stem}{suffix}.json").write_text(json.dumps(s))
            (dest / "recordings" / f"{stem}.json").write_text(json.dumps(r))
            for x in scenario["sessions"]:
                verdicts["sessions"][x["name"] + suffix] = verdicts["sessions"][x["name"]]
    verdicts_path.write_text(json.dumps(verdicts))
    return dest


def serve_edit_latencies(project: Path, extra: list[str], count: int) -> list[float]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen([str(ROOT / ".venv" / "bin" / "mkdocs"), "serve", "-a", f"127.0.0.1:{port}", *extra],
                              cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})

    def page() -> str:
        try:
            with urllib.request.urlopen(url, timeout=60) as answer:
                return answer.read().decode()
        except OSError:
            return ""

    try:
        deadline = time.monotonic() + 180
        while "conformance" not in page():
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("mkdocs serve did not come up")
            time.sleep(0.2)
        recording = project / "recordings" / "sdk_exchanges.json"
        latencies = []
        for i in range(count):
            time.sleep(1.5)  # let the watcher settle between edits
            data = json.loads(recording.read_text())
            marker = f"2.3.0+edit{i}"
            data["sdk"]["version"] = marker  # shown on the overview page
            start = time.perf_counter()
            recording.write_text(json.dumps(data, indent=2))
            while marker not in page():
                time.sleep(0.02)
            latencies.append(time.perf_counter() - start)
        return latencies
    finally:
        server.terminate()
        server.wait(10)


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def verdict(ok: bool) -> str:
    return "meets the goal" if ok else "MISSES the goal"


SEED_FILES = ["scenarios/mcp.json", "scenarios/a2a.json"]  # the 26 sessions of the seed page


def p1_engine_vs_live(project: Project, repeat: int) -> tuple[str, bool]:
    files = project.scenario_files(SEED_FILES)
    sessions = [s for f in files for s in f.sessions]

    def run_engine() -> None:
        for s in sessions:
            engine.run_session(s)

    def record(fresh_process: bool) -> None:
        # The recorder as shipped forks each MCP server from one process that imported the SDK
        # once; with AGENT_LOOP_SIM_MCP_SERVER it starts a fresh server process per session,
        # as the seed page's recordings were made.
        if fresh_process:
            os.environ["AGENT_LOOP_SIM_MCP_SERVER"] = f"{sys.executable} {ROOT / 'conformance' / 'sdk_server.py'}"
        try:
            for f in files:
                record_live(project, f, 30.0, 1)
        finally:
            os.environ.pop("AGENT_LOOP_SIM_MCP_SERVER", None)

    engine_s = median_time(run_engine, repeat * 5)
    live_s = median_time(lambda: record(False), max(1, repeat // 2))
    fresh_s = median_time(lambda: record(True), max(1, repeat // 2))
    ratio = live_s / engine_s
    return (f"P1 engine {engine_s * 1000:.1f} ms for {len(sessions)} sessions vs the live SDK one session at a "
            f"time: {live_s:.2f} s with the recorder as shipped, {ratio:,.0f}x (goal >= 1000x): "
            f"{verdict(ratio >= 1000)}; {fresh_s:.2f} s with a fresh server process per session, "
            f"{fresh_s / engine_s:,.0f}x", ratio >= 1000)


def p2_hook_overhead(project: Project, repeat: int) -> tuple[str, bool]:
    """The same site built twice: with the conformance hook, and from its pages rendered beforehand."""
    with tempfile.TemporaryDirectory(prefix="bench-p2-") as tmp:
        copy = copy_checkout(Path(tmp) / "with-hooks")
        site = render_site(Project(copy))
        plain = Path(tmp) / "prerendered"
        shutil.copytree(ROOT / "docs", plain / "docs")
        write_pages(site, plain / "docs")
        config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
        config.pop("hooks", None)
        config.pop("watch", None)
        config["nav"] = site.nav
        (plain / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False))
        shutil.copytree(ROOT / "agent_loop_sim", plain / "agent_loop_sim")  # for mkdocstrings
        with_hooks = median_time(lambda: mkdocs_build(copy), repeat)
        without = median_time(lambda: mkdocs_build(plain), repeat)
    ratio = with_hooks / without
    return (f"P2 mkdocs build with the hook {with_hooks:.2f} s vs the same pages prerendered, hook off "
            f"{without:.2f} s: {ratio:.3f}x (goal <= 1.10x): {verdict(ratio <= 1.10)}", ratio <= 1.10)


def p3_serve_latency(project: Project, repeat: int) -> tuple[str, bool]:
    """Save an edited recording, wait until the served overview shows the edit; `serve --dirty`
    (what `make serve` runs) against a plain `serve` that rebuilds everything."""
    figures = {}
    for label, extra in (("serve --dirty", ["--dirty"]), ("serve", [])):
        with tempfile.TemporaryDirectory(prefix="bench-p3-") as tmp:
            copy = copy_checkout(Path(tmp) / "project")
            figures[label] = statistics.median(serve_edit_latencies(copy, extra, max(3, repeat)))
    dirty = figures["serve --dirty"]
    return (f"P3 saved recording -> rebuilt page served: {dirty:.2f} s with `make serve` (serve --dirty; "
            f"a full rebuild: {figures['serve']:.2f} s, {figures['serve'] / dirty:.1f}x slower) "
            f"(goal <= 2 s): {verdict(dirty <= 2)}", dirty <= 2)


def p4_scale(project: Project, repeat: int, build_100x: bool) -> tuple[str, bool]:
    """1x, 10x and 100x the 26 seed sessions, as synthetic copies under new names (over the fixed
    base of the surface sessions, which the build needs for its coverage)."""
    lines, per = [], {}
    with tempfile.TemporaryDirectory(prefix="bench-p4-") as tmp:
        for factor in (1, 10, 100):
            copy = synthetic_project(Path(tmp) / f"x{factor}", factor)
            files = Project(copy).scenario_files()
            sessions = [s for f in files for s in f.sessions]
            # The transcripts are dropped as they come: what is timed is the engine, not the garbage
            # collector walking thousands of kept transcripts.
            engine_s = median_time(lambda: all(engine.run_session(s) for s in sessions), repeat)
            total_s = median_time(lambda: render_site(Project(copy), reference=False), repeat)
            per[factor] = (engine_s / len(sessions), (total_s - engine_s) / len(sessions))
            lines.append(f"   {factor:>3}x {len(sessions):>5} sessions: engine {per[factor][0] * 1e3:.2f} ms, "
                         f"render {per[factor][1] * 1e3:.2f} ms per session")
        ok = all(per[100][i] <= 1.2 * per[1][i] for i in (0, 1))
        built = ""
        if build_100x:
            start = time.perf_counter()
            done = mkdocs_build(Path(tmp) / "x100", check=False)
            built = (f"; the 100x site ({len(sessions)} sessions) builds in {time.perf_counter() - start:.0f} s"
                     if done.returncode == 0 else f"; the 100x site FAILED to build: {done.stderr[-300:]}")
            ok = ok and done.returncode == 0
    ratios = ", ".join(f"{per[100][i] / per[1][i]:.2f}x" for i in (0, 1))
    head = (f"P4 scale: per-session cost at 100x vs 1x: engine, render {ratios} (goal <= 1.2x, linear){built}: "
            f"{verdict(ok)}")
    return "\n".join([head, *lines]), ok


def p5_parallel_recording(project: Project, repeat: int) -> tuple[str, bool]:
    files = project.scenario_files(SEED_FILES)
    count = sum(len(f.sessions) for f in files)

    def record_everything() -> None:
        # The families are recorded by separate processes; run them at the same time too.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(len(files)) as pool:
            list(pool.map(lambda f: record_live(project, f, 30.0, 8), files))

    wall = median_time(record_everything, max(1, repeat // 2))
    return (f"P5 live re-recording of {count} sessions in parallel: {wall:.2f} s (goal <= 4 s): "
            f"{verdict(wall <= 4)}", wall <= 4)


def largest_accepted_input(dest: Path) -> tuple[Path, Path]:
    """A scenario file at every default limit (sessions, nesting depth, just under the largest
    file), and the same file one byte over the size limit."""
    from agent_loop_sim.limits import DEPTH, FILE_BYTES, SESSIONS

    deep: object = 1
    for _ in range(DEPTH.default - 6):  # $ > sessions > a session > actions > an action > arguments
        deep = [deep]

    def session(i: int, pad: int) -> dict[str, object]:
        return {"name": f"s{i}", "family": "mcp", "mode": "legacy", "title": "the largest input",
                "actions": [{"op": "call", "tool": "add", "arguments": {"a": i, "b": 1, "deep": deep, "pad": "x" * pad}}]}

    bare = len(json.dumps({"recording": "largest.json", "sessions": [session(i, 0) for i in range(SESSIONS.default)]}))
    pad = (FILE_BYTES.default - bare) // SESSIONS.default
    text = json.dumps({"recording": "largest.json", "sessions": [session(i, pad) for i in range(SESSIONS.default)]})
    accepted, over = dest / "largest.json", dest / "over.json"
    accepted.write_text(text)
    over.write_text(text[:-1] + " " * (FILE_BYTES.default + 1 - len(text)) + text[-1])
    return accepted, over


def run_measured(args: list[str]) -> tuple[float, float, int]:
    """(seconds, peak resident MB, exit status) of ``python -m agent_loop_sim ARGS``, output dropped."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", *args], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, process.returncode


def p9_largest_input(repeat: int) -> tuple[str, bool]:
    with tempfile.TemporaryDirectory(prefix="bench-p9-") as tmp:
        accepted, over = largest_accepted_input(Path(tmp))
        runs = [run_measured(["run", str(accepted)]) for _ in range(repeat)]
        refusals = [run_measured(["run", str(over)]) for _ in range(repeat)]
        size = accepted.stat().st_size
    ok = all(code == 0 for *_, code in runs) and all(code == 2 for *_, code in refusals)
    wall = statistics.median(t for t, _, _ in runs)
    memory = max(m for _, m, _ in runs)
    refused = statistics.median(t for t, _, _ in refusals)
    return (f"P9 the largest accepted input ({size:,} bytes, 1,000 sessions, nesting at the limit): `run` "
            f"{wall:.2f} s (min {min(t for t, _, _ in runs):.2f}, max {max(t for t, _, _ in runs):.2f}), peak "
            f"{memory:.0f} MB resident; one byte over the limit refused in {refused:.2f} s"
            f"{'' if ok else ': an exit status was NOT as expected'}", ok)


def built_with_runtime(tmp: Path) -> tuple[Path, Path]:
    """A copy of the checkout with the npm-installed runtime linked in, built: (project, site)."""
    project = copy_checkout(tmp / "project")
    (project / "node_modules").symlink_to(ROOT / "node_modules")
    mkdocs_build(project)
    return project, project / "site"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (for the test suite)")
    parser.add_argument("--only", nargs="*", help="run only these (P1 ... P6)")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else 5
    project = Project(ROOT)
    checks: dict[str, Callable[[], tuple[str, bool]]] = {
        "P1": lambda: p1_engine_vs_live(project, repeat),
        "P2": lambda: p2_hook_overhead(project, repeat),
        "P3": lambda: p3_serve_latency(project, repeat),
        "P4": lambda: p4_scale(project, repeat, build_100x=not args.quick),
        "P5": lambda: p5_parallel_recording(project, repeat),
        "P6": lambda: peers.p6_serve_mcp(max(5, repeat * 2)),
        "P7": lambda: peers.p7_serve_a2a(max(5, repeat), 100 if args.quick else 400),
        "P8": lambda: p6_browser(built_with_runtime, lambda copy: inbrowser.engine_seconds(str(copy)), repeat),
        "P9": lambda: p9_largest_input(repeat),
    }
    print(f"benchmark on {os.cpu_count()} cores, {'quick' if args.quick else 'full'} run "
          f"(medians of {repeat} or more)", flush=True)
    for name, check in checks.items():
        if args.only and name not in args.only:
            continue
        line, _ = check()
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
