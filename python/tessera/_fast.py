# SPDX-License-Identifier: Apache-2.0
"""Repeated calls on device arrays of one kind.

The first call with a given filter, options, input geometry and output geometry goes through
every check and plans the chain; it then keeps the planned chain (a C plan handle). A later
call that matches it in all of these reads only the two data pointers and the stream and makes
one C call, so a lone call costs a few microseconds of host time instead of tens. Whatever the
key does not cover (the pointers, the stream, overlap, which GPU the memory is on) is checked
on every call, in C."""

import threading

from . import _args, _arrays, _device, _lib

_LIMIT = 64
_lock = threading.Lock()
_plans = {}
hits = 0  # calls that took a remembered plan (for the checks)
_kinds = {}  # type -> "cupy", "torch" or "" (anything else takes the full path every time)


class Prepared:
    """A planned chain and what a call needs besides the pointers."""

    __slots__ = ("handle", "kind", "device", "shape", "dtype", "scratch", "src_stride", "dst_stride")

    def __del__(self):
        _lib.device_plan_free(self.handle)


def _kind(obj):
    kind = _kinds.get(type(obj))
    if kind is None:
        kind = "torch" if _arrays.is_torch(obj) else "cupy" if _arrays.is_cupy(obj) and hasattr(obj, "data") else ""
        _kinds[type(obj)] = kind
    return kind


def geometry(obj):
    """A hashable description of a CuPy array's or a PyTorch tensor's shape, layout, dtype and
    device, or None for anything else."""
    kind = _kind(obj)
    if kind == "cupy":
        return kind, obj.shape, obj.strides, obj.dtype, obj.device.id
    if kind == "torch":
        return kind, obj.shape, obj.stride(), obj.dtype, obj.device
    return None


def key(text, image, out, options):
    """The key of a device call, or None when the call cannot be remembered. `options` is the
    tuple of apply()'s option arguments; each goes in exactly (with its type, floats by their
    bits), so a value that only compares equal to a checked one (True and 1, 0.0 and -0.0)
    still takes the checked path."""
    image_geometry = geometry(image)
    if image_geometry is None:
        return None
    out_geometry = None
    if out is not None:
        out_geometry = geometry(out)
        if out_geometry is None:
            return None
    try:
        k = (text, _args.exact(tuple(options)), image_geometry, out_geometry)
        hash(k)
    except TypeError:
        return None
    return k


def lookup(k):
    return _plans.get(k) if k is not None else None


def remember(k, image, out, text, options):
    """Plans the call that has just succeeded through the full path and keeps it under k."""
    src, _ = _arrays.device_layout(image)
    dst, _ = _arrays.device_layout(out, "out")
    prepared = Prepared()
    prepared.handle, depth, prepared.scratch = _lib.device_plan_create(src.image(), text, options)
    prepared.kind = _kind(image)
    prepared.device = _device._device_index(image, src)
    prepared.shape = src.shape()
    prepared.dtype = _arrays.dtype_of(depth)
    prepared.src_stride = src.row_stride
    prepared.dst_stride = dst.row_stride
    with _lock:
        if len(_plans) >= _LIMIT:
            _plans.clear()
        _plans[k] = prepared


def _pointer(obj, kind):
    return obj.data_ptr() if kind == "torch" else obj.data.ptr


def run(prepared, image, out, stream):
    """Runs a remembered call; returns the output array, or None when the full path must take
    it (a CuPy caller whose current device is not the image's)."""
    kind = prepared.kind
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
    _lib.device_plan_run(prepared.handle, _pointer(image, kind), prepared.src_stride, _pointer(out, kind),
                         prepared.dst_stride, handle, scratch, prepared.scratch)
    return out
