# SPDX-License-Identifier: Apache-2.0
"""The one cache of planned calls, host and device.

The first call with a given filter, options and image geometry builds the chain's JSON and
plans it in one C call (the plan handle, the output depth and the scratch size come back
together). A later call with the same key runs the handle: one C call, no JSON, no option
structure. Keys are exact: floats by their bit patterns, every value with its type, kernels by
their float64 bytes, chains by their round-tripping JSON text; a value one bit apart gets a plan
of its own. What the key does not cover (pointers, row strides, the stream, overlap, which GPU
the memory is on) is checked on every call."""

import threading
from typing import Any, Dict

import numpy as np

from . import _args, _arrays, _device, _interrupt, _lib, _report

_LIMIT = 256
_lock = threading.Lock()
_plans: Dict[Any, "Prepared"] = {}
hits = 0  # calls that took a remembered plan (for the checks)
_kinds: Dict[type, str] = {}  # type -> "numpy", "cupy", "torch" or "" (anything else is planned on every call)


class Prepared:
    """A planned chain and what a call needs besides the pointers."""

    __slots__ = ("handle", "memory", "kind", "device", "shape", "dtype", "scratch", "src_stride", "dst_stride",
                 "__weakref__")

    def __init__(self, handle, memory, kind, shape, dtype, scratch):
        self.handle = handle
        self.memory = memory
        self.kind = kind
        self.device = None
        self.shape = shape
        self.dtype = dtype
        self.scratch = scratch
        self.src_stride = None
        self.dst_stride = None

    def __del__(self, _free=_lib.plan_free):
        # The function is bound when the class is made: at interpreter exit the modules' globals
        # are cleared in an order of Python's choosing, and a plan freed then need not be.
        try:
            _free(self.handle)
        except (AttributeError, TypeError):
            pass


def _kind(obj):
    kind = _kinds.get(type(obj))
    if kind is None:
        if isinstance(obj, np.ndarray):
            kind = "numpy"
        else:
            kind = "torch" if _arrays.is_torch(obj) else "cupy" if _arrays.is_cupy(obj) and hasattr(obj, "data") else ""
        _kinds[type(obj)] = kind
    return kind


def geometry(obj):
    """A hashable description of an image's kind, shape, layout, dtype and device, or None for
    what the cache does not take (a CPU PyTorch tensor or a foreign device array, say)."""
    kind = _kind(obj)
    if kind == "numpy":
        return kind, obj.shape, obj.dtype
    if kind == "cupy":
        return kind, obj.shape, obj.strides, obj.dtype, obj.device.id
    if kind == "torch" and obj.is_cuda:
        return kind, obj.shape, obj.stride(), obj.dtype, obj.device
    return None


def filter_key(filter, kernel, anchor, params):
    """The exact key of apply()'s filter arguments (kernel and anchor already checked), or None
    when they cannot be keyed (the call then plans, which says what is wrong)."""
    try:
        values = tuple([(k, _args.exact(v)) for k, v in sorted(params.items())])
    except TypeError:
        return None
    kernel_key = None if kernel is None else (kernel.shape, kernel.tobytes())
    return filter, kernel_key, None if anchor is None else tuple(anchor), values


def key(chain_key, image, out, options):
    """The key of a call, or None when it cannot be remembered. `chain_key` is filter_key() or
    ("json", chain text); `options` the tuple of apply()'s option arguments, each keyed exactly
    (with its type, floats by their bits), so a value that only compares equal to a checked one
    (True and 1, 0.0 and -0.0) gets a plan of its own."""
    if chain_key is None:
        return None
    image_geometry = geometry(image)
    if image_geometry is None:
        return None
    out_geometry = None
    if out is not None and image_geometry[0] != "numpy":
        out_geometry = geometry(out)
        if out_geometry is None or out_geometry[0] == "numpy":
            return None
    try:
        k = (chain_key, _args.exact(tuple(options)), image_geometry, out_geometry)
        hash(k)
    except TypeError:
        return None
    return k


def lookup(k):
    return _plans.get(k) if k is not None else None


def plan(k, image, out, text, options):
    """Plans the chain text with the options for images like `image` (one C call) and keeps the
    plan under k when k is not None."""
    if _arrays.is_device_array(image):
        src, _ = _arrays.device_layout(image, "the image")
        if _kind(image) not in ("cupy", "torch") and out is None:
            raise TypeError(f"{type(image).__name__} arrays need out= (tessera allocates results with CuPy or "
                            "PyTorch only)")
        memory = _lib.DEVICE_MEMORY
    else:
        src = _arrays.host_layout(image, "the image")
        memory = _lib.HOST_MEMORY
    handle, depth, scratch = _lib.plan_create(src.image(), memory, text, options)
    prepared = Prepared(handle, memory, _kind(image), src.shape(), _arrays.dtype_of(depth), scratch)
    if memory == _lib.DEVICE_MEMORY:
        prepared.device = _device._device_index(image, src)
        prepared.src_stride = src.row_stride
    if k is not None:
        with _lock:
            if len(_plans) >= _LIMIT:
                _plans.clear()
            _plans[k] = prepared
    return prepared


def run_host(prepared, image, out):
    """Runs a host plan on a NumPy image; returns out (allocated when None)."""
    src = _arrays.host_layout(image, "the image")
    if out is None:
        out = np.empty(prepared.shape, prepared.dtype)
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray for a NumPy image, not {type(out).__name__}")
        _arrays.check_out(out, prepared.shape, prepared.dtype)
        if not out.flags.writeable:
            raise ValueError("out is read-only")
        if np.may_share_memory(image, out):
            raise ValueError("out overlaps the image; give an output array of its own")
    dst = _arrays.host_layout(out, "out")
    # Long calls on the main thread run where Ctrl+C can stop them (_interrupt.py); the worker
    # keeps the plan and both arrays alive until the call returns.
    _interrupt.call(_lib.plan_run_host, prepared.handle, src.data, src.row_stride, dst.data, dst.row_stride,
                    samples=src.height * src.width * src.channels, keep=(prepared, image, out), run=True)
    return out


def _pointer(obj, kind):
    return obj.data_ptr() if kind == "torch" else obj.data.ptr


def run_device(prepared, image, out, stream):
    """Runs a remembered device plan on a CuPy array or a PyTorch tensor of its geometry;
    returns the output array, or None when the full path must take it (a CuPy caller whose
    current device is not the image's, or an output whose layout was not seen yet)."""
    kind = prepared.kind
    if prepared.dst_stride is None or kind not in ("cupy", "torch"):
        return None
    handle = _device._stream_handle(stream)
    producer = None
    if kind == "cupy":
        import cupy
        if cupy.cuda.runtime.getDevice() != prepared.device:
            return None
        # What the array interface names as the producer: the current device's current stream.
        current = producer = cupy.cuda.get_current_stream().ptr
        if handle is None:
            handle = producer
    else:
        import torch
        current = torch.cuda.current_stream(prepared.device).cuda_stream
        if handle is None:
            handle = current
    if producer is not None and not _device._same_stream(producer, handle):
        _lib.stream_wait(prepared.device, handle, producer)
    # On the current stream of the current device the library's own allocator already takes
    # memory in that stream's order; elsewhere the full path's allocator switches to it first.
    if kind == "cupy" and handle == current:
        def empty(shape, dtype):
            return cupy.empty(shape, dtype)
    elif kind == "torch" and handle == current:
        def empty(shape, dtype):
            return torch.empty(shape, dtype=getattr(torch, str(dtype)), device=image.device)
    else:
        empty = _device._Allocator(image, prepared.device, handle).empty
    if out is None:
        out = empty(prepared.shape, prepared.dtype)
    scratch = None
    if prepared.scratch > 0:
        # Taken on the stream the work runs on, and given back when this returns: the pool
        # hands it out again only in that stream's order.
        scratch = empty((prepared.scratch + 256,), "uint8")
        base = _pointer(scratch, kind)
        scratch = (base + 255) // 256 * 256
    global hits
    hits += 1
    _lib.plan_run_device(prepared.handle, _pointer(image, kind), prepared.src_stride, _pointer(out, kind),
                         prepared.dst_stride, handle, scratch, prepared.scratch)
    _report.ran_here()
    return out
