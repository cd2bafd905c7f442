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
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
