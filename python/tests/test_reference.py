# SPDX-License-Identifier: Apache-2.0
"""tessera.apply against a float64 NumPy implementation of the cv::filter2D rules."""

import numpy as np
import pytest

import tessera
from conftest import BORDERS, CHANNELS, DTYPES, random_image
from reference import correlate, tolerance

KERNELS = {
    "3x3 asymmetric": (np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0], [0.0, 1.0, 2.0]]) / 4.0, None),
    "5x2 anchored": (np.arange(10, dtype=np.float64).reshape(2, 5) / 45.0, (4, 0)),
    "1x7 row": (np.array([[1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 1.0]]) / 16.0, (1, 0)),
    "4x4 even": (np.ones((4, 4)) / 16.0, None),
}


def check(got, expected, image, kernel):
    assert got.shape == expected.shape and got.dtype == expected.dtype
    diff = np.abs(got.astype(np.float64) - expected.astype(np.float64))
    assert diff.max() <= tolerance(image, kernel, expected.dtype), f"largest difference {diff.max()}"


@pytest.mark.parametrize("kernel_name", list(KERNELS))
@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("channels", CHANNELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_matches_reference(rng, dtype, channels, border, kernel_name):
    kernel, anchor = KERNELS[kernel_name]
    image = random_image(rng, (23, 31, channels), dtype)
    got = tessera.apply(image, kernel=kernel, anchor=anchor, border=border, border_value=11.0, device="cpu")
    check(got, correlate(image, kernel, anchor, border, 11.0), image, kernel)


@pytest.mark.parametrize("depth", ["same", "u8", "u16", "f32"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_scale_offset_depth(rng, dtype, depth):
    kernel = np.array([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]])
    image = random_image(rng, (19, 27), dtype)
    got = tessera.apply(image, kernel=kernel, scale=0.75, offset=40.5, depth=depth, device="cpu")
    check(got, correlate(image, kernel, None, "reflect101", 0.0, 0.75, 40.5, depth), image, kernel)


def test_two_dimensional_and_single_channel_shapes_are_kept(rng):
    image = random_image(rng, (16, 16), np.uint8)
    assert tessera.apply(image, "box", device="cpu").shape == (16, 16)
    assert tessera.apply(image[:, :, None], "box", device="cpu").shape == (16, 16, 1)


def test_chain_equals_steps_one_after_another(rng):
    image = random_image(rng, (40, 30, 3), np.uint16)
    steps = [tessera.Filter("gaussian", sigma=2.0), tessera.Filter(kernel=[[0, -1, 0], [-1, 5, -1], [0, -1, 0]])]
    once = tessera.apply(image, tessera.Chain(steps), device="cpu")
    step = image
    for s in steps:
        step = tessera.apply(step, s, device="cpu")
    np.testing.assert_array_equal(once, step)


def test_identity_is_exact(rng):
    for dtype in DTYPES:
        image = random_image(rng, (9, 13, 4), dtype)
        np.testing.assert_array_equal(tessera.apply(image, kernel=[[1.0]], device="cpu"), image)
