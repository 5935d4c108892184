# SPDX-License-Identifier: Apache-2.0
"""A float64 NumPy reference for the cv::filter2D rules: correlation with the kernel placed
at its anchor, the border made up by the named rule, then scale, offset, rounding to nearest
and saturation into the output depth."""

import numpy as np

_PAD_MODES = {"reflect101": "reflect", "reflect": "symmetric", "replicate": "edge", "wrap": "wrap",
              "constant": "constant"}
_LIMITS = {np.dtype(np.uint8): (0, 255), np.dtype(np.uint16): (0, 65535)}
_DEPTH_DTYPES = {"u8": np.uint8, "u16": np.uint16, "f32": np.float32}


def saturate(values, dtype):
    dtype = np.dtype(dtype)
    if dtype in _LIMITS:
        lo, hi = _LIMITS[dtype]
        return np.clip(np.rint(values), lo, hi).astype(dtype)
    return values.astype(dtype)


def correlate(image, kernel, anchor=None, border="reflect101", border_value=0.0, scale=1.0, offset=0.0,
              depth="same"):
    """The filtered image, as cv::filter2D computes it, in float64 until the final rounding."""
    kernel = np.asarray(kernel, np.float64)
    kh, kw = kernel.shape
    ax, ay = anchor if anchor is not None else (kw // 2, kh // 2)
    flat = image.ndim == 2
    src = image[:, :, None] if flat else image
    pad = ((ay, kh - 1 - ay), (ax, kw - 1 - ax), (0, 0))
    if border == "constant":
        # The border value is saturated to the input's depth first.
        value = float(saturate(np.array([border_value]), image.dtype)[0])
        padded = np.pad(src.astype(np.float64), pad, mode="constant", constant_values=value)
    else:
        padded = np.pad(src.astype(np.float64), pad, mode=_PAD_MODES[border])
    h, w = src.shape[:2]
    acc = np.zeros(src.shape, np.float64)
    for j in range(kh):
        for i in range(kw):
            if kernel[j, i] != 0.0:
                acc += kernel[j, i] * padded[j:j + h, i:i + w]
    acc = acc * scale + offset
    out_dtype = image.dtype if depth == "same" else _DEPTH_DTYPES[depth]
    result = saturate(acc, out_dtype)
    return result[:, :, 0] if flat else result


def tolerance(image, kernel, out_dtype):
    """How far a float32 computation may stray from the float64 reference."""
    if np.dtype(out_dtype) in _LIMITS:
        return 1.0
    magnitude = float(np.abs(np.asarray(kernel)).sum()) * max(1.0, float(np.abs(image).max()))
    return 1e-5 * magnitude + 1e-6
