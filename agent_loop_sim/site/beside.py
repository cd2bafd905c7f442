"""A piece of work done in a second process beside the caller's own, when a core is free for it.

Why: MkDocs builds on one core, and so does the rendering of the site (``render_site``), which has
two halves that do not need each other: the session pages on one side; the other SDK releases
compared, the exports written and the reference pages made on the other. On a machine with two
cores or more, the second half runs in a child process forked for it while this process renders
the first, and its result (page texts and problems: strings) comes back pickled through a pipe.

`multiprocessing` (fork) does the process work: it flushes the standard streams before forking,
keeps the child off the parent's exit handlers and reaps it. Fork only, and only where it is
safe: on Linux, with no other thread running (a lock held by another thread would stay held in
the child) and with more than one core to run on. Otherwise, or when the child cannot finish
(it fails, it dies, its result cannot be pickled), the work is done here, in this process, so
the result and any error are exactly those of doing it in line.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")


def can_fork() -> bool:
    """Whether a forked child can do work beside this process: Linux, one thread, two cores."""
    return (sys.platform == "linux" and threading.active_count() == 1
            and len(os.sched_getaffinity(0)) > 1)


class Beside(Generic[T]):
    """``work()`` started in a forked child now (when ``wanted`` and `can_fork`); `result` waits
    for it. The work must not need to change this process: what it changes there is lost. Used
    as a context manager, so that a caller that fails before asking for the result stops the
    child rather than leave it waiting to be read::

        with Beside(lambda: other_half()) as other:
            first = first_half()
            second = other.result()
    """

    def __init__(self, work: Callable[[], T], wanted: bool = True) -> None:
        self.work = work
        self.process: Any = None
        self.forked = False  #: whether the result came from the child
        if wanted and can_fork():
            import multiprocessing  # (only here: the engine in the browser has no processes)

            context = multiprocessing.get_context("fork")
            try:
                self.receiving, sending = context.Pipe(duplex=False)
            except OSError:  # no pipe to be had (out of file descriptors): the work is done here
                return
            try:
                self.process = context.Process(target=_child, args=(work, sending, self.receiving), daemon=True)
                self.process.start()
            except OSError:  # no process to be had (limits): the work is done here
                self.process = None
                self.receiving.close()
            finally:
                sending.close()  # (the child holds its own end: the parent's reading ends when the child does)

    def __enter__(self) -> "Beside[T]":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cancel()

    def cancel(self) -> None:
        """Stop the child if it is still there (its result was not asked for). The reading end is
        closed first, so that a child blocked sending its result into the full pipe fails at once
        (EPIPE) rather than wait for a reader; and a child that outlives SIGTERM (it inherits the
        CLI's handler, which raises an exception it may catch) is killed after a grace period."""
        if self.process is not None:
            process, self.process = self.process, None
            self.receiving.close()
            process.terminate()
            process.join(5)
            if process.exitcode is None:
                process.kill()
                process.join()

    def result(self) -> T:
        if self.process is not None:
            process, self.process = self.process, None
            try:
                done, value = self.receiving.recv()
            except (EOFError, OSError):  # the child died without a word
                done, value = False, None
            finally:
                self.receiving.close()
                process.join()
            if done:
                self.forked = True
                return value
        return self.work()


def _child(work: Callable[[], Any], sending: Any, receiving: Any) -> None:
    receiving.close()  # (the fork's copy: with it open the pipe never lost its reader, see `cancel`)
    try:
        answer = (True, work())
    except BaseException:  # noqa: BLE001 - the parent does the work again and sees the error itself
        answer = (False, None)
    try:
        sending.send(answer)  # (pickled whole before a byte is sent)
    except Exception:  # noqa: BLE001 - a result that cannot be pickled: the parent does the work
        with contextlib.suppress(Exception):  # (and if the parent has stopped reading, nobody needs it)
            sending.send((False, None))
