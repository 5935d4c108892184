# SPDX-License-Identifier: Apache-2.0
"""What a run did, as the library reports it: the same report for host and device images.

The library keeps the report per calling thread. A long host call that ran in the worker of
_interrupt.py on the main thread's behalf is adopted here, so the main thread's last_run() is
its own last call wherever that ran; the dtype conversion of the call, if any, is noted beside
it."""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Dict, List, Optional

from . import _lib

_local = threading.local()


def ran_here() -> None:
    """The calling thread's last run is the library's own report for this thread."""
    d = _local.__dict__
    if d:
        d.clear()


def adopt(json_text: str, trace_text: str) -> None:
    """The calling thread's last run is one a worker made for it (its report texts)."""
    _local.__dict__.clear()
    _local.adopted = (json_text, trace_text)


def note_conversion(text: str) -> None:
    """Says how the last run's image was converted (after the run itself was recorded)."""
    _local.conversion = text


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
    conversion
        "" when the image was filtered in its own dtype; otherwise how it was converted, e.g.
        "int16 -> float32, result rounded and saturated to int16" (see apply()). For a batch,
        the report is that of its last image.
    """

    _FIELDS = ("where", "note", "placement", "devices", "methods", "step_methods", "plan", "wall_ms", "kernel_ms",
               "host_ms", "fallback", "fallback_policy", "events", "retries", "tiles", "slots", "records")

    __slots__ = _FIELDS + ("conversion", "_trace")

    where: str
    note: str
    placement: str
    devices: List[str]
    methods: List[Any]
    step_methods: List[str]
    plan: str
    wall_ms: float
    kernel_ms: float
    host_ms: float
    fallback: str
    fallback_policy: str
    events: List[Any]
    retries: int
    tiles: int
    slots: List[Dict[str, Any]]
    records: List[Dict[str, Any]]
    conversion: str

    def __init__(self, doc: Dict[str, Any], trace: str, conversion: str = "") -> None:
        for field in self._FIELDS:
            setattr(self, field, doc[field])
        self.conversion = conversion
        self._trace = trace

    def as_dict(self) -> Dict[str, Any]:
        """The report as plain JSON-ready values."""
        d = {field: getattr(self, field) for field in self._FIELDS}
        d["conversion"] = self.conversion
        return d

    def chrome_trace(self) -> str:
        """The run's records as Chrome trace JSON text, as ``tessera-cli apply --trace`` writes it."""
        return self._trace

    def write_trace(self, path: "os.PathLike[str] | str") -> "os.PathLike[str] | str":
        """Writes chrome_trace() to path (for Perfetto or chrome://tracing); returns path."""
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(self._trace)
        return path

    def __str__(self) -> str:
        return self.where + (f"\n{self.note}" if self.note else "") + (f"\n{self.fallback}" if self.fallback else "")

    def __repr__(self) -> str:
        return (f"tessera.RunReport(where={self.where!r}, placement={self.placement!r}, devices={self.devices!r}, "
                f"step_methods={self.step_methods!r}, wall_ms={self.wall_ms:.3f})")


def last_run() -> Optional[RunReport]:
    d = _local.__dict__
    adopted = d.get("adopted")
    text = adopted[0] if adopted else _lib.last_run(_lib.REPORT_JSON)
    doc = json.loads(text)
    if doc is None:
        return None
    trace = adopted[1] if adopted else _lib.last_run(_lib.REPORT_CHROME_TRACE)
    return RunReport(doc, trace, d.get("conversion", ""))
