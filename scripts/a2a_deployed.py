"""The SDK's agent served as people deploy it: uvicorn, one event loop, a real socket.

Under uvicorn every request runs on the same event loop, so what the agent's executor starts
in the background (the SDK's active task) outlives the request that started it, and what a
later request sees depends on how far that work got. To keep recordings deterministic the
recorder calls :meth:`ServedAgent.wait_idle` before each request: it returns once, three
wake-ups in a row, no HTTP request is being answered, nothing is ready to run, and no timer is
pending but the server's own (uvicorn's tick and keep-alive, sse-starlette's shutdown watcher),
i.e. the agent has done everything it can do without another request.

The loop's internals (``_ready``, ``_scheduled``) are CPython's ``asyncio`` selector loop's;
the server is started with ``loop="asyncio"`` so that it is that loop.
"""
from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import uvicorn

#: Wake-ups in a row the loop must look idle on before the next request is sent.
QUIET_WAKE_UPS = 3
#: Where a timer that belongs to the server (not to the agent) is defined.
SERVER_MODULES = ("uvicorn.", "sse_starlette.")


class NeverIdle(Exception):
    """The agent kept working (or waiting on a timer of its own) past the deadline."""


def _coroutine_modules(task: asyncio.Task) -> list[str]:
    """The modules of every coroutine in ``task``'s await chain, outermost first."""
    out, coro = [], task.get_coro()
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "ag_frame", None)
        if frame is not None:
            out.append(frame.f_globals.get("__name__", ""))
        coro = getattr(coro, "cr_await", None)
    return out


def _timer_owner(handle: asyncio.TimerHandle) -> str:
    """The module a pending timer belongs to: its callback's object, or the task a sleep wakes."""
    callback, args = handle._callback, handle._args  # noqa: SLF001 - CPython's TimerHandle
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.BaseTransport):  # uvicorn's keep-alive may close the transport itself
        return "uvicorn.transport"
    if owner is not None and not isinstance(owner, asyncio.Future):
        return type(owner).__module__ + "."
    for arg in args or ():  # asyncio.sleep: the timer completes a future a task waits on
        if isinstance(arg, asyncio.Future):
            for waiter, _ in getattr(arg, "_callbacks", None) or ():
                task = getattr(waiter, "__self__", None)
                if isinstance(task, asyncio.Task):
                    return next(iter(_coroutine_modules(task)), "") + "."
    return getattr(callback, "__module__", "") or repr(callback)


class ServedAgent:
    """``app`` served by uvicorn on one event loop in a thread of its own, at :attr:`url`."""

    def __init__(self, app: Any) -> None:
        self.in_flight = 0

        async def counted(scope: dict, receive: Any, send: Any) -> None:
            # A request is in flight until the app returns (a stream: until it has seen the hang-up).
            self.in_flight += 1
            try:
                await app(scope, receive, send)
            finally:
                self.in_flight -= 1

        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = "http://127.0.0.1:%d" % self.listener.getsockname()[1]
        config = uvicorn.Config(counted, loop="asyncio", lifespan="off", log_level="critical", access_log=False,
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="uvicorn", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.001)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve(sockets=[self.listener]))

    def _busy(self) -> str | None:
        """What keeps the agent from being idle now (called on the loop), or None."""
        if self.in_flight:
            return f"{self.in_flight} request(s) being answered"
        if self.loop._ready:  # noqa: SLF001 - callbacks ready to run in this turn of the loop
            return f"{len(self.loop._ready)} callback(s) ready to run"  # noqa: SLF001
        for handle in self.loop._scheduled:  # noqa: SLF001
            if handle.cancelled():
                continue  # (left in the heap until its time comes; it will not run)
            owner = _timer_owner(handle)
            if not owner.startswith(SERVER_MODULES):
                return f"a timer of {owner.rstrip('.')} is pending"
        return None

    async def _until_idle(self, timeout: float) -> None:
        deadline, quiet, busy = self.loop.time() + timeout, 0, None
        while quiet < QUIET_WAKE_UPS:
            await asyncio.sleep(0)
            busy = self._busy()
            quiet = 0 if busy else quiet + 1
            if busy and self.loop.time() > deadline:
                raise NeverIdle(busy)
            if busy and not self.loop._ready:  # noqa: SLF001 - waiting on I/O or a timer: let the loop sleep
                await asyncio.sleep(0.001)

    def wait_idle(self, timeout: float = 10.0) -> None:
        """Return once the agent has nothing left to do; `NeverIdle` says what kept it busy."""
        asyncio.run_coroutine_threadsafe(self._until_idle(timeout), self.loop).result()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
