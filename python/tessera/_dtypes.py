# SPDX-License-Identifier: Apache-2.0
"""NumPy dtypes the library does not compute in, converted on the host.

The library computes uint8, uint16 and float32 images. Two more dtypes are taken from NumPy
(and host DLPack producers) and computed in float32:

- float64: converted to float32 (values beyond float32's range become infinite); the result is
  float64, holding the float32 result's values exactly.
- int16 (signed, as OpenCV's CV_16S): converted to float32 exactly; the result is int16, each
  value rounded to the nearest integer (ties to even, as cvRound) and saturated to
  [-32768, 32767], as an int16 output of cv::filter2D is.

That holds when no depth is named anywhere: depth= left unset (or "same"/"keep") and no step of
the chain naming a depth of its own. A named depth ("u8", "u16", "f32") is the result's dtype, as
for any other image. Between the steps of a chain the values stay float32 (they are rounded
once, at the end).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _args, _lib

COMPUTE = np.dtype(np.float32)
CONVERTED: Tuple[np.dtype, ...] = (np.dtype(np.float64), np.dtype(np.int16))
_INT16 = np.dtype(np.int16)
_LIMIT = 256
_natural: Dict[Any, bool] = {}


def is_converted(dtype: Any) -> bool:
    return dtype in CONVERTED


def to_compute(image: np.ndarray) -> np.ndarray:
    """A float32 copy of an int16 or float64 image (of any shape: a batch too)."""
    with np.errstate(over="ignore"):
        return image.astype(COMPUTE)


def keeps_input_depth(steps) -> bool:
    """Whether a chain (describe_chain's steps, the options applied) writes its input's depth:
    no step names a depth of its own."""
    return all(step.get("depth") in ("same", "keep", None) for step in steps)


def natural_result(chain_key: Any, text_of, options: Tuple, c_options_of) -> bool:
    """Whether a converted image's result goes back to its own dtype (no depth named anywhere),
    remembered per chain and options."""
    depth = options[4]
    if depth in ("u8", "u16", "f32"):
        return False
    key = None
    if chain_key is not None:
        try:
            key = (chain_key, _args.exact(tuple(options)))
            hash(key)
        except TypeError:
            key = None
    if key is not None and key in _natural:
        return _natural[key]
    result = keeps_input_depth(_lib.describe_chain(text_of(), c_options_of()))
    if key is not None:
        if len(_natural) >= _LIMIT:
            _natural.clear()
        _natural[key] = result
    return result


def from_compute(values: np.ndarray, dtype: np.dtype, out: Optional[np.ndarray] = None) -> np.ndarray:
    """A float32 result in the input's dtype: float64 exactly; int16 rounded (ties to even) and
    saturated. Written into out when given (values may be overwritten)."""
    if dtype == _INT16:
        np.rint(values, out=values)
        np.clip(values, -32768, 32767, out=values)
    if out is None:
        with np.errstate(invalid="ignore"):
            return values.astype(dtype)
    with np.errstate(invalid="ignore"):
        np.copyto(out, values, casting="unsafe")
    return out


def describe(dtype: np.dtype, natural: bool, result: np.dtype) -> str:
    """The conversion in words, for RunReport.conversion."""
    if not natural:
        return f"{dtype} -> float32, result in the named depth ({result})"
    if dtype == _INT16:
        return "int16 -> float32, result rounded and saturated to int16"
    return f"{dtype} -> float32, result as {dtype}"
