# SPDX-License-Identifier: Apache-2.0
"""Timing helpers of gpu_check.py: CUDA events on a CuPy stream or PyTorch's current stream,
and the host's own time per call."""

import statistics
import time

try:
    import cupy as cp
except ImportError:  # pragma: no cover
    cp = None
try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def events_ms(fn, stream, runs):
    times = []
    for _ in range(3):
        fn()
    for _ in range(runs):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(stream)
        fn()
        end.record(stream)
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    return statistics.median(times), min(times), max(times)


def queued_events_ms(fn, stream, runs):
    """tessera-bench's way: each of `runs` calls between two events on the stream, the calls
    queued back to back, one wait at the end; the median of the per-call times."""
    for _ in range(3):
        fn()
    pairs = []
    for _ in range(runs):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(stream)
        fn()
        end.record(stream)
        pairs.append((start, end))
    pairs[-1][1].synchronize()
    return statistics.median(cp.cuda.get_elapsed_time(a, b) for a, b in pairs)


def pipelined_ms(fn, stream, runs):
    """Mean per call of `runs` calls queued back to back between two events: the host's own
    time per call hides behind the GPU's when the GPU is the slower of the two."""
    fn()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record(stream)
    for _ in range(runs):
        fn()
    end.record(stream)
    end.synchronize()
    return cp.cuda.get_elapsed_time(start, end) / runs


def host_us(fn, runs):
    """Host microseconds per call (the Python and C overhead the GPU's time may hide)."""
    fn()
    cp.cuda.get_current_stream().synchronize()
    t0 = time.perf_counter()
    for _ in range(runs):
        fn()
    t1 = time.perf_counter()
    cp.cuda.get_current_stream().synchronize()
    return (t1 - t0) / runs * 1e6


def torch_ms(fn, runs):
    for _ in range(3):
        fn()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)
