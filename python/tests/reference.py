# SPDX-License-Identifier: Apache-2.0
"""A float64 NumPy reference for the cv::filter2D rules: correlation with the kernel placed
at its anchor, the border made up by the named rule, then scale, offset, rounding to nearest
and saturation into the output depth."""

import numpy as np

_LIMITS = {np.dtype(np.uint8): (0, 255), np.dtype(np.uint16): (0, 65535)}
_DEPTH_DTYPES = {"u8": np.uint8, "u16": np.uint16, "f32": np.float32}


def _source_index(p, n, border):
    """The source index cv::borderInterpolate gives for position p of an axis of n samples
    (None: the constant border). Repeated reflections follow OpenCV, whose phase differs from
    numpy.pad's for borders wider than the image."""
    if 0 <= p < n:
        return p
    if border == "constant":
        return None
    if border == "replicate":
        return 0 if p < 0 else n - 1
    if border == "wrap":
        return p % n
    if n == 1:
        return 0
    delta = 1 if border == "reflect101" else 0
    while not 0 <= p < n:
        p = -p - 1 + delta if p < 0 else n - 1 - (p - n) - delta
    return p


def _pad(src, before_y, after_y, before_x, after_x, border, value):
    """src (h, w, c) extended by the border rule, as copyMakeBorder does."""
    h, w = src.shape[:2]
    rows = [_source_index(y, h, border) for y in range(-before_y, h + after_y)]
    cols = [_source_index(x, w, border) for x in range(-before_x, w + after_x)]
    out = src[np.ix_([r or 0 for r in rows], [c or 0 for c in cols])]
    out[[r is None for r in rows], :] = value
    out[:, [c is None for c in cols]] = value
    return out


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
    # The border value is saturated to the input's depth first.
    value = float(saturate(np.array([border_value]), image.dtype)[0]) if border == "constant" else 0.0
    padded = _pad(src.astype(np.float64), ay, kh - 1 - ay, ax, kw - 1 - ax, border, value)
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
