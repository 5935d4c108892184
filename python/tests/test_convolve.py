# SPDX-License-Identifier: Apache-2.0
"""tessera.convolve against a NumPy implementation of true convolution (scipy.ndimage.convolve's
definition, written here from the formula): out[y, x] = sum k[j, i] * img[y - j + ay, x - i + ax]."""

import numpy as np
import pytest

import tessera
from tessera import _pipeline
from conftest import BORDERS, CHANNELS, DTYPES, random_image

# numpy.pad's names for the borders (the same as OpenCV's while the kernel is smaller than the image)
PAD_MODES = {"reflect101": "reflect", "reflect": "symmetric", "replicate": "edge", "constant": "constant",
             "wrap": "wrap"}
ASYMMETRIC = np.array([[1.0, -2.0, 0.5, 4.0], [0.25, 3.0, -1.0, 0.0], [0.0, 1.0, 2.0, -3.0]]) / 8.0


def convolution(image, kernel, anchor=None, border="reflect101", border_value=0.0):
    """True 2-D convolution in float64, the kernel's element `anchor` (x, y) lying over the output
    pixel (default the centre, (w // 2, h // 2), as scipy.ndimage.convolve places it)."""
    kernel = np.asarray(kernel, np.float64)
    kh, kw = kernel.shape
    ax, ay = anchor if anchor is not None else (kw // 2, kh // 2)
    src = image.astype(np.float64)
    flat = src.ndim == 2
    if flat:
        src = src[:, :, None]
    h, w = src.shape[:2]
    # img[y - j + ay] for j in 0..kh-1 reaches from y - (kh - 1 - ay) to y + ay
    before_y, after_y, before_x, after_x = kh - 1 - ay, ay, kw - 1 - ax, ax
    pad = ((before_y, after_y), (before_x, after_x), (0, 0))
    if border == "constant":
        padded = np.pad(src, pad, mode="constant", constant_values=border_value)
    else:
        padded = np.pad(src, pad, mode=PAD_MODES[border])
    out = np.zeros(src.shape)
    for j in range(kh):
        for i in range(kw):
            # padded index of img[y - j + ay] is y - j + ay + before_y = y + (kh - 1 - j)
            out += kernel[j, i] * padded[kh - 1 - j:kh - 1 - j + h, kw - 1 - i:kw - 1 - i + w]
    return out[:, :, 0] if flat else out


def as_output(values, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "u":
        info = np.iinfo(dtype)
        return np.clip(np.rint(values), info.min, info.max)
    return values


def check(got, expected, image, kernel):
    tolerance = 1.0 if got.dtype.kind in "ui" else 1e-5 * np.abs(kernel).sum() * max(1.0, np.abs(image).max())
    difference = np.abs(got.astype(np.float64) - as_output(expected, got.dtype)).max()
    assert difference <= tolerance, f"largest difference {difference}"


def test_the_reference_is_a_convolution():
    # a delta image gives back the kernel itself (not flipped) around the delta
    image = np.zeros((9, 11))
    image[4, 5] = 1.0
    out = convolution(image, ASYMMETRIC, border="constant")
    np.testing.assert_array_equal(out[3:6, 3:7], ASYMMETRIC)


@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("channels", CHANNELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_matches_true_convolution(rng, dtype, channels, border):
    image = random_image(rng, (21, 27, channels), dtype)
    got = tessera.convolve(image, kernel=ASYMMETRIC, border=border, border_value=9.0, device="cpu")
    value = 9.0 if border == "constant" else 0.0
    check(got, convolution(image, ASYMMETRIC, border=border, border_value=value), image, ASYMMETRIC)
    assert got.dtype == image.dtype


@pytest.mark.parametrize("anchor", [None, (0, 0), (3, 2), (1, 0), (2, 1)])
def test_anchors_are_mirrored(rng, anchor):
    image = random_image(rng, (18, 20), np.float32)
    got = tessera.convolve(image, kernel=ASYMMETRIC, anchor=anchor, border="wrap", device="cpu")
    check(got, convolution(image, ASYMMETRIC, anchor, border="wrap"), image, ASYMMETRIC)


def test_delta_gives_the_kernel_unflipped():
    image = np.zeros((9, 11), np.float32)
    image[4, 5] = 1.0
    got = tessera.convolve(image, kernel=ASYMMETRIC, border="constant", device="cpu")
    np.testing.assert_allclose(got[3:6, 3:7], ASYMMETRIC, atol=1e-6)
    correlated = tessera.apply(image, kernel=ASYMMETRIC, border="constant", device="cpu")
    np.testing.assert_allclose(correlated[3:6, 4:8], ASYMMETRIC[::-1, ::-1], atol=1e-6)


def test_differs_from_apply_for_asymmetric_kernels_only(rng):
    image = random_image(rng, (20, 20, 3), np.float32)
    assert not np.allclose(tessera.convolve(image, kernel=ASYMMETRIC, device="cpu"),
                           tessera.apply(image, kernel=ASYMMETRIC, device="cpu"))
    symmetric = np.outer([1.0, 2.0, 1.0], [1.0, 4.0, 6.0, 4.0, 1.0]) / 64
    np.testing.assert_array_equal(tessera.convolve(image, kernel=symmetric, device="cpu"),
                                  tessera.apply(image, kernel=symmetric, device="cpu"))
    np.testing.assert_array_equal(tessera.convolve(image, "gaussian", sigma=2.0, device="cpu"),
                                  tessera.apply(image, "gaussian", sigma=2.0, device="cpu"))


def registry_kernel(filter_id, **params):
    """A registry filter's weights, read back from apply() on a delta image (a correlation
    gives the kernel flipped around the delta)."""
    image = np.zeros((31, 31), np.float32)
    image[15, 15] = 1.0
    step = tessera.Chain([tessera.Filter(filter_id, **params)]).steps[0]
    kw, kh = step["kernel_size"]
    ax, ay = step["anchor"]
    out = tessera.apply(image, filter_id, border="constant", device="cpu", **params).astype(np.float64)
    return out[15 + ay - kh + 1:15 + ay + 1, 15 + ax - kw + 1:15 + ax + 1][::-1, ::-1], (ax, ay)


@pytest.mark.parametrize("filter_id, params", [("sobel", {"dx": 1, "dy": 0}), ("sobel", {"dx": 0, "dy": 1}),
                                               ("scharr", {"dx": 1, "dy": 0}), ("emboss", {"angle": 30.0}),
                                               ("box", {"size": 4}), ("motion_blur", {"length": 6, "angle": 20.0})])
@pytest.mark.parametrize("border", BORDERS)
def test_registry_filters(rng, filter_id, params, border):
    kernel, anchor = registry_kernel(filter_id, **params)
    image = random_image(rng, (22, 25, 3), np.float32)
    got = tessera.convolve(image, filter_id, border=border, device="cpu", **params)
    check(got, convolution(image, kernel, anchor, border=border), image, kernel)


def test_registry_filter_with_an_anchor(rng):
    image = random_image(rng, (16, 19), np.float32)
    kernel = np.ones((4, 4)) / 16
    got = tessera.convolve(image, "box", size=4, anchor=(0, 3), border="replicate", device="cpu")
    check(got, convolution(image, kernel, (0, 3), border="replicate"), image, kernel)


@pytest.mark.parametrize("dtype", DTYPES)
def test_both_ways_agree(rng, dtype):
    """Custom kernels are flipped; a chain with an asymmetric registry step flips the image instead."""
    image = random_image(rng, (24, 30, 4), dtype)
    direct = tessera.convolve(image, kernel=ASYMMETRIC, anchor=(1, 2), device="cpu")
    options = (None, None, None, None, None, "cpu", "auto", 0)
    flipped_image = _pipeline.run(image, None, ASYMMETRIC, (1, 2), {}, options, None, None, None, True)
    if dtype == np.float32:
        np.testing.assert_allclose(direct, flipped_image, rtol=1e-6, atol=1e-5)
    else:
        assert np.abs(direct.astype(np.int64) - flipped_image).max() <= 1


def test_chains_of_custom_kernels(rng):
    image = random_image(rng, (20, 22), np.float32)
    second = np.array([[0.0, 1.0], [-1.0, 0.5]])
    chain = tessera.Chain([tessera.Filter(kernel=ASYMMETRIC, anchor=(3, 0)), second])
    expected = convolution(convolution(image, ASYMMETRIC, (3, 0)), second)
    check(tessera.convolve(image, chain, device="cpu"), expected, image, np.abs(ASYMMETRIC).sum() * second)
    check(tessera.convolve(image, [ASYMMETRIC, second], device="cpu"),
          convolution(convolution(image, ASYMMETRIC), second), image, np.abs(ASYMMETRIC).sum() * second)
    check(tessera.convolve(image, tessera.Filter(kernel=second), device="cpu"), convolution(image, second),
          image, second)


def test_out_batches_and_converted_dtypes(rng):
    image = random_image(rng, (3, 14, 15, 3), np.float32)
    out = np.empty_like(image)
    assert tessera.convolve(image, "sobel", dx=1, out=out, device="cpu") is out
    np.testing.assert_array_equal(out, np.stack([tessera.convolve(i, "sobel", dx=1, device="cpu") for i in image]))
    out = np.empty_like(image)
    assert tessera.convolve(image, kernel=ASYMMETRIC, out=out, device="cpu") is out
    np.testing.assert_array_equal(out, np.stack([tessera.convolve(i, kernel=ASYMMETRIC, device="cpu")
                                                 for i in image]))
    f64 = rng.normal(size=(14, 15))
    got = tessera.convolve(f64, "sobel", dx=1, device="cpu")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, tessera.convolve(f64.astype(np.float32), "sobel", dx=1,
                                                        device="cpu").astype(np.float64))
    i16 = rng.integers(-2000, 2000, (14, 15), dtype=np.int16)
    got = tessera.convolve(i16, kernel=ASYMMETRIC, device="cpu")
    assert got.dtype == np.int16
    check(got, convolution(i16, ASYMMETRIC), i16, ASYMMETRIC)


def test_bad_arguments():
    image = np.zeros((8, 8), np.float32)
    with pytest.raises(ValueError, match="anchor"):
        tessera.convolve(image, kernel=ASYMMETRIC, anchor=(4, 0))
    with pytest.raises(TypeError, match="not both"):
        tessera.convolve(image, "box", kernel=ASYMMETRIC)
    with pytest.raises(TypeError, match="needs a filter"):
        tessera.convolve(image)
    with pytest.raises(TypeError, match="carries its own"):
        tessera.convolve(image, tessera.Filter(kernel=ASYMMETRIC), anchor=(0, 0))
    with pytest.raises(ValueError, match="nosuch"):
        tessera.convolve(image, "nosuch")
    with pytest.raises(TypeError, match="numpy.ndarray"):
        tessera.convolve([[1.0]], "box")
    with pytest.raises(ValueError, match="shape"):
        tessera.convolve(np.zeros(8, np.float32), "sobel")
    with pytest.raises(ValueError, match="channels"):
        tessera.convolve(np.zeros((8, 8, 2), np.float32), "sobel")
    with pytest.raises(TypeError, match="out"):
        tessera.convolve(image, "box", out=[0.0] * 64)
