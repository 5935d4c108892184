# SPDX-License-Identifier: Apache-2.0
"""Tessera's image convolution engine for NumPy, CuPy and PyTorch arrays.

The filters, presets and results are those of ``tessera-cli apply`` (cv::filter2D rules:
correlation, anchor at the kernel's centre unless given, borders reflect101 by default,
``result = saturate(round(scale * sum + offset))`` in the output depth).

Images are HxW or HxWxC arrays (C = 1, 3 or 4, channels interleaved) of uint8, uint16 or
float32:

- NumPy arrays run on the GPUs when there are any (``device="auto"``) and on the CPU
  otherwise; views such as crops are read in place, without a copy. The result is a new NumPy
  array, or ``out=``.
- CuPy arrays and PyTorch CUDA tensors are filtered on their own GPU, on the caller's current
  stream (or ``stream=``); nothing goes through the host. The result is allocated with the
  caller's library (so from its memory pool) and returned as the same kind of array.

The GIL is released while an image is filtered; on the main thread, Ctrl+C stops a long host
call (KeyboardInterrupt).

>>> import numpy as np, tessera
>>> image = np.zeros((480, 640, 3), np.uint8)
>>> blurred = tessera.apply(image, "gaussian", sigma=2.0)
>>> edges = tessera.apply(image, kernel=np.array([[-1, 0, 1]]), depth="f32")
>>> chain = tessera.Chain(["box", tessera.Filter("sharpen", amount=1.5)])
>>> result = tessera.apply(image, chain, border="replicate")
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

import numpy as np

from . import _args, _arrays, _chain, _device, _dlpack, _dtypes, _fast, _interrupt, _lib, _pipeline, _report
from ._chain import Chain, Filter, load_preset
from ._lib import LIBRARY_PATH, TesseraError
from ._report import RunReport

__version__ = _lib.FULL_VERSION  # the release, and "+g<commit>" when the library knows it
__all__ = ["apply", "convolve", "write", "filters", "devices", "Chain", "Filter", "load_preset", "TesseraError",
           "last_run", "set_step_timing", "RunReport", "CONVERTED_DTYPES", "LIBRARY_PATH", "__version__"]

# The public API's argument types.
if TYPE_CHECKING:
    from numpy.typing import ArrayLike
else:
    ArrayLike = Any  # numpy.typing costs its import time; type checkers read the real one
Border = Literal["reflect101", "reflect", "replicate", "constant", "wrap"]
Depth = Literal["same", "keep", "u8", "u16", "f32"]
Method = Literal["auto", "direct", "separable", "fft"]
Step = Union[str, Filter, Chain, Tuple[str, Mapping[str, Any]], Mapping[str, Any], ArrayLike]
FilterArg = Union[str, Filter, Chain, Sequence[Step], None]
Anchor = Union[Tuple[int, int], Sequence[int]]
Stream = Any  # an int cudaStream_t, a CuPy stream or a PyTorch stream

#: The NumPy dtypes apply() and convolve() take besides uint8, uint16 and float32, each with the
#: dtype it is computed in. An image of one of them is converted on the host (once, into a new
#: float32 array) and the result converted back: see apply() and RunReport.conversion.
CONVERTED_DTYPES: Dict[np.dtype, np.dtype] = {d: _dtypes.COMPUTE for d in _dtypes.CONVERTED}

# Kept under their former names.
_chain_key_and_text = _pipeline.chain_key_and_text
_chain_text = _pipeline.chain_text
_steps_of = _pipeline.steps_of


def filters() -> List[Dict[str, Any]]:
    """The built-in filters: a list of dicts with ``id``, ``title``, ``category``,
    ``description`` and ``params``, each parameter a dict with ``key``, ``label``, ``type``
    (int, double, bool or choice), ``min``, ``max``, ``default``, ``step``, ``tooltip`` and for
    choices ``choices``. The ids and keys are what apply() and Filter() take."""
    return [dict(f, params=[dict(p) for p in f["params"]]) for f in _lib.filters_json()]


def devices() -> Dict[str, Any]:
    """The CUDA devices as a dict: ``devices`` (id, name, compute_capability, memory...),
    ``device_count``, ``driver_version``, ``runtime_version``, ``fft`` (whether cuFFT could be
    opened) and ``reason`` (why there is no GPU, or None). No GPU is a normal answer; apply()
    then runs on the CPU."""
    return _lib.devices_json()


def last_run() -> Optional[RunReport]:
    """The report of the calling thread's last apply() (host images and device arrays alike) as
    a RunReport: where it ran, the placement, the devices, the method of each step, the times,
    any fallback, the timing records and how the image's dtype was converted, if it was;
    ``.write_trace(path)`` writes them as the Chrome trace ``tessera-cli apply --trace`` writes.
    None before the first run."""
    return _report.last_run()


def set_step_timing(on: bool) -> bool:
    """Whether device-array runs time each step with CUDA events from now on (the call then
    waits for its own work, so the times can be read): for profiling. Host runs are always
    timed. Returns the previous setting."""
    return _lib.set_step_timing(on)


@overload
def apply(image: np.ndarray, filter: FilterArg = None, /, *, kernel: Optional[ArrayLike] = None,
          anchor: Optional[Anchor] = None, border: Optional[Border] = None, border_value: Optional[float] = None,
          scale: Optional[float] = None, offset: Optional[float] = None, depth: Optional[Depth] = None,
          device: str = "auto", method: Method = "auto", out: Optional[np.ndarray] = None, stream: Stream = None,
          gpu_memory_limit: int = 0, batch: Optional[bool] = None, **params: Any) -> np.ndarray: ...


@overload
def apply(image: Any, filter: FilterArg = None, /, *, kernel: Optional[ArrayLike] = None,
          anchor: Optional[Anchor] = None, border: Optional[Border] = None, border_value: Optional[float] = None,
          scale: Optional[float] = None, offset: Optional[float] = None, depth: Optional[Depth] = None,
          device: str = "auto", method: Method = "auto", out: Any = None, stream: Stream = None,
          gpu_memory_limit: int = 0, batch: Optional[bool] = None, **params: Any) -> Any: ...


def apply(image: Any, filter: FilterArg = None, /, *, kernel: Optional[ArrayLike] = None,
          anchor: Optional[Anchor] = None, border: Optional[Border] = None, border_value: Optional[float] = None,
          scale: Optional[float] = None, offset: Optional[float] = None, depth: Optional[Depth] = None,
          device: str = "auto", method: Method = "auto", out: Any = None, stream: Stream = None,
          gpu_memory_limit: int = 0, batch: Optional[bool] = None, **params: Any) -> Any:
    """Filters an image (a correlation, as cv::filter2D) and returns the result.

    image
        HxW or HxWxC (C = 1, 3, 4, interleaved): a NumPy array (views and crops with a row
        stride larger than a row are read in place), a CuPy array, a PyTorch CUDA tensor
        (filtered on its GPU, never through the host), or any other DLPack producer
        (``__dlpack__`` and ``__dlpack_device__``) in host or CUDA memory.
        Dtypes uint8, uint16 and float32 are computed as they are. NumPy (and host DLPack)
        images of float64 and int16 are converted: a float32 copy is filtered, and the result
        comes back as float64 (the float32 values, exactly) or as int16 (rounded to the
        nearest, ties to even, and saturated to [-32768, 32767], as an int16 output of
        cv::filter2D), unless depth= or a step of the chain names another depth.
        last_run().conversion says what was converted.
    filter
        A filter id from tessera.filters() (its parameters as keywords: ``sigma=2.0``), a
        Filter, a Chain (``tessera.load_preset(path)`` gives one) or a list of filters, run in
        order in one call.
    kernel, anchor
        A custom kernel instead of a filter: a 2-D array of real weights (any real dtype, or
        an object array of real numbers, taken as float64), applied as a correlation
        (cv::filter2D); anchor (x, y), whole numbers, defaults to the centre. convolve() takes
        the same arguments for a true convolution.
    border, border_value
        "reflect101" (default), "reflect", "replicate", "constant" (outside = border_value,
        default 0) or "wrap", for every step. Unset: each step's own (a preset's).
    scale, offset
        result = scale * sum + offset, on the last step.
    depth
        Output depth of the last step: "same" (default), "u8", "u16" or "f32".
    device
        Host images: "auto" (every GPU when present, else the CPU), "cpu", "gpu", "gpu:N" or
        "gpu:N,M". Device arrays run on their own GPU ("auto", "gpu" or its "gpu:N").
    method
        GPU method: "auto" (chosen per step by a cost model), "direct", "separable" or "fft";
        a step that cannot use the forced method plans its own.
    out
        An array of the result's shape and dtype to write into (NumPy for host images, the
        same kind of device array for device images); it is returned.
    stream
        Device arrays: the CUDA stream to run on (an int cudaStream_t, a CuPy or PyTorch
        stream); default the caller's current stream of the array's library. Work queued on
        it before the call is complete before the image is read; the call returns once the
        work is queued.
    gpu_memory_limit
        Host images on GPUs: bytes each GPU may use, a whole number from 0 to 2**64 - 1 (0:
        from its free memory).
    batch
        None (default): a 4-D array, NxHxWxC, is a batch of N images. True: the first axis
        counts images, so an NxHxW array is N single-channel images. False: never a batch.
        Each image of a batch is filtered exactly as it would be alone, with one plan, and
        the results are stacked the same way (out= then has the batch's shape).

    The result is the same kind of array as the image: NumPy, CuPy, PyTorch, or a DLPack
    producer's own kind when its type (or its package) has ``from_dlpack`` (a NumPy array
    otherwise). On the main thread, a long host call can be stopped with Ctrl+C: it raises
    KeyboardInterrupt within a fraction of a second.

    Raises TypeError for arrays of another kind or dtype, misplaced arguments and arguments of
    the wrong type (a complex kernel, a string for a number), ValueError for bad shapes,
    layouts (planar, non-contiguous rows), options, filters, parameters (NaN and infinity
    included) and presets, MemoryError when memory runs out and TesseraError (a RuntimeError) when the
    machine cannot do what was asked (device="gpu" without a GPU, a CUDA failure).
    """
    options = (border, border_value, scale, offset, depth, device, method, gpu_memory_limit)
    return _pipeline.run(image, filter, kernel, anchor, params, options, out, stream, batch, False)


@overload
def convolve(image: np.ndarray, filter: FilterArg = None, /, *, kernel: Optional[ArrayLike] = None,
             anchor: Optional[Anchor] = None, border: Optional[Border] = None,
             border_value: Optional[float] = None, scale: Optional[float] = None, offset: Optional[float] = None,
             depth: Optional[Depth] = None, device: str = "auto", method: Method = "auto",
             out: Optional[np.ndarray] = None, stream: Stream = None, gpu_memory_limit: int = 0,
             batch: Optional[bool] = None, **params: Any) -> np.ndarray: ...


@overload
def convolve(image: Any, filter: FilterArg = None, /, *, kernel: Optional[ArrayLike] = None,
             anchor: Optional[Anchor] = None, border: Optional[Border] = None,
             border_value: Optional[float] = None, scale: Optional[float] = None, offset: Optional[float] = None,
             depth: Optional[Depth] = None, device: str = "auto", method: Method = "auto", out: Any = None,
             stream: Stream = None, gpu_memory_limit: int = 0, batch: Optional[bool] = None,
             **params: Any) -> Any: ...


def convolve(image: Any, filter: FilterArg = None, /, *, kernel: Optional[ArrayLike] = None,
             anchor: Optional[Anchor] = None, border: Optional[Border] = None,
             border_value: Optional[float] = None, scale: Optional[float] = None, offset: Optional[float] = None,
             depth: Optional[Depth] = None, device: str = "auto", method: Method = "auto", out: Any = None,
             stream: Stream = None, gpu_memory_limit: int = 0, batch: Optional[bool] = None,
             **params: Any) -> Any:
    """Filters an image with a true convolution: apply() with every kernel flipped.

    apply() correlates, as cv::filter2D does: ``out[y, x] = sum k[j, i] * img[y + j - ay,
    x + i - ax]``. convolve() computes ``out[y, x] = sum k[j, i] * img[y - j + ay, x - i + ax]``,
    the convolution of scipy.ndimage.convolve and scipy.signal.convolve2d: the kernel is flipped
    on both axes and the anchor (ax, ay) mirrored with it, so the kernel element at the anchor
    (the centre, ``(w // 2, h // 2)``, by default) still lies over the output pixel. With the
    default anchor the result is scipy.ndimage.convolve's (border "reflect101" is its
    "mirror", "reflect" its "reflect", "replicate" its "nearest", "constant" its "constant"
    and "wrap" its "wrap"); scipy.signal.convolve2d(mode="same") centres even-sized kernels one
    sample earlier, at anchor ``((w - 1) // 2, (h - 1) // 2)``.

    For symmetric kernels (box, Gaussian, Laplacian) it equals apply(). Custom kernels
    (kernel=, Filter(kernel=...), chains of them) are flipped before planning and cost the same
    as apply(). Chains with registry filters (their weights are the library's) are run on the
    image flipped on both axes, and the result is flipped back: the same convolution, for the
    price of two copies of the image. Every other argument is apply()'s.
    """
    options = (border, border_value, scale, offset, depth, device, method, gpu_memory_limit)
    flipped = _pipeline.flipped_filter(filter, kernel, anchor, params)
    if flipped is None:
        return _pipeline.run(image, filter, kernel, anchor, params, options, out, stream, batch, True)
    filter, kernel, anchor, params = flipped
    return _pipeline.run(image, filter, kernel, anchor, params, options, out, stream, batch, False)


def write(path: Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"], image: np.ndarray, /, *,
          quality: Union[int, str, None] = None, compression: Union[int, str, None] = None,
          order: Literal["rgb", "bgr"] = "rgb") -> str:
    """Writes a NumPy image to path in the format its extension names and returns the encoding
    used in words ("JPEG quality 85", "PNG compression level 9", "TIFF with Deflate
    compression", "WebP lossless"; "" for formats without a choice).

    The file is written to a temporary name, synced and renamed, so a reader never sees half of
    it. A format that cannot hold the image's dtype or channels (float32 as JPEG) raises
    ValueError naming the file.

    quality
        JPEG: 1 to 100 (default 92). WebP: 1 to 100 makes it lossy at that quality;
        "lossless" (the default) keeps every value. Other formats ignore it.
    compression
        PNG: the zlib level 0 to 9 (default 6). TIFF: "none", "lzw" (default) or "deflate".
        Other formats ignore it.
    order
        "rgb" (default, as NumPy imaging libraries hold colour) or "bgr" (as OpenCV does) for
        3- and 4-channel images.
    """
    order = _args.choice("order", order, ("rgb", "bgr"))
    if quality is not None and not isinstance(quality, str):
        quality = _args.whole("quality", quality, 1, 100)
    if compression is not None and not isinstance(compression, str):
        compression = _args.whole("compression", compression, 0, 9)
    layout = _arrays.host_layout(image)
    return _lib.write_image(os.fsencode(os.fspath(path)), layout.image(), order != "bgr", quality, compression)

