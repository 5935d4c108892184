# SPDX-License-Identifier: Apache-2.0
"""The device path: CuPy arrays and PyTorch CUDA tensors filtered where they are, on the
caller's stream, with the output and the scratch taken from the caller's own allocator."""

import contextlib

from . import _arrays, _lib, _report


def _stream_handle(stream):
    """A cudaStream_t as an int from an int, a CuPy stream or a PyTorch stream."""
    if stream is None:
        return None
    if isinstance(stream, int):
        return stream
    for attribute in ("cuda_stream", "ptr"):
        if hasattr(stream, attribute):
            return int(getattr(stream, attribute))
    raise TypeError(f"stream must be an int (a cudaStream_t), a CuPy stream or a PyTorch stream, "
                    f"not {type(stream).__name__}")


class _Allocator:
    """Allocates like the input's own library (same device, same memory pool), on the stream
    the filter runs on, so stream-ordered pools hand the memory back in the right order."""

    def __init__(self, like, device, stream):
        self.like = like
        self.device = device
        self.stream = stream

    @contextlib.contextmanager
    def _on_stream(self):
        if self.stream == self.default_stream():
            with self._on_device():
                yield
        elif _arrays.is_torch(self.like):
            import torch
            with torch.cuda.device(self.device), torch.cuda.stream(torch.cuda.ExternalStream(self.stream)):
                yield
        else:
            import cupy
            with cupy.cuda.Device(self.device), cupy.cuda.ExternalStream(self.stream):
                yield

    def _on_device(self):
        if _arrays.is_torch(self.like):
            import torch
            return torch.cuda.device(self.device)
        import cupy
        return cupy.cuda.Device(self.device)

    def empty(self, shape, dtype):
        with self._on_stream():
            if _arrays.is_torch(self.like):
                import torch
                return torch.empty(shape, dtype=getattr(torch, str(dtype)), device=f"cuda:{self.device}")
            import cupy
            return cupy.empty(shape, dtype=dtype)

    def default_stream(self):
        if self.like is None:
            return 0
        if _arrays.is_torch(self.like):
            import torch
            return torch.cuda.current_stream(self.device).cuda_stream
        import cupy
        with cupy.cuda.Device(self.device):
            return cupy.cuda.get_current_stream().ptr


def _device_index(obj, layout):
    if layout.device is not None:
        return layout.device
    if _arrays.is_torch(obj):
        return obj.device.index
    return _lib.pointer_device(layout.data)  # any other __cuda_array_interface__ object


def _same_stream(a, b):
    """Whether two cudaStream_t values name one stream (0 and 1 both mean the legacy default)."""
    return (a if a != 1 else 0) == (b if b != 1 else 0)


def apply_device(prepared, image, out, stream):
    """Runs a device plan (tessera/_fast.py) over a device array with every check: the
    producer stream, the allocator of the array's library, the output's layout and overlap.
    Returns the output array (out when given) and records the output's row stride in the plan
    for later calls of the same geometry."""
    src, producer = _arrays.device_layout(image, "the image")
    if not (_arrays.is_torch(image) or _arrays.is_cupy(image)) and out is None:
        raise TypeError(f"{type(image).__name__} arrays need out= (tessera allocates results with CuPy or "
                        "PyTorch only)")
    device = _device_index(image, src)
    like = next((a for a in (image, out) if _arrays.is_torch(a) or _arrays.is_cupy(a)), None)
    allocator = _Allocator(like, device, None)
    handle = _stream_handle(stream)
    if handle is None:
        handle = allocator.default_stream() if like is not None else int(producer or 0)
    allocator.stream = handle
    # The interface's producer stream (CuPy, Numba): make our stream wait for it first.
    if producer is not None and not _same_stream(int(producer), handle):
        _lib.stream_wait(device, handle, int(producer))

    if out is None:
        out = allocator.empty(src.shape(), prepared.dtype)
    else:
        if not _arrays.is_device_array(out):
            raise TypeError(f"out must be a device array like the image, not {type(out).__name__}")
        _arrays.check_out(out, src.shape(), prepared.dtype)
    dst, _ = _arrays.device_layout(out, "out")
    s0, e0 = src.span()
    s1, e1 = dst.span()
    if s0 < e1 and s1 < e0:
        raise ValueError("out overlaps the image; give an output array of its own")

    needed = prepared.scratch
    scratch = None
    pointer = None
    if needed > 0 and like is not None:
        scratch = allocator.empty((needed + 256,), "uint8")
        base = scratch.data_ptr() if _arrays.is_torch(scratch) else scratch.data.ptr
        pointer = (base + 255) // 256 * 256
    # The scratch goes back to the pool when this returns, while the work may still be queued:
    # safe, because it was taken on the same stream and the pools hand it out again in that
    # stream's order.
    _lib.plan_run_device(prepared.handle, src.data, src.row_stride, dst.data, dst.row_stride, handle, pointer,
                         needed if pointer else 0)
    _report.ran_here()
    prepared.dst_stride = dst.row_stride
    return out
