from __future__ import annotations

import gc
import weakref

from agent_loop_sim import collector


class _Node:
    pass


def test_the_collector_is_paused_and_resumed_as_it_was():
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused(long_lived=True):
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause leaves the outer one in force
    assert gc.isenabled()
    gc.disable()
    try:
        with collector.paused(long_lived=True):
            pass
        assert not gc.isenabled()  # not resumed when it was not running
    finally:
        gc.enable()


def test_cycles_made_while_paused_are_still_collected():
    with collector.paused(long_lived=True):
        node = _Node()
        node.self = node  # a cycle: only the collector frees it
        alive = weakref.ref(node)
        del node
    assert alive() is not None
    gc.collect()
    assert alive() is None
    assert gc.get_freeze_count() == 0  # nothing left frozen
