"""Fault injection (issue 15): hostile and careless input, signals and leftovers, each case named
by what it tries, in the style of the mutation test.

Every case runs the real command line in a git checkout of a copy of the project, with ``TMPDIR``
pointing at a fresh folder, and must end with: one line on stderr (no traceback), the exit status
it names (2 for bad input), no hang, ``git status`` clean (nothing written, nothing left over),
the ``TMPDIR`` folder empty, and no process of the copy still running. The count of cases is
printed; the controls at the end show each of those checks can fail.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import pytest

from conftest import ROOT

SCN = "scenarios/mcp.json"
REC = "recordings/sdk_exchanges.json"
DEEP = 100_000

# The whole module on one worker under pytest-xdist, in order: `test_count` runs last and counts
# the cases this process answered, and the sandbox (a git checkout) is made once.
pytestmark = pytest.mark.xdist_group("test_faults")


# --- the sandbox and the checks every case ends with ------------------------------------------
@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Path:
    """A git checkout of what the CLI and the recorders need (releases other than the pinned are
    left out: the cases that record name ``--release`` of the pinned one)."""
    root = tmp_path_factory.mktemp("faults") / "project"
    for name in ("agent_loop_sim", "scenarios", "recordings", "scripts", "conformance", "worlds"):
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".gitignore", root / ".gitignore")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(git + ["add", "-A"], cwd=root, check=True)
    subprocess.run(git + ["commit", "-qm", "copy"], cwd=root, check=True)
    return root


def git_status(root: Path) -> list[str]:
    done = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--ignored"], cwd=root,
                          capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if "__pycache__" not in line]


def _running() -> list[tuple[str, str, str, str]]:
    """(pid, command line, working folder, TMPDIR) of every running process but this one."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
            environ = (entry / "environ").read_bytes().split(b"\0")
            cwd = os.readlink(entry / "cwd")
        except OSError:  # gone meanwhile, or a process not ours to read
            continue
        tmpdir = next((e[7:].decode(errors="replace") for e in environ if e.startswith(b"TMPDIR=")), "")
        found.append((entry.name, cmdline, cwd, tmpdir))
    return found


def processes_of(root: Path) -> list[str]:
    """Every running process whose command line names the sandbox or that runs in it (the CLI, the
    recorders it starts with relative paths, fork servers and their servers, tees)."""
    return [f"{pid}: {cmdline}" for pid, cmdline, cwd, _ in _running()
            if str(root) in cmdline or cwd == str(root) or cwd.startswith(f"{root}/")]


def processes_of_run(tmp: Path) -> list[str]:
    """The processes of one run, known by its own fresh TMPDIR ``tmp``: their TMPDIR is ``tmp`` or
    the recorder's folder in it, or their command line names such a folder (the SDK starts a
    session's process with an environment of its own, and ``stdio_tee.py`` names its log there).
    A process that another case left behind is never taken for this run's."""
    return [f"{pid}: {cmdline}" for pid, cmdline, _, tmpdir in _running()
            if str(tmp) in cmdline or tmpdir == str(tmp) or tmpdir.startswith(f"{tmp}/")]


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def leftovers(root: Path, tmp: Path, edited: tuple[str, ...] = ()) -> list[str]:
    """What a case left behind: changed or new files (other than those it edited on purpose),
    anything in its TMPDIR, and processes of the sandbox (given a few seconds to go)."""
    wait_until(lambda: not processes_of(root) and not any(tmp.iterdir()), 10)
    out = [f"git: {line}" for line in git_status(root) if line[3:] not in edited]
    out += [f"TMPDIR: {p.name}" for p in tmp.iterdir()]
    out += [f"process {p}" for p in processes_of(root)]
    return out


def one_line_error(done: subprocess.CompletedProcess[str], code: int) -> str | None:
    """Why ``done`` is not one clear line with exit ``code``, or None."""
    err = done.stderr.strip()
    if done.returncode != code:
        return f"exit {done.returncode}, not {code}: {err[-300:]}"
    if "Traceback" in err or len(err.splitlines()) != 1:
        return f"not one line: {err[-500:]}"
    return None


def cli(root: Path, tmp: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 60):
    return subprocess.run([sys.executable, "-m", "agent_loop_sim", *args], cwd=root, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "TMPDIR": str(tmp), **(env or {})})


# --- the inputs ------------------------------------------------------------------------------
def scenario_text(root: Path, change: Callable[[dict], None]) -> str:
    data = json.loads((root / SCN).read_text())
    data["sessions"] = data["sessions"][:1]
    change(data)
    return json.dumps(data)


def _arguments(value_json: str) -> Callable[[Path], str]:
    """A scenario whose first call's arguments hold ``value_json`` as written (not JSON-encoded by Python)."""
    def make(root: Path) -> str:
        text = scenario_text(root, lambda d: d["sessions"][0]["actions"][2]["arguments"].update(a="@@"))
        return text.replace('"@@"', value_json)
    return make


def _recording(value: str) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        data["recording"] = value
    return change


def _raw_line(line: str) -> Callable[[Path], str]:
    def make(root: Path) -> str:
        return json.dumps({"recording": "x.json", "sessions": [
            {"name": "raw_one", "family": "mcp", "mode": "raw", "title": "t", "lines": [line]}]})
    return make


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


#: name -> (verb and options, how to make the input file (text) or None, expected exit, words the line holds)
CASES: dict[str, tuple[list[str], Callable[[Path], str] | None, int, list[str]]] = {
    "record_to_an_absolute_path": (["record"], lambda r: scenario_text(r, _recording("/tmp/x.json")), 2,
                                   ["$.recording", "not '/tmp/x.json'"]),
    "record_through_dotdot": (["record"], lambda r: scenario_text(r, _recording("../../../tmp/x.json")), 2,
                              ["$.recording", "file name in recordings/"]),
    "record_over_a_scenario_file": (["record"], lambda r: scenario_text(r, _recording("../scenarios/mcp.json")), 2,
                                    ["$.recording", "../scenarios/mcp.json"]),
    "record_to_an_empty_name": (["record"], lambda r: scenario_text(r, _recording("")), 2, ["$.recording", "not ''"]),
    "record_to_a_hidden_temp_name": (["record"], lambda r: scenario_text(r, _recording(".x.json.tmp")), 2,
                                     ["$.recording"]),
    "nan_in_tool_arguments": (["run"], _arguments("NaN"), 2, ["$.sessions[0].actions[2].arguments.a", "NaN is not"]),
    "infinity_in_tool_arguments": (["run"], _arguments("-Infinity"), 2, ["arguments.a", "-Infinity is not"]),
    "number_out_of_double_range": (["run"], _arguments("1e400"), 2, ["arguments.a", "1e400 is not"]),
    "lone_surrogate_in_arguments": (["run"], _arguments('"\\ud800"'), 2, ["arguments.a", "lone surrogate"]),
    "lone_surrogate_in_a_key": (["run"], _arguments('{"\\udfff": 1}'), 2, ["arguments.a", "lone surrogate"]),
    "integer_of_5000_digits": (["run"], _arguments("9" * 5000), 2, ["not valid here"]),
    "op_is_an_array": (["check"], lambda r: scenario_text(r, lambda d: d["sessions"][0]["actions"][0].update(op=["ping"])),
                       2, ["$.sessions[0].actions[0].op", "unknown op an array"]),
    "op_is_an_object": (["run"], lambda r: scenario_text(r, lambda d: d["sessions"][0]["actions"][0].update(op={})),
                        2, ["unknown op an object"]),
    "ref_type_is_an_array": (["run"], lambda r: scenario_text(r, lambda d: d["sessions"][0]["actions"].append(
        {"op": "complete", "ref": {"type": ["ref/prompt"]}, "argument": {"name": "a", "value": "b"}})), 2,
        ["ref.type"]),
    "nested_100000_arrays_in_a_scenario": (["check"], lambda r: _nested(DEEP), 2, ["nesting depth limit", "--max-depth"]),
    "nested_100000_arrays_in_arguments": (["run"], _arguments(_nested(DEEP)), 2, ["nesting depth"]),
    "raw_line_with_nan": (["run"], _raw_line('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}'), 2,
                          ["$.sessions[0].lines[0]", "in the text, at $.params.x"]),
    "raw_line_nested_100000_deep": (["run"], _raw_line(_nested(DEEP)), 2, ["$.sessions[0].lines[0]", "nesting depth"]),
    "sessions_over_the_limit": (["--max-sessions", "2", "run"], lambda r: json.dumps(
        {"recording": "x.json", "sessions": json.loads((r / SCN).read_text())["sessions"]}), 2,
        ["session count limit of 2", "--max-sessions", "AGENT_LOOP_SIM_MAX_SESSIONS"]),
    "file_over_the_size_limit": (["--max-file-bytes", "1000", "run"], lambda r: (r / SCN).read_text(), 2,
                                 ["largest file limit of 1,000", "--max-file-bytes"]),
    "depth_over_the_limit": (["--max-depth", "5", "run"], lambda r: (r / SCN).read_text(), 2,
                             ["nesting depth limit of 5", "AGENT_LOOP_SIM_MAX_DEPTH"]),
    "seeded_sampling_answer_the_sdk_refuses": (["run"], lambda r: json.dumps({"recording": "x.json", "sessions": [
        {"name": "modern_bad_seed", "family": "mcp", "mode": "2026-07-28", "title": "t", "actions": [
            {"op": "call", "tool": "add", "arguments": {"a": 1, "b": 2},
             "input_responses": {"k": {"role": "assistant", "content": {}, "model": "m"}}}]}]}), 2,
        ["session 'modern_bad_seed'", "input_responses.k.content", "refuses this sampling answer"]),
    "duplicate_key": (["run"], lambda r: '{"recording": "x.json", "recording": "y.json", "sessions": []}', 2,
                      ["duplicate key 'recording'"]),
    "empty_file": (["run"], lambda r: "", 2, ["the file is empty"]),
    "not_utf8": (["run"], lambda r: "\udcff", 2, ["not UTF-8"]),
}


def _input(root: Path, inputs: Path, name: str, make: Callable[[Path], str]) -> str:
    path = inputs / f"{name}.json"
    text = make(root)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return str(path)


TRIED: list[str] = []


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_one_line(sandbox: Path, tmp_path: Path, case: str):
    verb, make, code, words = CASES[case]
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    args = [*verb, _input(sandbox, tmp_path, case, make)] if make else verb
    if "record" in verb:
        args += ["--release", "2.3.0"]
    done = cli(sandbox, tmp, *args)
    assert one_line_error(done, code) is None, one_line_error(done, code)
    for word in words:
        assert word in done.stderr, (word, done.stderr)
    assert done.stdout == ""
    assert leftovers(sandbox, tmp) == []
    TRIED.append(case)


# --- files that are not regular, options that cannot work, limits set wrong ---------------------
def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "scenario.fifo"
    os.mkfifo(path)
    return str(path)


OTHER_CASES: dict[str, tuple[Callable[[Path], list[str]], dict[str, str], list[str]]] = {
    "fifo_as_the_scenario_file": (lambda t: ["check", _fifo(t)], {}, ["a FIFO, not a regular file"]),
    "folder_as_the_scenario_file": (lambda t: ["run", str(t)], {}, ["a folder, not a regular file"]),
    "device_as_the_scenario_file": (lambda t: ["run", "/dev/zero"], {}, ["a device, not a regular file"]),
    "record_with_zero_jobs": (lambda t: ["record", SCN, "--jobs", "0"], {}, ["--jobs", "at least 1"]),
    "record_with_zero_timeout": (lambda t: ["record", SCN, "--timeout", "0"], {}, ["--timeout", "above 0"]),
    "record_with_nan_timeout": (lambda t: ["record", SCN, "--timeout", "nan"], {}, ["--timeout"]),
    "limit_env_not_a_number": (lambda t: ["check", SCN], {"AGENT_LOOP_SIM_MAX_DEPTH": "deep"},
                               ["AGENT_LOOP_SIM_MAX_DEPTH='deep'"]),
    "limit_flag_zero": (lambda t: ["--max-sessions", "0", "check"], {}, ["--max-sessions"]),
}


@pytest.mark.parametrize("case", list(OTHER_CASES))
def test_odd_files_and_options_are_one_line(sandbox: Path, tmp_path: Path, case: str):
    make, env, words = OTHER_CASES[case]
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    done = cli(sandbox, tmp, *make(tmp_path), env=env, timeout=30)  # a FIFO that blocked would time out
    assert one_line_error(done, 2) is None, one_line_error(done, 2)
    for word in words:
        assert word in done.stderr, (word, done.stderr)
    assert leftovers(sandbox, tmp) == []
    TRIED.append(case)


# --- committed files tampered with -------------------------------------------------------------
def _edit(path: Path, change: Callable[[dict], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


TAMPER: dict[str, tuple[str, Callable[[Path], None], list[str]]] = {
    "recording_says_sdk_9_9_9": (REC, lambda p: _edit(p, lambda d: d["sdk"].update(version="9.9.9")),
                                 [REC, "$.sdk.version", "'9.9.9'"]),
    "recording_of_another_package": (REC, lambda p: _edit(p, lambda d: d["sdk"].update(package="mcp-fork")),
                                     [REC, "$.sdk.package"]),
    "recording_transport_changed": (REC, lambda p: _edit(p, lambda d: d.update(transport="streamable-http")),
                                    [REC, "$.transport", "'streamable-http'"]),
    "nan_literal_in_a_recording": (REC, lambda p: p.write_text(p.read_text().replace('"id": "c1"', '"id": NaN', 1)),
                                   [REC, "session 'legacy_tour'", "message 1", "NaN is not a JSON number", "$.sessions[0].messages[0].json.id"]),
    "recording_nested_100000_deep": (REC, lambda p: p.write_text(_nested(DEEP)), [REC, "nesting depth"]),
    "recording_name_shared_by_two_scenario_files": (
        "scenarios/mcp_more.json", lambda p: _edit(p, lambda d: d.update(recording="sdk_exchanges.json")),
        ["is also the recording of"]),
    "recording_replaced_by_a_fifo": (REC, lambda p: (p.unlink(), os.mkfifo(p)), [REC, "a FIFO"]),
}


@pytest.mark.parametrize("case", list(TAMPER))
def test_tampered_committed_file_is_one_line(sandbox: Path, tmp_path: Path, case: str):
    rel, tamper, words = TAMPER[case]
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    tamper(sandbox / rel)
    try:
        done = cli(sandbox, tmp, "check", timeout=60)
        assert one_line_error(done, 2) is None, one_line_error(done, 2)
        for word in words:
            assert word in done.stderr, (word, done.stderr)
        assert leftovers(sandbox, tmp, edited=(rel,)) == []
    finally:
        (sandbox / rel).unlink()
        subprocess.run(["git", "checkout", "--", rel], cwd=sandbox, check=True)
    assert git_status(sandbox) == []
    TRIED.append(case)


# --- signals during record: one line, nothing half-written, nothing left running ---------------
def _as_in_a_terminal() -> None:
    """In the child before it starts: SIGINT at its default, as a shell starts a foreground command.
    A test run started in the background by a non-interactive shell (``make test &``,
    ``nohup ... &``) has SIGINT ignored (POSIX asks that of such a shell), every process it starts
    inherits that, and Python keeps an inherited SIGINT ignored: that `record` exits 0 and writes
    its file, as the clean-clone runs that "lost" Ctrl-C did."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_cli(root: Path, tmp: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "agent_loop_sim", *args], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(tmp), **(env or {})},
                            preexec_fn=_as_in_a_terminal)


def _handles(pid: int, *signals: int) -> bool:
    """Whether process ``pid`` has a handler of its own for each of ``signals`` (``SigCgt`` in /proc):
    for the CLI, that its Python is up and `main` has installed its SIGTERM handler."""
    status = Path(f"/proc/{pid}/status").read_text()
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return all(caught >> (sig - 1) & 1 for sig in signals)


def _start_record(root: Path, tmp: Path) -> subprocess.Popen[str]:
    process = _start_cli(root, tmp, "record", "scenarios/mcp_more.json", "--release", "2.3.0", "--jobs", "1")
    # The recorder forks its fork server (the zygote) once the SDK is imported: two processes of
    # this run with the recorder's command line (more while the zygote's servers run).
    started = wait_until(lambda: process.poll() is not None
                         or sum("record_sdk" in p for p in processes_of_run(tmp)) >= 2, 60)
    if not started:
        _kill_if_running(process)
        raise AssertionError("the recorder's fork server never started")
    time.sleep(0.5)  # sessions under way
    return process


def _signal_and_wait(process: subprocess.Popen[str], sig: int, seconds: float) -> subprocess.CompletedProcess[str]:
    """Send ``sig`` to the CLI's pid alone and wait up to ``seconds`` for it to end; a CLI that
    does not end is killed (the kernel's parent-death signal takes its recorder with it), so it
    cannot pass for the next case's processes."""
    try:
        assert _handles(process.pid, sig, signal.SIGTERM), f"the CLI has no handler for {signal.Signals(sig).name} yet"
        process.send_signal(sig)
        out, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{signal.Signals(sig).name} did not end record within {seconds:g} s") from None
    finally:
        _kill_if_running(process)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _kill_if_running(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
        process.communicate()


SIGNALS = [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")]


def _ended_in_one_line(done, code: int, word: str, sandbox: Path, tmp: Path) -> None:
    """A signalled recording: one line naming the signal, its exit code, nothing written, nothing left."""
    assert one_line_error(done, code) is None, one_line_error(done, code)
    assert word in done.stderr and "nothing was half-written" in done.stderr
    assert done.stdout == ""
    assert leftovers(sandbox, tmp) == []


@pytest.mark.parametrize("sig,code,word", SIGNALS)
def test_signal_during_record_is_one_line_and_leaves_nothing(sandbox: Path, tmp_path: Path, sig, code, word):
    """The real fixture: 130 sessions of mcp_more.json, one at a time; the signal goes to a
    recording that is still running."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    for _ in range(3):  # the recording can end before the signal is sent (130 sessions take seconds): again
        process = _start_record(sandbox, tmp)
        if process.poll() is None:
            break
        process.communicate(timeout=30)
    assert process.poll() is None, "three recordings in a row ended before the signal could be sent"
    done = _signal_and_wait(process, sig, 30)
    _ended_in_one_line(done, code, word, sandbox, tmp)
    TRIED.append(f"{signal.Signals(sig).name.lower()}_during_record")


HANGS = f"{sys.executable} {ROOT / 'tests' / 'fakes' / 'mcp_server_hangs.py'}"


def _reached_its_server(tmp: Path) -> bool:
    """Whether a session of the run in ``tmp`` has passed a line to its server: stdio_tee.py logs
    the client's first line (its initialize) in the session's folder as it passes it on."""
    for log in tmp.glob("agent-loop-sim-record-*/record-sdk-*/wire.jsonl"):
        try:
            if '"client"' in log.read_text():
                return True
        except OSError:  # the session's folder went meanwhile
            pass
    return False


@pytest.mark.parametrize("sig,code,word", SIGNALS)
def test_signal_while_the_server_never_answers(sandbox: Path, tmp_path: Path, sig, code, word):
    """A session waits on a server that never answers, with 120 s to go before its timeout: the
    signal is certain to reach a recording under way, and must end it all within seconds."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    process = _start_cli(sandbox, tmp, "record", "scenarios/mcp_hostile.json", "--release", "2.3.0",
                         "--timeout", "120", env={"AGENT_LOOP_SIM_MCP_SERVER": HANGS})
    if not wait_until(lambda: _reached_its_server(tmp), 60):
        _kill_if_running(process)
        raise AssertionError("no session of the recording reached its server")
    done = _signal_and_wait(process, sig, 15)
    _ended_in_one_line(done, code, word, sandbox, tmp)
    TRIED.append(f"{signal.Signals(sig).name.lower()}_while_the_server_never_answers")


# The CLI run as `python -m agent_loop_sim check` does, except that the process sends itself the
# signal as the CLI's own modules start importing (`from .cli import main`): the moment is certain.
_SIGNAL_WHILE_STARTING = """
import builtins, os, runpy, sys
real_import = builtins.__import__
def importing(name, globals=None, locals=None, fromlist=(), level=0):
    if name == "cli" and level == 1:
        os.kill(os.getpid(), {sig})
    return real_import(name, globals, locals, fromlist, level)
builtins.__import__ = importing
sys.argv = ["agent_loop_sim", "check"]
runpy.run_module("agent_loop_sim", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("sig,code,word", SIGNALS)
def test_signal_while_the_cli_starts_is_one_line(sandbox: Path, tmp_path: Path, sig, code, word):
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    done = subprocess.run([sys.executable, "-c", _SIGNAL_WHILE_STARTING.format(sig=int(sig))], cwd=sandbox,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "TMPDIR": str(tmp)},
                          preexec_fn=_as_in_a_terminal)
    assert one_line_error(done, code) is None, one_line_error(done, code)
    assert done.stderr == f"{word}: stopped while starting; nothing was written\n" and done.stdout == ""
    assert leftovers(sandbox, tmp) == []
    TRIED.append(f"{signal.Signals(sig).name.lower()}_while_starting")


HANGING_AGENT = f"{ROOT / 'tests' / 'fakes' / 'a2a_agent_hangs.py'}:HangingAgent"


@pytest.mark.parametrize("sig,code,word", SIGNALS)
def test_signal_while_the_a2a_agent_never_answers(sandbox: Path, tmp_path: Path, sig, code, word):
    """The A2A recorder's sessions wait on an agent executor that never returns, with 120 s to go
    before their timeout: the signal ends the recording within seconds, as with MCP's server."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    process = _start_cli(sandbox, tmp, "record", "scenarios/a2a.json", "--release", "1.2.2", "--timeout", "120",
                         env={"AGENT_LOOP_SIM_A2A_AGENT": HANGING_AGENT})
    if not wait_until(lambda: any(tmp.rglob("a2a-agent-entered")), 60):
        _kill_if_running(process)
        raise AssertionError("no session of the recording reached the agent")
    done = _signal_and_wait(process, sig, 15)
    _ended_in_one_line(done, code, word, sandbox, tmp)
    TRIED.append(f"{signal.Signals(sig).name.lower()}_while_the_a2a_agent_never_answers")


def test_sigkill_to_record_leaves_no_orphan(sandbox: Path, tmp_path: Path):
    """The owner cannot clean up after SIGKILL: its children learn from the kernel that it died."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    process = _start_record(sandbox, tmp)
    process.kill()
    process.communicate(timeout=30)
    assert leftovers(sandbox, tmp) == []
    TRIED.append("sigkill_to_record")


def test_a_group_of_zombies_has_ended():
    """How `end_group` knows a group is gone: a zombie (ended, not yet reaped) has ended, though the
    kernel still counts it in its group (``killpg(pgid, 0)`` succeeds), so no grace is waited for it."""
    from agent_loop_sim.processes import group_running

    def state(pid: int) -> str:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]

    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        assert group_running(process.pid)
        os.kill(process.pid, signal.SIGKILL)
        assert wait_until(lambda: state(process.pid) == "Z", 10)
        os.killpg(process.pid, 0)  # still a member, for the kernel
        assert not group_running(process.pid)
    finally:
        process.kill()
        process.wait()
    assert not group_running(process.pid)


def test_a_stale_write_temp_is_ignored_and_removed_by_record(sandbox: Path, tmp_path: Path):
    """SIGKILL inside write_atomic leaves ``recordings/.NAME.XXXX.tmp``: git ignores it, and the
    next ``record`` removes it (once it is older than any live writer's)."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    stale = sandbox / "recordings" / ".sdk_exchanges.json.abc123.tmp"
    stale.write_text("{half")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    assert [line for line in git_status(sandbox) if not line.startswith("!!")] == []
    done = cli(sandbox, tmp, "record", "scenarios/mcp_hostile.json", "--release", "2.3.0", timeout=120)
    assert done.returncode == 0, done.stderr
    assert not stale.exists()
    assert leftovers(sandbox, tmp) == []
    TRIED.append("stale_write_temp")


# --- the recorder's own failures ------------------------------------------------------------------
def test_a_recorder_error_of_several_lines_keeps_the_session(sandbox: Path, tmp_path: Path):
    """pydantic's errors span lines ("... For further information visit ..."); the line shown
    must still be the recorder's own, naming the session."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from recorder_cli import recorder_main

    from agent_loop_sim.errors import RecorderError

    def record(sessions, timeout, jobs):
        raise RecorderError("session 'legacy_tour': the SDK raised ValidationError: 1 validation error for X\n"
                            "content\n  Field required\n    For further information visit https://errors.pydantic.dev")

    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = recorder_main(prog="record_sdk", family="mcp", package="mcp", transport="stdio", record=record,
                             description="", argv=[str(ROOT / SCN)])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # recorder_main installed its owner-gone handler
    assert code == 1
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and "session 'legacy_tour'" in lines[0] and "For further information" in lines[0]
    from agent_loop_sim.live import _recorder_said
    said = _recorder_said(lines[0] + "\nsome warning printed after it\n", "record_sdk", 1)
    assert "session 'legacy_tour'" in said
    TRIED.append("multi_line_recorder_error")


def test_a_failing_recorder_leaves_nothing(sandbox: Path, tmp_path: Path):
    """A server that hangs: the recorder times out and fails, naming the session; its fork server,
    tee and the hanging server go, and the temp folders with them."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    hang = f"{sys.executable} {ROOT / 'tests' / 'fakes' / 'mcp_server_hangs.py'}"
    done = cli(sandbox, tmp, "record", "scenarios/mcp_hostile.json", "--release", "2.3.0", "--timeout", "2",
               env={"AGENT_LOOP_SIM_MCP_SERVER": hang}, timeout=120)
    assert one_line_error(done, 1) is None, one_line_error(done, 1)
    assert "session '" in done.stderr
    assert leftovers(sandbox, tmp) == []
    TRIED.append("hanging_server")


# --- two writers, one file (item 7) -----------------------------------------------------------------
def test_two_writers_of_one_file_never_clash(tmp_path: Path):
    from agent_loop_sim.jsonio import write_atomic

    target = tmp_path / "X.md"
    errors: list[BaseException] = []

    def writer(text: str) -> None:
        try:
            for _ in range(200):
                write_atomic(target, text)
        except BaseException as exc:  # noqa: BLE001 - any failure is the finding
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(t,)) for t in ("a" * 5000, "b" * 5000)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert target.read_text() in ("a" * 5000, "b" * 5000)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["X.md"]
    TRIED.append("two_writers_one_file")


# --- the swapped engine -------------------------------------------------------------------------
def test_strict_build_refuses_another_engine_unless_meant(tmp_path: Path):
    from agent_loop_sim.site.pages import engine_note

    refused = engine_note.refusal("test_site_fakes:replay_snapshot", strict=True, allow=None)
    assert refused and "AGENT_LOOP_SIM_ALLOW_OTHER_ENGINE=1" in refused
    assert engine_note.refusal("test_site_fakes:replay_snapshot", strict=True, allow="1") is None
    assert engine_note.refusal("test_site_fakes:replay_snapshot", strict=False, allow=None) is None
    assert engine_note.refusal("", strict=True, allow=None) is None
    # the real strict build, which stops at the refusal before rendering anything
    env = {**os.environ, "AGENT_LOOP_SIM_ENGINE": "test_site_fakes:replay_snapshot", "NO_MKDOCS_2_WARNING": "1",
           "TMPDIR": str(tmp_path)}
    done = subprocess.run([str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 1
    assert "is not the project's engine" in done.stderr and not (tmp_path / "site").exists()
    TRIED.append("swapped_engine_strict_build")


def test_a_report_says_which_engine_and_the_overview_too():
    from agent_loop_sim.check import PROJECT_ENGINE, build_report, engine_name
    from agent_loop_sim.project import Project
    from agent_loop_sim.site.pages.engine_note import with_overview_note

    project = Project(ROOT)
    files = project.scenario_files([SCN])
    own = build_report(project, files=files)
    assert own.engine == PROJECT_ENGINE and with_overview_note("# C\n\nbody", own) == "# C\n\nbody"

    from agent_loop_sim import engine

    def replaying(session):
        return engine.run_session(session)

    other = build_report(project, replaying, files=files)
    assert other.engine == engine_name(replaying) != PROJECT_ENGINE
    page = with_overview_note("# C\n\nbody", other)
    assert "Not the project's engine" in page and "test_faults" in page
    TRIED.append("engine_named_in_report_and_overview")


# --- the count, and controls showing the checks can fail ----------------------------------------
def test_the_fault_checks_can_fail(sandbox: Path, tmp_path: Path):
    """Each check above fires on what it looks for, so a pass is not vacuous."""
    bad = subprocess.CompletedProcess([], 1, "", "Traceback (most recent call last):\n  ...\nTypeError: x\n")
    assert one_line_error(bad, 2) is not None
    assert one_line_error(subprocess.CompletedProcess([], 2, "", "error: a\nb\n"), 2) is not None
    assert one_line_error(subprocess.CompletedProcess([], 2, "", "error: a\n"), 2) is None
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    (tmp / "record-sdk-x").mkdir()
    (sandbox / "recordings" / "stray.json").write_text("{}")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", str(sandbox)])
    try:
        found = leftovers(sandbox, tmp)
    finally:
        sleeper.kill()
        sleeper.wait()
        (sandbox / "recordings" / "stray.json").unlink()
    assert any(f.startswith("TMPDIR") for f in found)
    assert any("stray.json" in f for f in found)
    assert any(f.startswith("process") for f in found)
    # and the old behaviour the fixes replaced: an op that is a list made the validator hash it
    assert one_line_error(subprocess.CompletedProcess([], 1, "", "TypeError: unhashable type: 'list'\n"), 2)


#: the tests of this module that try no fault case of their own
NOT_A_CASE = {"test_a_group_of_zombies_has_ended", "test_the_fault_checks_can_fail", "test_count"}


def test_count(request, capsys):
    """Run last: every fault case this run selected was answered as it should be, each once, and
    there are no more of them than counted (a new case is counted in ``total``)."""
    total = len(CASES) + len(OTHER_CASES) + len(TAMPER) + 15
    selected = [item for item in request.session.items
                if item.path == request.node.path and item.originalname not in NOT_A_CASE]
    with capsys.disabled():
        print(f"\nfault injection: {len(TRIED)} of {total} cases answered as they should "
              f"(one line, the right exit status, nothing left behind)")
    assert len(set(TRIED)) == len(TRIED), "a case was counted twice"
    assert len(TRIED) == len(selected), f"{len(selected) - len(TRIED)} of the cases run were not answered as they should"
    assert len(selected) <= total, f"{len(selected)} cases, {total} counted: count the new ones in total"
