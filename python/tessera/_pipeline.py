# SPDX-License-Identifier: Apache-2.0
"""What apply() and convolve() do with an image before and after the library runs on it.

A call whose filter, options and image geometry were seen before runs its remembered plan at
once (_fast.py). Any other call goes through these layers, outermost first:

1. DLPack producers (_dlpack.py) are imported as NumPy, CuPy or PyTorch arrays, and the result
   goes back as the producer's kind of array.
2. int16 and float64 NumPy images are computed as float32 and the result converted back
   (_dtypes.py).
3. convolve() with a registry filter flips the image (both axes) before and the result after:
   a correlation of the flipped image, flipped back, is the convolution (custom kernels are
   flipped instead, with no copy of the image; see flipped_filter()).
4. A batch (NxHxW or NxHxWxC) is filtered image by image with one plan, into one output.
5. One image of the library's own dtypes is planned (or its plan found) and run.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _arrays, _chain, _device, _dlpack, _dtypes, _fast, _lib, _report
from ._chain import Chain, Filter

_STREAM_HOST = "stream= is for CuPy arrays and PyTorch CUDA tensors; a NumPy image runs synchronously"


# ---- the filter arguments ---------------------------------------------------------------------

def chain_key_and_text(filter, kernel, anchor, params):
    """(exact key, chain JSON or None) for apply()'s filter arguments. An id or a kernel is keyed
    by its values and its JSON made only when the call has to be planned; a Chain, a Filter or
    a list is keyed by its JSON text (round-tripping floats, so exact)."""
    from . import _args
    if isinstance(filter, (str, type(None))):
        # Checked (and an object or integer kernel turned into float64) before it is keyed: the
        # key holds the weights' float64 bytes, never an object array's pointers.
        if kernel is not None:
            kernel = _args.kernel(kernel)
        if anchor is not None:
            anchor = _args.anchor(anchor)
        return _fast.filter_key(filter, kernel, anchor, params), None
    text = chain_text(filter, kernel, anchor, params)
    return ("json", text), text


def chain_text(filter, kernel, anchor, params):
    """The chain's preset JSON, checked on the Python side (the library checks the rest when it
    plans)."""
    if isinstance(filter, Chain):
        if params or anchor is not None or kernel is not None:
            steps_of(filter, kernel, anchor, params)  # raises the TypeError that says why
        return filter.to_json()
    return _chain.chain_json(steps_of(filter, kernel, anchor, params))


def steps_of(filter, kernel, anchor, params):
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


class Call:
    """One call's filter arguments and options; the chain text and the C options are made the
    first time a layer needs them."""

    __slots__ = ("filter", "kernel", "anchor", "params", "chain_key", "text", "options", "stream", "_c_options")

    def __init__(self, filter, kernel, anchor, params, chain_key, text, options, stream):
        self.filter = filter
        self.kernel = kernel
        self.anchor = anchor
        self.params = params
        self.chain_key = chain_key
        self.text = text
        self.options = options
        self.stream = stream
        self._c_options = None

    def chain_text(self):
        if self.text is None:
            self.text = chain_text(self.filter, self.kernel, self.anchor, self.params)
        return self.text

    def c_options(self):
        if self._c_options is None:
            border, border_value, scale, offset, depth, device, method, gpu_memory_limit = self.options
            self._c_options = _lib.make_options(border=border, border_value=border_value, scale=scale,
                                                offset=offset, depth=depth, device=device, method=method,
                                                gpu_memory_limit=gpu_memory_limit)
        return self._c_options


# ---- convolve(): the kernel flipped ----------------------------------------------------------

_PROBE_OPTIONS = ("constant", 0.0, 1.0, 0.0, "f32", "cpu", "auto", 0)
_STEP_KEYS = ("anchor", "border", "border_value", "scale", "offset", "depth")
_symmetric: Dict[str, bool] = {}  # a registry step's id and parameters (JSON) -> whether its weights are point-symmetric
_convolve_args: Dict[Any, Any] = {}  # convolve()'s filter arguments (keyed exactly) -> apply()'s, _SAME, or None: flip the image
_SAME = object()  # convolve() is apply() with the same arguments


def _registry_symmetric(entry):
    """Whether a registry filter's weights are unchanged by a half turn (both axes flipped).
    Only the library knows them, so they are read back once per filter and parameters: its
    correlation of a delta image, on the CPU in float32, is the kernel turned half round. Equal to
    the last bit or not symmetric: a kernel taken as asymmetric is still convolved correctly
    (by flipping the image)."""
    bare = {k: v for k, v in entry.items() if k not in _STEP_KEYS}
    text = _chain.chain_json([bare])
    known = _symmetric.get(text)
    if known is not None:
        return known
    step = _lib.describe_chain(text, _lib.make_options())[0]
    width, height = step["kernel_size"]
    x, y = step["anchor"]
    delta = np.zeros((2 * height - 1, 2 * width - 1), np.float32)
    delta[height - 1, width - 1] = 1.0
    probe = run(delta, [bare], None, None, {}, _PROBE_OPTIONS, None, None, None, False)
    turned = probe[y:y + height, x:x + width]  # the weights, turned half round
    result = bool(np.array_equal(turned, turned[::-1, ::-1]))
    if len(_symmetric) >= 256:
        _symmetric.clear()
    _symmetric[text] = result
    return result


def _flip_entry(entry):
    """A chain entry (preset JSON) for the convolution with it: a custom kernel flipped on both
    axes, a registry filter with point-symmetric weights as it is; the anchor mirrored in both.
    None for a registry filter with asymmetric weights, which only the image flip can convolve."""
    if entry.get("id", "custom") == "custom" and "weights" in entry and "size" in entry:
        try:
            width, height = (int(v) for v in entry["size"])
            weights = np.asarray(entry["weights"], np.float64).reshape(height, width)
            x, y = (int(v) for v in entry["anchor"]) if "anchor" in entry else (width // 2, height // 2)
        except (TypeError, ValueError):
            return entry  # as it is, for the library to say what is wrong with it
        flipped = dict(entry)
        flipped["weights"] = [float(v) for v in weights[::-1, ::-1].ravel()]
        if "anchor" in entry or (width - 1 - x, height - 1 - y) != (x, y):
            flipped["anchor"] = [width - 1 - x, height - 1 - y]
        return flipped
    if not _registry_symmetric(entry):
        return None
    step = _lib.describe_chain(_chain.chain_json([entry]), _lib.make_options())[0]
    width, height = step["kernel_size"]
    x, y = step["anchor"]
    mirrored = [width - 1 - x, height - 1 - y]
    if mirrored == [x, y]:
        return entry
    flipped = dict(entry)
    flipped["anchor"] = mirrored
    return flipped


def flipped_filter(filter, kernel, anchor, params):
    """apply()'s filter arguments for the convolution with the given ones: (filter, kernel,
    anchor, params) with every kernel flipped on both axes and its anchor mirrored, so that the kernel
    element at the anchor still lies over the output pixel. Registry filters with point-symmetric
    weights (box, Gaussian, Laplacian...) need no flip but of their anchor. None when a step is a
    registry filter with asymmetric weights (Sobel, emboss...): the image is flipped instead.
    Arguments apply() refuses come back as they are, for apply() to say why."""
    from . import _args
    if kernel is not None:
        if filter is not None or params:
            return filter, kernel, anchor, params
        weights = _args.kernel(kernel)
        height, width = weights.shape
        if anchor is None:
            x, y = width // 2, height // 2
        else:
            x, y = _args.anchor(anchor)
            if not (0 <= x < width and 0 <= y < height):
                raise ValueError(f"anchor ({x}, {y}) is outside the {width} x {height} kernel")
        mirrored = (width - 1 - x, height - 1 - y)
        new_anchor = None if anchor is None and mirrored == (x, y) else mirrored
        return None, np.ascontiguousarray(weights[::-1, ::-1]), new_anchor, params
    if isinstance(filter, str):
        key = _fast.filter_key(filter, None, None if anchor is None else _args.anchor(anchor), params)
    elif isinstance(filter, (Filter, Chain, list, tuple)) and not params and anchor is None:
        key = None
    else:
        return filter, kernel, anchor, params
    if key is not None and key in _convolve_args:
        found = _convolve_args[key]
        return (filter, kernel, anchor, params) if found is _SAME else found
    if isinstance(filter, str):
        entries = Filter(filter, anchor=anchor, **params).entries()
    elif isinstance(filter, (Filter, Chain)):
        entries = filter.entries()
    else:
        entries = _chain._entries_and_json(filter)[0]
    flipped = [_flip_entry(e) for e in entries]
    if any(e is None for e in flipped):
        result = None
    elif isinstance(filter, str) and flipped[0] is entries[0]:
        result = _SAME  # a symmetric filter at its centre: apply()'s own call
    else:
        result = (flipped, None, None, {})
    if key is not None:
        try:
            hash(key)
            if len(_convolve_args) >= 256:
                _convolve_args.clear()
            _convolve_args[key] = result
        except TypeError:
            pass
    return (filter, kernel, anchor, params) if result is _SAME else result


# ---- the layers ------------------------------------------------------------------------------

def run(image, filter, kernel, anchor, params, options, out, stream, batch, flip):
    """apply() (flip False) and convolve() with a registry filter (flip True)."""
    chain_key, text = chain_key_and_text(filter, kernel, anchor, params)
    if batch is None and not flip and (out is None or not _dlpack.is_foreign(out)):
        prepared = _fast.lookup(_fast.key(chain_key, image, out, options))
        if prepared is not None:
            return _run_remembered(prepared, image, out, stream)
    call = Call(filter, kernel, anchor, params, chain_key, text, options, stream)
    return _general(image, call, out, batch, flip)


def _run_remembered(prepared, image, out, stream):
    if prepared.memory == _lib.HOST_MEMORY:
        if stream is not None:
            raise TypeError(_STREAM_HOST)
        _fast.hits += 1
        return _fast.run_host(prepared, image, out)
    result = _fast.run_device(prepared, image, out, stream)
    if result is not None:
        return result
    return _device.apply_device(prepared, image, out, stream)


def _general(image, call, out, batch, flip):
    foreign_image = _dlpack.is_foreign(image)
    if foreign_image or (out is not None and _dlpack.is_foreign(out)):
        native_image = _dlpack.import_array(image, "the image") if foreign_image else image
        native_out = _dlpack.import_out(out) if out is not None and _dlpack.is_foreign(out) else out
        result = _general(native_image, call, native_out, batch, flip)
        if out is not None:
            return out
        return _dlpack.export_like(result, image) if foreign_image else result
    batched = _is_batch(image, batch)
    if isinstance(image, np.ndarray) and _dtypes.is_converted(image.dtype):
        return _converted(image, call, out, batched, flip)
    return _computed(image, call, out, batched, flip)


def _computed(image, call, out, batched, flip):
    """Layers 3 to 5: an image of the library's dtypes."""
    if flip:
        return _flipped(image, call, out, batched)
    if batched:
        return _batch(image, call, out)
    return native(image, call, out)


def native(image, call, out):
    """One image of the library's dtypes: its remembered plan, or a new one."""
    k = _fast.key(call.chain_key, image, out, call.options)
    prepared = _fast.lookup(k)
    if prepared is not None:
        return _run_remembered(prepared, image, out, call.stream)
    prepared = _plan(image, call, out, k)
    if prepared.memory == _lib.DEVICE_MEMORY:
        return _device.apply_device(prepared, image, out, call.stream)
    return _fast.run_host(prepared, image, out)


def _plan(image, call, out, k):
    text = call.chain_text()
    c_options = call.c_options()
    if call.stream is not None and not _arrays.is_device_array(image):
        raise TypeError(_STREAM_HOST)
    return _fast.plan(k, image, out, text, c_options)


def prepare(image, call, out):
    """The plan for one image (found or made), without running it."""
    k = _fast.key(call.chain_key, image, out, call.options)
    prepared = _fast.lookup(k)
    return prepared if prepared is not None else _plan(image, call, out, k)


# ---- layer 2: int16 and float64 ----------------------------------------------------------------

def _converted(image, call, out, batched, flip):
    natural = _dtypes.natural_result(call.chain_key, call.chain_text, call.options, call.c_options)
    if natural and out is not None:
        _check_host_out(out, image)
    values = _dtypes.to_compute(image)
    if natural:
        result = _dtypes.from_compute(_computed(values, call, None, batched, flip), image.dtype, out)
    else:
        result = _computed(values, call, out, batched, flip)
    _report.note_conversion(_dtypes.describe(image.dtype, natural, result.dtype))
    return result


def _check_host_out(out, image):
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray for a NumPy image, not {type(out).__name__}")
    _arrays.check_out(out, image.shape, image.dtype)
    if not out.flags.writeable:
        raise ValueError("out is read-only")
    if np.may_share_memory(image, out):
        raise ValueError("out overlaps the image; give an output array of its own")


# ---- layer 3: the image flipped (convolve() with registry filters) -----------------------------

def _kind(obj):
    return _fast._kind(obj)


def _stream_context(like, stream):
    """A context in which CuPy or PyTorch work runs on the stream the filter runs on."""
    device = like.device.id if _kind(like) == "cupy" else like.device.index
    allocator = _device._Allocator(like, device, None)
    handle = _device._stream_handle(stream)
    allocator.stream = handle if handle is not None else allocator.default_stream()
    return allocator._on_stream()


def _reversed(array, batched):
    """array with its image rows and columns reversed, as a new contiguous array."""
    kind = _kind(array)
    if kind == "numpy":
        view = array[:, ::-1, ::-1] if batched else array[::-1, ::-1]
        return np.ascontiguousarray(view)
    if kind == "torch":
        import torch
        return torch.flip(array, dims=(1, 2) if batched else (0, 1))
    if kind == "cupy":
        import cupy
        view = array[:, ::-1, ::-1] if batched else array[::-1, ::-1]
        return cupy.ascontiguousarray(view)
    raise TypeError(f"convolve() with a registry filter flips the image, which it does for NumPy, CuPy and "
                    f"PyTorch arrays only, not {type(array).__name__} (give a custom kernel, or one of those)")


def _flipped(image, call, out, batched):
    kind = _kind(image)
    shape = _shape(image)
    if shape is None or len(shape) < 2 or (kind not in ("numpy", "cupy", "torch") and
                                           not _arrays.is_device_array(image)):
        return native(image, call, out)  # not an image: its own error
    if kind not in ("numpy", "cupy", "torch"):
        _reversed(image, batched)  # raises the TypeError that says why
    if kind == "numpy":
        if out is not None and not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray for a NumPy image, not {type(out).__name__}")
        result = _computed(_reversed(image, batched), call, None, batched, False)
        if out is None:
            return _reversed(result, batched)
        _arrays.check_out(out, result.shape, result.dtype)
        if not out.flags.writeable:
            raise ValueError("out is read-only")
        if np.may_share_memory(image, out):
            raise ValueError("out overlaps the image; give an output array of its own")
        np.copyto(out, result[:, ::-1, ::-1] if batched else result[::-1, ::-1])
        return out
    with _stream_context(image, call.stream):
        source = _reversed(image, batched)
    result = _computed(source, call, None, batched, False)
    with _stream_context(image, call.stream):
        if out is None:
            return _reversed(result, batched)
        if not _arrays.is_device_array(out):
            raise TypeError(f"out must be a device array like the image, not {type(out).__name__}")
        _arrays.check_out(out, tuple(result.shape), _result_dtype(result))
        if kind == "torch":
            out.copy_(_reversed(result, batched))
        else:
            out[...] = result[:, ::-1, ::-1] if batched else result[::-1, ::-1]
    return out


def _result_dtype(array):
    if _kind(array) == "torch":
        return np.dtype(str(array.dtype).replace("torch.", ""))
    return np.dtype(array.dtype)


# ---- layer 4: batches --------------------------------------------------------------------------

def _shape(obj) -> Optional[Tuple[int, ...]]:
    shape = getattr(obj, "shape", None)
    if shape is None and hasattr(obj, "__cuda_array_interface__"):
        shape = obj.__cuda_array_interface__.get("shape")
    try:
        return tuple(int(n) for n in shape) if shape is not None else None
    except TypeError:
        return None


def _is_batch(image, batch):
    """Whether the image is a batch: batch=None takes 4-D arrays (NxHxWxC) as batches,
    batch=True takes 3-D (NxHxW) and 4-D ones, batch=False none."""
    if batch is not None and not isinstance(batch, (bool, np.bool_)):
        raise TypeError(f"batch must be True, False or None, not {type(batch).__name__}")
    shape = _shape(image)
    if shape is None:
        return False
    if batch is None:
        return len(shape) == 4
    if not batch:
        return False
    if len(shape) not in (3, 4):
        raise ValueError(f"batch=True takes an NxHxW or NxHxWxC array; the image has shape {shape}")
    return True


def _allocate(like, shape, dtype, stream):
    kind = _kind(like)
    if kind == "numpy":
        return np.empty(shape, dtype)
    if kind in ("cupy", "torch"):
        device = like.device.id if kind == "cupy" else like.device.index
        allocator = _device._Allocator(like, device, None)
        handle = _device._stream_handle(stream)
        allocator.stream = handle if handle is not None else allocator.default_stream()
        return allocator.empty(shape, dtype)
    raise TypeError(f"{type(like).__name__} arrays need out= (tessera allocates results with NumPy, CuPy or "
                    "PyTorch only)")


def _batch(images, call, out):
    """Each image of the batch filtered as it would be alone, with one plan, into one array."""
    kind = _kind(images)
    if kind not in ("numpy", "cupy", "torch"):
        raise TypeError(f"a batch must be a NumPy array, a CuPy array or a PyTorch CUDA tensor, not "
                        f"{type(images).__name__}")
    shape = _shape(images)
    count = shape[0]
    if count == 0:
        raise ValueError(f"the batch is empty (shape {shape})")
    if out is not None:
        out_shape = _shape(out)
        if out_shape is None or len(out_shape) != len(shape) or out_shape[0] != count:
            raise ValueError(f"out has shape {out_shape}; the result has shape {shape}")
        if kind == "numpy" and isinstance(out, np.ndarray) and np.may_share_memory(images, out):
            raise ValueError("out overlaps the image; give an output array of its own")
    prepared = prepare(images[0], call, None if out is None else out[0])
    if out is None:
        out = _allocate(images, shape, prepared.dtype, call.stream)
    else:
        _arrays.check_out(out, shape, prepared.dtype)
    for i in range(count):
        native(images[i], call, out[i])
    return out
