"""One owner for the recorders' processes: a process group, one temporary folder, both removed whole.

`run_owned` starts a recorder in a new session (so it and every process it starts share one
process group), with ``TMPDIR`` pointing at a fresh folder of its own; however the run ends
(success, error, Ctrl-C, SIGTERM) the whole group is killed and the folder removed. Should the
owner itself be killed with SIGKILL, nothing of it can run: `die_with_parent` makes the kernel
send each child SIGTERM when its parent dies, and the recorder's `on_owner_gone` then ends its
group and removes the folder. The SDK's stdio client starts its server in a session of its own,
so ``stdio_tee.py`` calls `die_with_parent` itself (``stdio_connect.py`` ends with its server's
connection). A terminal's Ctrl-C reaches the owner alone (the recorder's session is not the
terminal's foreground group): the owner's KeyboardInterrupt is what ends the group.
"""
from __future__ import annotations

import ctypes
import os
import signal
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

# shutil, subprocess and tempfile are imported where they are used: the process the SDK's stdio
# transport starts for every recorded session (scripts/stdio_connect.py) imports this module
# for `die_with_parent` and `unix_address` alone, and they would double its start-up.

OWNED_TMP = "AGENT_LOOP_SIM_OWNED_TMP"  # the folder the owner made for a recorder (its TMPDIR)
_PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Ask the kernel (Linux ``prctl``) to send ``sig`` to this process when its parent dies;
    a no-op where there is no ``prctl``. If the parent is already gone, end now."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os.kill(os.getpid(), sig)


def end_group(pgid: int, grace: float = 2.0) -> None:
    """SIGTERM to every process of group ``pgid``, then SIGKILL to whatever is still running."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            return
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            if not group_running(pgid):
                return
            time.sleep(0.02)


def group_running(pgid: int) -> bool:
    """Whether a process of group ``pgid`` is still running. A zombie is not: it has ended and
    waits only to be reaped (the recorder, until `run_owned` waits for it; an orphan, until the
    init process gets to it, which took 2 s here), yet the kernel still counts it in its group.
    The standard library cannot tell a zombie apart; Linux's /proc can (elsewhere, any member counts)."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return True
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                state, _, group = stat.read().rsplit(b")", 1)[1].split()[:3]  # after the command's name
        except (OSError, ValueError):
            continue  # ended meanwhile
        if int(group) == pgid and state not in (b"Z", b"X"):
            return True
    return False


@contextmanager
def signals_held(*signals: int) -> Iterator[None]:
    """Hold ``signals`` back for the block (the kernel keeps them pending); one that came is
    handled as the block ends, in the main thread as usual."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def run_owned(command: Sequence[str], *, cwd: str | os.PathLike[str], env: dict[str, str] | None = None,
              prefix: str = "agent-loop-sim-record-",
              running: set[int] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``command`` as the leader of a new process group with a temporary folder of its own;
    its output is captured. Nothing of it outlives this call. The group is in ``running`` while
    it runs (for a caller that runs several at once from threads: the main thread ends them)."""
    import shutil
    import subprocess
    import tempfile

    folder = tempfile.mkdtemp(prefix=prefix)
    child_env = dict(os.environ if env is None else env)
    child_env.update(TMPDIR=folder, **{OWNED_TMP: folder})
    try:
        process = subprocess.Popen(list(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   cwd=cwd, env=child_env, start_new_session=True, preexec_fn=_owned_child)
        if running is not None:
            running.add(process.pid)
        try:
            out, err = process.communicate()
        finally:
            with signals_held(signal.SIGINT, signal.SIGTERM):  # a second Ctrl-C cannot cut this short
                end_group(process.pid)
                process.wait()
                if running is not None:
                    running.discard(process.pid)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return subprocess.CompletedProcess(list(command), process.returncode, out, err)


def _owned_child() -> None:
    """`run_owned`'s child, before its command starts: it ends with its owner (`die_with_parent`),
    and SIGTERM is held back (the mask outlives exec) until the command says what it does on it:
    `on_owner_gone` lets it through. A recorder whose owner was killed while it was still starting
    (importing the SDK, under load for seconds) removes its folder as one whose owner went later."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    die_with_parent()


def on_owner_gone() -> None:
    """In a recorder: when the owner goes (SIGTERM from `die_with_parent`, or sent to the group),
    end the rest of the group, remove the owner's folder and exit with 143, the shell's code for
    SIGTERM."""
    import shutil

    def handler(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if os.getpgrp() == os.getpid():  # only a group of our own (run_owned's), never the caller's
            try:
                os.killpg(os.getpgrp(), signal.SIGTERM)  # the fork server and its servers; not this one
            except OSError:
                pass
            time.sleep(0.1)
        folder = os.environ.get(OWNED_TMP)
        if folder and os.path.basename(folder).startswith("agent-loop-sim-"):
            shutil.rmtree(folder, ignore_errors=True)
        os._exit(128 + signum)
    signal.signal(signal.SIGTERM, handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})  # one held back by `_owned_child` comes now


def unix_address(name: str) -> str:
    """The address to bind or connect a Unix socket named ``name``: ``@NAME`` is Linux's abstract
    namespace (no file to leave behind, no length limit from a long ``TMPDIR``), anything else a path."""
    return "\0" + name[1:] if name.startswith("@") else name


def abstract_socket_name(prefix: str) -> str:
    """A fresh ``@NAME`` for `unix_address`, unique to this process."""
    import secrets

    return f"@{prefix}-{os.getpid()}-{secrets.token_hex(6)}"
