# SPDX-License-Identifier: Apache-2.0
"""Ctrl+C during a long host call.

ctypes releases the GIL for the length of a call into the library, but Python runs its signal
handlers only in the main thread, between bytecodes: a SIGINT that arrives while the main thread
is inside a C call that filters a large image for ten seconds waits those ten seconds. So a long
host call made on the main thread runs in a worker thread instead, and the main thread waits for
it in short steps (POLL seconds), during which the handler runs and raises KeyboardInterrupt.

When the wait is interrupted, the library is asked to stop: ``tessera_interrupt()`` asks every
host call in progress to return early (with status 5, TESSERA_INTERRUPTED). Libraries without
that function are still interrupted promptly on the Python side; their call then runs to its end
in the background, and the arrays it reads and writes are kept alive until it does. Either way
the exception is re-raised in the caller.

Calls from other threads (which never receive KeyboardInterrupt) and calls on small images run
directly: a call through the worker costs about 15 µs more.
"""

from __future__ import annotations

import _thread
import ctypes
import queue
import threading
from typing import Any, Callable, List, Optional

from . import _lib, _report

# How long the waiting thread sleeps between checks for a signal. Lock waits are interrupted
# by signals on POSIX anyway; the bound matters where they are not.
POLL = 0.05
# How long an interrupted call may take to return once the library was asked to stop, before
# the caller gets its KeyboardInterrupt anyway (the call then ends in the background).
GRACE = 0.25
# Host calls on images of at least this many samples (width x height x channels) run in the
# worker. Smaller ones run directly: they are short unless the chain is very long, and the
# hand-over would cost them a larger share of their time.
MIN_SAMPLES = 1 << 20

_INTERRUPTED = 5  # TESSERA_INTERRUPTED


def _find_stop() -> Optional[Callable[[], Any]]:
    """The library's tessera_interrupt, or None when the loaded library has none. A Python
    wrapper in _lib (``_lib.interrupt``) is preferred when there is one."""
    wrapper = getattr(_lib, "interrupt", None)
    if callable(wrapper):
        return wrapper
    try:
        # Indexing makes a function object of our own: the attributes set here cannot clash
        # with the ones _lib may set on the library's shared one.
        function = _lib._lib["tessera_interrupt"]
    except (AttributeError, KeyError, TypeError):
        return None
    function.restype = ctypes.c_int
    function.argtypes = []
    return function


_stop = _find_stop()


def can_stop_calls() -> bool:
    """Whether the loaded library can stop a host call in progress (tessera_interrupt)."""
    return _stop is not None


def request_stop() -> bool:
    """Asks every host call in progress to stop; False when the library cannot."""
    stop = _stop
    if stop is None:
        return False
    try:
        stop()
    except Exception:  # a stop that fails must not hide the KeyboardInterrupt being raised
        return False
    return True


class _Job:
    __slots__ = ("function", "args", "keep", "done", "result", "error", "report")

    def __init__(self, function, args, keep, report):
        self.function = function
        self.args = args
        self.keep = keep  # the arrays and the plan the call uses: alive until it returns
        self.done = _thread.allocate_lock()
        self.done.acquire()
        self.result = None
        self.error = None
        self.report = report

    def run(self):
        try:
            self.result = self.function(*self.args)
            if self.report:
                # The library keeps the run report per calling thread: carry it to the caller's.
                self.report = (_lib.last_run(_lib.REPORT_JSON), _lib.last_run(_lib.REPORT_CHROME_TRACE))
        except BaseException as e:  # handed to the waiting thread
            self.error = e
        finally:
            self.keep = None
            self.done.release()


class _Worker:
    """One long-lived thread that runs the main thread's long host calls, one at a time."""

    def __init__(self):
        self.jobs = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, name="tessera-host-call", daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            job = self.jobs.get()
            if job is None:
                return
            job.run()
            del job


_worker: Optional[_Worker] = None
_busy = False


def _take_worker():
    global _worker
    if _worker is None or not _worker.thread.is_alive():  # none yet, or gone with a fork
        _worker = _Worker()
    return _worker


_abandoned: List[threading.Thread] = []  # workers still finishing a call given up on


def _abandon():
    """Leaves the worker to finish its call in the background; the next call gets a new one."""
    global _worker
    if _worker is not None:
        _worker.jobs.put(None)
        _abandoned[:] = [t for t in _abandoned if t.is_alive()] + [_worker.thread]
        _worker = None


def wait_for_abandoned(timeout: Optional[float] = None) -> bool:
    """Waits until the calls given up on have returned; whether they all have."""
    for thread in list(_abandoned):
        thread.join(timeout)
    _abandoned[:] = [t for t in _abandoned if t.is_alive()]
    return not _abandoned


def call(function: Callable[..., Any], *args: Any, samples: int = 0, keep: Any = None, run: bool = False) -> Any:
    """function(*args), made so that KeyboardInterrupt reaches the caller promptly.

    On the main thread and for images of at least MIN_SAMPLES samples, the call runs in the
    worker while this thread waits in steps of POLL seconds. If anything interrupts the wait
    (KeyboardInterrupt, or another exception a signal handler raises), the library is asked to
    stop (tessera_interrupt, where it exists), the call is given up to GRACE seconds to return,
    and the exception is re-raised. `keep` holds what the call's pointers point into: the worker
    keeps it alive until the call returns, even when the caller has moved on. `run`: the call is
    a run of the library whose report becomes the calling thread's last run (last_run()).
    """
    global _busy
    if samples < MIN_SAMPLES or _busy or threading.current_thread() is not threading.main_thread():
        result = function(*args)
        if run:
            _report.ran_here()
        return result
    job = _Job(function, args, keep, run)
    _busy = True
    try:
        _take_worker().jobs.put(job)
        while not job.done.acquire(timeout=POLL):
            pass
    except BaseException:
        _stop_after_interrupt(job)
        raise
    finally:
        _busy = False
    if job.error is not None:
        error, job.error = job.error, None
        raise error
    if run:
        _report.adopt(*job.report)
    return job.result


def _stop_after_interrupt(job):
    finished = False
    if request_stop():
        try:
            finished = job.done.acquire(timeout=GRACE)
        except BaseException:  # a second Ctrl+C: stop waiting
            finished = False
    if not finished:
        _abandon()
