# SPDX-License-Identifier: Apache-2.0
"""Ctrl+C during a long host call: KeyboardInterrupt within a fraction of a second, the library
asked to stop (where it can), and every call after it working."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import tessera
from tessera import _interrupt, _lib
from conftest import random_image
from reference import correlate

BIG = 1 << 30  # samples: large enough for the worker


@pytest.fixture
def ctrl_c():
    """sigint(after) sends SIGINT to this process `after` seconds from now, from a timer thread,
    and returns a dict that gets the time it was sent; Python's own SIGINT handler meanwhile."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timers = []

    def sigint(after):
        sent = {}

        def send():
            sent["at"] = time.perf_counter()
            os.kill(os.getpid(), signal.SIGINT)

        timer = threading.Timer(after, send)
        timers.append(timer)
        timer.start()
        return sent

    yield sigint
    for timer in timers:
        timer.cancel()
    signal.signal(signal.SIGINT, previous)


def long_call(rng, seconds=3.0):
    """An image and a chain that take about `seconds` (at least 2 s) on the CPU of this machine:
    a 31x31 kernel on 3000 x R RGBA float32 rows, R measured on 512 rows first."""
    kernel = rng.random((31, 31))
    width = 3000
    probe = np.zeros((512, width, 4), np.float32)
    tessera.apply(probe, kernel=kernel, device="cpu")  # planned and warm
    start = time.perf_counter()
    tessera.apply(probe, kernel=kernel, device="cpu")
    per_row = (time.perf_counter() - start) / 512
    rows = min(6000, max(512, int(seconds / per_row)))
    steps = max(1, int(np.ceil(seconds / (per_row * rows))))
    chain = tessera.Chain([tessera.Filter(kernel=kernel)] * steps)
    return np.zeros((rows, width, 4), np.float32), chain, per_row * rows * steps


def test_ctrl_c_stops_a_long_host_call(rng, ctrl_c):
    image, chain, expected_seconds = long_call(rng)
    assert expected_seconds > 2.0
    start = time.perf_counter()
    sent = ctrl_c(0.3)
    with pytest.raises(KeyboardInterrupt):
        tessera.apply(image, chain, device="cpu")
    raised = time.perf_counter()
    assert "at" in sent, "the call returned before the signal was sent"
    assert raised - sent["at"] < 1.0, f"KeyboardInterrupt {raised - sent['at']:.3f} s after the signal"
    assert raised - start < expected_seconds / 2

    # The library works: at once (with a call given up on, still finishing in the background when
    # the library cannot stop it), through the worker again, and once that call has returned.
    small = random_image(rng, (20, 23, 3), np.uint8)
    kernel = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]]) / 5.5
    expected = correlate(small, kernel)
    assert np.abs(tessera.apply(small, kernel=kernel, device="cpu").astype(int) - expected).max() <= 1
    large = random_image(rng, (1024, 1100), np.float32)
    through_worker = tessera.apply(large, "box", size=5, device="cpu")
    assert "1100 x 1024" in tessera.last_run().plan  # the worker's run report is this thread's
    elsewhere = {}
    thread = threading.Thread(target=lambda: elsewhere.update(r=tessera.apply(large, "box", size=5, device="cpu")))
    thread.start()
    thread.join()
    np.testing.assert_array_equal(through_worker, elsewhere["r"])
    assert _interrupt.wait_for_abandoned(120)
    assert np.abs(tessera.apply(small, kernel=kernel, device="cpu").astype(int) - expected).max() <= 1


def test_the_library_is_asked_to_stop(monkeypatch, ctrl_c):
    stops = []
    stopped = threading.Event()

    def stop():
        stops.append(time.perf_counter())
        stopped.set()

    def host_call():  # returns as a host call of the library does when asked to stop
        if stopped.wait(20):
            raise tessera.TesseraError("interrupted")
        return 0

    monkeypatch.setattr(_interrupt, "_stop", stop)
    sent = ctrl_c(0.3)
    with pytest.raises(KeyboardInterrupt):
        _interrupt.call(host_call, samples=BIG)
    assert len(stops) == 1 and stops[0] - sent["at"] < 0.5
    # the call returned in time: nothing was left behind, and the worker is used again
    assert _interrupt.wait_for_abandoned(0)
    worker = _interrupt._worker
    assert worker is not None and _interrupt.call(lambda: threading.current_thread(), samples=BIG) is worker.thread


def test_without_a_stop_the_call_finishes_in_the_background(monkeypatch, ctrl_c):
    monkeypatch.setattr(_interrupt, "_stop", None)
    release = threading.Event()
    finished = threading.Event()
    kept = np.zeros(4)

    def host_call(array):
        release.wait(20)
        array[:] = 7  # what the call points into is still alive when it gets here
        finished.set()

    ctrl_c(0.3)
    with pytest.raises(KeyboardInterrupt):
        _interrupt.call(host_call, kept, samples=BIG, keep=kept)
    assert not finished.is_set()
    assert _interrupt.call(lambda: 5, samples=BIG) == 5  # a new worker meanwhile
    release.set()
    assert _interrupt.wait_for_abandoned(20) and finished.is_set() and (kept == 7).all()


def test_where_calls_run():
    main = threading.current_thread()
    assert _interrupt.call(threading.current_thread, samples=BIG).name == "tessera-host-call"
    assert _interrupt.call(threading.current_thread, samples=100) is main
    seen = {}
    thread = threading.Thread(target=lambda: seen.update(t=_interrupt.call(threading.current_thread, samples=BIG)))
    thread.start()
    thread.join()
    assert seen["t"] is thread


def test_errors_come_back_from_the_worker():
    def fails():
        raise ValueError("from the worker")

    with pytest.raises(ValueError, match="from the worker"):
        _interrupt.call(fails, samples=BIG)
    with pytest.raises(ValueError, match="outside 1..255"):
        tessera.apply(np.zeros((1024, 1024), np.float32), "box", size=1000)
    assert _interrupt.call(lambda a, b: a + b, 2, 3, samples=BIG) == 5


def test_stop_is_found_when_the_library_has_it():
    has = True
    try:
        _lib._lib["tessera_interrupt"]
    except AttributeError:
        has = False
    assert _interrupt.can_stop_calls() == (has or callable(getattr(_lib, "interrupt", None)))
