# SPDX-License-Identifier: Apache-2.0
"""What a run did, as the library reports it: the same report for host and device images."""

import json
import os

from . import _lib


class RunReport:
    """The report of one apply() call.

    where
        "cpu", "gpu:0", "gpu:0,1": where the chain was asked to run.
    note
        What choosing the devices had to say ("" when nothing), e.g. that no GPU was found.
    placement
        "streamed" (host images, cut in tiles), "resident" or "device" (CuPy or PyTorch
        arrays on their own GPU, on the caller's stream).
    devices
        The devices that did work: "gpu:N", and "cpu" where the CPU path computed.
    methods, step_methods
        Per step of the chain: the plan's description, and its method ("direct",
        "separable", "fft"; "cpu" steps have no GPU plan and no entry).
    wall_ms, kernel_ms, host_ms
        Host wall time of the call, the longest GPU kernel record and the CPU path's time.
    fallback, fallback_policy, events
        Why (part of) the work went elsewhere than planned ("" when it did not), the policy
        the run was under, and faults and recoveries in order.
    records
        Every timing record (dicts: device, stream, tile, phase, label, begin_us, end_us,
        bytes, x, y, width, height). Device-array runs carry one kernel record per step, timed
        with CUDA events when set_step_timing(True) is on (zero-length otherwise).
    """

    _FIELDS = ("where", "note", "placement", "devices", "methods", "step_methods", "plan", "wall_ms", "kernel_ms",
               "host_ms", "fallback", "fallback_policy", "events", "retries", "tiles", "slots", "records")

    __slots__ = _FIELDS + ("_trace",)

    def __init__(self, doc, trace):
        for field in self._FIELDS:
            setattr(self, field, doc[field])
        self._trace = trace

    def as_dict(self):
        """The report as plain JSON-ready values."""
        return {field: getattr(self, field) for field in self._FIELDS}

    def chrome_trace(self):
        """The run's records as Chrome trace JSON text, as ``tessera-cli apply --trace`` writes it."""
        return self._trace

    def write_trace(self, path):
        """Writes chrome_trace() to path (for Perfetto or chrome://tracing); returns path."""
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(self._trace)
        return path

    def __str__(self):
        return self.where + (f"\n{self.note}" if self.note else "") + (f"\n{self.fallback}" if self.fallback else "")

    def __repr__(self):
        return (f"tessera.RunReport(where={self.where!r}, placement={self.placement!r}, devices={self.devices!r}, "
                f"step_methods={self.step_methods!r}, wall_ms={self.wall_ms:.3f})")


def last_run():
    text = _lib.last_run(_lib.REPORT_JSON)
    doc = json.loads(text)
    if doc is None:
        return None
    return RunReport(doc, _lib.last_run(_lib.REPORT_CHROME_TRACE))
