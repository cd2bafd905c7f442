"""The cyclic garbage collector, paused while the engine or the check builds many small JSON trees.

Why: a session's messages and a report's recordings are hundreds of thousands of small dicts and
lists, kept alive until the work is done; the collector would walk them over and over (a third
of the check's time, a tenth of the engine's) to find them all alive, as plain JSON trees are:
they hold no cycles, and reference counting frees them. What little cyclic garbage the models
leave is collected as usual once the collector runs again. Paused only if it was running, and
resumed only then, so that nested pauses leave it as they found it.
"""
from __future__ import annotations

import gc
from types import TracebackType


class paused:  # noqa: N801 (used as a function: ``with collector.paused():``)
    """The collector paused for the block. ``long_lived``: what the block made is handed to the
    caller to keep (a report: every recording and transcript); rather than walk it all at the
    first allocation after the pause (the youngest generation then holds all of it: a tenth of
    the check's time), move it to the oldest generation unwalked (``gc.freeze`` + ``unfreeze``),
    where the next full collection looks at it as at everything else. Not done when someone
    else has frozen objects: ``unfreeze`` would release theirs too.

    A class rather than a ``contextlib.contextmanager`` generator: the engine pauses it for every
    session it plays, and the generator's machinery cost more than the pause itself."""

    __slots__ = ("long_lived", "enabled")

    def __init__(self, long_lived: bool = False) -> None:
        self.long_lived = long_lived
        self.enabled = False

    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self.enabled:
            if self.long_lived and gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
