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

The GIL is released while an image is filtered.

>>> import numpy as np, tessera
>>> image = np.zeros((480, 640, 3), np.uint8)
>>> blurred = tessera.apply(image, "gaussian", sigma=2.0)
>>> edges = tessera.apply(image, kernel=np.array([[-1, 0, 1]]), depth="f32")
>>> chain = tessera.Chain(["box", tessera.Filter("sharpen", amount=1.5)])
>>> result = tessera.apply(image, chain, border="replicate")
"""

import numpy as np

from . import _args, _arrays, _device, _fast, _lib
from ._chain import Chain, Filter, load_preset
from ._lib import LIBRARY_PATH, TesseraError

__version__ = _lib.VERSION
__all__ = ["apply", "filters", "devices", "Chain", "Filter", "load_preset", "TesseraError", "last_run",
           "LIBRARY_PATH", "__version__"]

def filters():
    """The built-in filters: a list of dicts with ``id``, ``title``, ``category``,
    ``description`` and ``params``, each parameter a dict with ``key``, ``label``, ``type``
    (int, double, bool or choice), ``min``, ``max``, ``default``, ``step``, ``tooltip`` and for
    choices ``choices``. The ids and keys are what apply() and Filter() take."""
    return [dict(f, params=[dict(p) for p in f["params"]]) for f in _lib.filters_json()]


def devices():
    """The CUDA devices as a dict: ``devices`` (id, name, compute_capability, memory...),
    ``device_count``, ``driver_version``, ``runtime_version``, ``fft`` (whether cuFFT could be
    opened) and ``reason`` (why there is no GPU, or None). No GPU is a normal answer; apply()
    then runs on the CPU."""
    return _lib.devices_json()


_last_run = {"where": None}


def last_run():
    """Where the calling process's last host-image apply() ran ("cpu" or "gpu:0,1", plus any
    note such as a fallback to the CPU), or None before the first one."""
    return _last_run["where"]


_CHAIN_TEXTS = {}  # the JSON of recent one-filter calls, so a loop does not rebuild and recheck it


def _cache_key(filter, weights, anchor, params):
    """The exact key of a one-filter call (weights and anchor already checked), or None when a
    parameter cannot be keyed (the call then builds its chain, which says what is wrong)."""
    try:
        values = tuple((k, _args.exact(v)) for k, v in sorted(params.items()))
    except TypeError:
        return None
    kernel_key = None if weights is None else (weights.shape, weights.tobytes())
    return filter, kernel_key, None if anchor is None else tuple(anchor), values


def _chain_text(filter, kernel, anchor, params):
    if isinstance(filter, Chain):
        if params or anchor is not None or kernel is not None:
            _chain_of(filter, kernel, anchor, params)  # raises the TypeError that says why
        return filter.to_json()
    key = None
    if isinstance(filter, (str, type(None))):
        # Checked (and an object or integer kernel turned into float64) before it is keyed: the
        # key holds the weights' float64 bytes, never an object array's pointers.
        if kernel is not None:
            kernel = _args.kernel(kernel)
        if anchor is not None:
            anchor = _args.anchor(anchor)
        key = _cache_key(filter, kernel, anchor, params)
    if key is not None and key in _CHAIN_TEXTS:
        return _CHAIN_TEXTS[key]
    text = _chain_of(filter, kernel, anchor, params).to_json()
    if key is not None:
        if len(_CHAIN_TEXTS) >= 256:
            _CHAIN_TEXTS.clear()
        _CHAIN_TEXTS[key] = text
    return text


def _chain_of(filter, kernel, anchor, params):
    if kernel is not None:
        if filter is not None:
            raise TypeError("give either a filter or kernel=, not both")
        if params:
            raise TypeError(f"kernel= takes no filter parameters (got {', '.join(sorted(params))})")
        return Chain([Filter(kernel=kernel, anchor=anchor)])
    if filter is None:
        raise TypeError("apply() needs a filter: an id such as \"gaussian\", kernel=, a Filter or a Chain")
    if isinstance(filter, str):
        return Chain([Filter(filter, anchor=anchor, **params)])
    if params or anchor is not None:
        raise TypeError("filter parameters and anchor= go with a filter id; a Filter or Chain carries its own")
    if isinstance(filter, Chain):
        return filter
    if isinstance(filter, (Filter, list, tuple)):
        return Chain(filter if isinstance(filter, (list, tuple)) else [filter])
    raise TypeError(f"filter must be an id, a Filter, a Chain or a list of them, not {type(filter).__name__}")


def apply(image, filter=None, /, *, kernel=None, anchor=None, border=None, border_value=None, scale=None,
          offset=None, depth=None, device="auto", method="auto", out=None, stream=None, gpu_memory_limit=0,
          **params):
    """Filters an image and returns the result.

    image
        HxW or HxWxC (C = 1, 3, 4, interleaved) uint8, uint16 or float32: a NumPy array (views
        and crops with a row stride larger than a row are read in place), a CuPy array or a
        PyTorch CUDA tensor (filtered on its GPU, never through the host).
    filter
        A filter id from tessera.filters() (its parameters as keywords: ``sigma=2.0``), a
        Filter, a Chain (``tessera.load_preset(path)`` gives one) or a list of filters, run in
        order in one call.
    kernel, anchor
        A custom kernel instead of a filter: a 2-D array of real weights (any real dtype, or
        an object array of real numbers, taken as float64), applied as a correlation
        (cv::filter2D); anchor (x, y), whole numbers, defaults to the centre.
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

    Raises TypeError for arrays of another kind or dtype, misplaced arguments and arguments of
    the wrong type (a complex kernel, a string for a number), ValueError for bad shapes,
    layouts (planar, non-contiguous rows), options, filters, parameters (NaN and infinity
    included) and presets, MemoryError when memory runs out and TesseraError (a RuntimeError) when the
    machine cannot do what was asked (device="gpu" without a GPU, a CUDA failure).
    """
    text = _chain_text(filter, kernel, anchor, params)
    remembered = None
    if out is None or not isinstance(out, np.ndarray):
        remembered = _fast.key(text, image, out, (border, border_value, scale, offset, depth, device, method,
                                                  gpu_memory_limit))
        prepared = _fast.lookup(remembered)
        if prepared is not None:
            result = _fast.run(prepared, image, out, stream)
            if result is not None:
                return result
            remembered = None  # kept already (the caller's current GPU is another): no replanning
    options = _lib.make_options(border=border, border_value=border_value, scale=scale, offset=offset, depth=depth,
                                device=device, method=method, gpu_memory_limit=gpu_memory_limit)
    if _arrays.is_device_array(image):
        result = _device.apply_device(image, text, options, out, stream)
        if remembered is not None:
            _fast.remember(remembered, image, result, text, options)
        return result
    if stream is not None:
        raise TypeError("stream= is for CuPy arrays and PyTorch CUDA tensors; a NumPy image runs synchronously")
    src = _arrays.host_layout(image, "the image")
    dtype = _arrays.dtype_of(_lib.output_depth(text, options, src.depth))
    if out is None:
        out = np.empty(src.shape(), dtype)
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray for a NumPy image, not {type(out).__name__}")
        _arrays.check_out(out, src.shape(), dtype)
        if not out.flags.writeable:
            raise ValueError("out is read-only")
        if np.may_share_memory(image, out):
            raise ValueError("out overlaps the image; give an output array of its own")
    dst = _arrays.host_layout(out, "out")
    _last_run["where"] = _lib.apply_host(src.image(), dst.image(), text, options)
    return out

