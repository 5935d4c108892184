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

from . import _args, _arrays, _chain, _device, _fast, _lib, _report
from ._chain import Chain, Filter, load_preset
from ._lib import LIBRARY_PATH, TesseraError
from ._report import RunReport

__version__ = _lib.VERSION
__all__ = ["apply", "write", "filters", "devices", "Chain", "Filter", "load_preset", "TesseraError", "last_run",
           "set_step_timing", "RunReport",
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


def last_run():
    """The report of the calling thread's last apply() (host images and device arrays alike) as
    a RunReport: where it ran, the placement, the devices, the method of each step, the times,
    any fallback and the timing records; ``.write_trace(path)`` writes them as the Chrome trace
    ``tessera-cli apply --trace`` writes. None before the first run."""
    return _report.last_run()


def set_step_timing(on):
    """Whether device-array runs time each step with CUDA events from now on (the call then
    waits for its own work, so the times can be read): for profiling. Host runs are always
    timed. Returns the previous setting."""
    return _lib.set_step_timing(on)


def _chain_key_and_text(filter, kernel, anchor, params):
    """(exact key, chain JSON or None) for apply()'s filter arguments. An id or a kernel is keyed
    by its values and its JSON made only when the call has to be planned; a Chain, a Filter or
    a list is keyed by its JSON text (round-tripping floats, so exact)."""
    if isinstance(filter, (str, type(None))):
        # Checked (and an object or integer kernel turned into float64) before it is keyed: the
        # key holds the weights' float64 bytes, never an object array's pointers.
        if kernel is not None:
            kernel = _args.kernel(kernel)
        if anchor is not None:
            anchor = _args.anchor(anchor)
        return _fast.filter_key(filter, kernel, anchor, params), None
    text = _chain_text(filter, kernel, anchor, params)
    return ("json", text), text


def _chain_text(filter, kernel, anchor, params):
    """The chain's preset JSON, checked on the Python side (the library checks the rest when it
    plans)."""
    if isinstance(filter, Chain):
        if params or anchor is not None or kernel is not None:
            _steps_of(filter, kernel, anchor, params)  # raises the TypeError that says why
        return filter.to_json()
    return _chain.chain_json(_steps_of(filter, kernel, anchor, params))


def _steps_of(filter, kernel, anchor, params):
    if kernel is not None:
        if filter is not None:
            raise TypeError("give either a filter or kernel=, not both")
        if params:
            raise TypeError(f"kernel= takes no filter parameters (got {', '.join(sorted(params))})")
        return [Filter(kernel=kernel, anchor=anchor)]
    if filter is None:
        raise TypeError("apply() needs a filter: an id such as \"gaussian\", kernel=, a Filter or a Chain")
    if isinstance(filter, str):
        return [Filter(filter, anchor=anchor, **params)]
    if params or anchor is not None:
        raise TypeError("filter parameters and anchor= go with a filter id; a Filter or Chain carries its own")
    if isinstance(filter, Chain):
        return filter
    if isinstance(filter, Filter):
        return [filter]
    if isinstance(filter, (list, tuple)):
        return filter
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
    chain_key, text = _chain_key_and_text(filter, kernel, anchor, params)
    options = (border, border_value, scale, offset, depth, device, method, gpu_memory_limit)
    k = _fast.key(chain_key, image, out, options)
    prepared = _fast.lookup(k)
    if prepared is not None:
        if prepared.memory == _lib.HOST_MEMORY:
            if stream is not None:
                raise TypeError("stream= is for CuPy arrays and PyTorch CUDA tensors; a NumPy image runs "
                                "synchronously")
            _fast.hits += 1
            return _fast.run_host(prepared, image, out)
        result = _fast.run_device(prepared, image, out, stream)
        if result is not None:
            return result
        return _device.apply_device(prepared, image, out, stream)
    if text is None:
        text = _chain_text(filter, kernel, anchor, params)
    c_options = _lib.make_options(border=border, border_value=border_value, scale=scale, offset=offset, depth=depth,
                                  device=device, method=method, gpu_memory_limit=gpu_memory_limit)
    on_device = _arrays.is_device_array(image)
    if not on_device and stream is not None:
        raise TypeError("stream= is for CuPy arrays and PyTorch CUDA tensors; a NumPy image runs synchronously")
    prepared = _fast.plan(k, image, out, text, c_options)
    if on_device:
        return _device.apply_device(prepared, image, out, stream)
    return _fast.run_host(prepared, image, out)


def write(path, image, /, *, quality=None, compression=None, order="rgb"):
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
    import os
    order = _args.choice("order", order, ("rgb", "bgr"))
    if quality is not None and not isinstance(quality, str):
        quality = _args.whole("quality", quality, 1, 100)
    if compression is not None and not isinstance(compression, str):
        compression = _args.whole("compression", compression, 0, 9)
    layout = _arrays.host_layout(image)
    return _lib.write_image(os.fsencode(os.fspath(path)), layout.image(), order != "bgr", quality, compression)

