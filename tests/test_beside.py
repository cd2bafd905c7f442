"""Work beside the caller's (`agent_loop_sim.site.beside`): done in a forked child when it can be,
in this process when it cannot, and the site the same either way."""
from __future__ import annotations

import os
import threading

import pytest

from agent_loop_sim.project import Project
from agent_loop_sim.site import render_site
from agent_loop_sim.site.beside import Beside, can_fork
from test_site_fakes import ROOT

forking = pytest.mark.skipif(not can_fork(), reason="no second core, or not Linux: the work is done in line")


@forking
def test_the_work_is_done_in_a_child_and_its_result_comes_back():
    here = os.getpid()
    beside = Beside(lambda: {"pid": os.getpid(), "text": "é" * 100_000})
    result = beside.result()
    assert beside.forked and result["pid"] != here and result["text"] == "é" * 100_000


def test_not_wanted_it_is_done_here():
    beside = Beside(os.getpid, wanted=False)
    assert beside.result() == os.getpid() and not beside.forked


@forking
@pytest.mark.parametrize("child_only", [
    lambda: 1 / 0,  # it fails
    lambda: os._exit(3),  # it dies without a word
    lambda: (lambda: None),  # its result cannot be pickled
], ids=["fails", "dies", "unpicklable"])
def test_a_child_that_cannot_finish_leaves_the_work_to_this_process(child_only):
    here = os.getpid()
    beside = Beside(lambda: child_only() if os.getpid() != here else "done here")
    assert beside.result() == "done here" and not beside.forked


@forking
def test_an_error_of_the_work_is_raised_here_as_in_line():
    beside = Beside(lambda: {}["missing"])
    with pytest.raises(KeyError, match="missing"):
        beside.result()


def test_no_fork_while_another_thread_runs():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not can_fork()
        beside = Beside(os.getpid)
        assert beside.result() == os.getpid() and not beside.forked
    finally:
        stop.set()
        other.join()


@forking
def test_the_site_is_the_same_rendered_with_or_without_the_child():
    project = Project(ROOT)
    alone, beside = render_site(project, beside=False), render_site(project, beside=True)
    assert list(alone.pages) == list(beside.pages)  # (the same pages in the same order)
    assert alone.pages == beside.pages and alone.nav == beside.nav and alone.problems == beside.problems


@forking
def test_a_caller_that_fails_first_stops_the_child():
    with pytest.raises(RuntimeError, match="first half"):
        with Beside(lambda: threading.Event().wait(60)) as other:
            process = other.process
            raise RuntimeError("the first half failed")
    assert process.exitcode is not None and other.process is None  # (stopped and reaped, not left waiting)
