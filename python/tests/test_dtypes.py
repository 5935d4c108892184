# SPDX-License-Identifier: Apache-2.0
"""float64 and int16 NumPy images: computed as float32 and given back in their own dtype (or the
depth asked for), agreeing with the same computation done in float32 by hand."""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tessera
from conftest import BORDERS, CHANNELS
from reference import correlate

FAST = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
KERNEL = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0], [0.0, 1.0, 2.0]]) / 4.0


def int16_image(rng, shape):
    return rng.integers(-32768, 32768, shape, dtype=np.int16)


def float64_image(rng, shape):
    return rng.normal(0.0, 100.0, shape)


def by_hand_int16(values32):
    """An int16 output as cv::filter2D writes one: rounded to nearest (ties to even), saturated."""
    return np.clip(np.rint(values32.astype(np.float64)), -32768, 32767).astype(np.int16)


@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("channels", CHANNELS)
def test_float64_is_the_float32_result_exactly(rng, channels, border):
    image = float64_image(rng, (21, 26, channels))
    kwargs = dict(kernel=KERNEL, anchor=(0, 2), border=border, border_value=3.5, device="cpu")
    got = tessera.apply(image, **kwargs)
    assert tessera.last_run().conversion == "float64 -> float32, result as float64"
    expected = tessera.apply(image.astype(np.float32), **kwargs).astype(np.float64)
    assert got.dtype == np.float64 and got.shape == image.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("channels", CHANNELS)
def test_int16_is_the_float32_result_rounded_and_saturated(rng, channels, border):
    image = int16_image(rng, (19, 24, channels))
    kwargs = dict(border=border, scale=9.3, offset=-3.0, device="cpu")
    got = tessera.apply(image, "gaussian", sigma=1.5, **kwargs)
    assert tessera.last_run().conversion == "int16 -> float32, result rounded and saturated to int16"
    by_hand = tessera.apply(image.astype(np.float32), "gaussian", sigma=1.5, **kwargs)
    assert got.dtype == np.int16 and got.shape == image.shape
    np.testing.assert_array_equal(got, by_hand_int16(by_hand))
    # scale 9.3 on the full int16 range saturates somewhere at both ends
    assert (got == 32767).any() and (got == -32768).any()


def test_int16_rounds_ties_to_even():
    # x + 0.5 is exact in float32 for these: every result is a tie
    image = np.array([[0, 1, 2, 3, -1, -2, -3, 32766, -32768]], np.int16)
    got = tessera.apply(image, kernel=[[1.0]], offset=0.5, device="cpu")
    np.testing.assert_array_equal(got, np.array([[0, 2, 2, 4, 0, -2, -2, 32766, -32768]], np.int16))
    # as the library rounds its own integer outputs
    u8 = tessera.apply(np.array([[0, 1, 2, 3]], np.uint8), kernel=[[1.0]], offset=0.5, device="cpu")
    np.testing.assert_array_equal(u8, np.array([[0, 2, 2, 4]], np.uint8))


def test_int16_matches_the_float64_reference(rng):
    image = int16_image(rng, (17, 23, 3)) // 4
    got = tessera.apply(image, kernel=KERNEL, border="reflect", device="cpu")
    expected = correlate(image.astype(np.float64), KERNEL, border="reflect")
    expected = np.clip(np.rint(expected), -32768, 32767)
    assert np.abs(got.astype(np.float64) - expected).max() <= 1.0


@pytest.mark.parametrize("dtype", [np.int16, np.float64])
@pytest.mark.parametrize("depth", ["u8", "u16", "f32"])
def test_a_named_depth_is_the_result_dtype(rng, dtype, depth):
    image = int16_image(rng, (16, 20)) if dtype == np.int16 else float64_image(rng, (16, 20))
    got = tessera.apply(image, "box", size=5, depth=depth, device="cpu")
    assert tessera.last_run().conversion.endswith(f"result in the named depth ({got.dtype})")
    expected = tessera.apply(image.astype(np.float32), "box", size=5, depth=depth, device="cpu")
    assert got.dtype == expected.dtype == {"u8": np.uint8, "u16": np.uint16, "f32": np.float32}[depth]
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("depth", [None, "same", "keep"])
def test_same_depth_keeps_the_input_dtype(rng, depth):
    image = int16_image(rng, (12, 14))
    assert tessera.apply(image, "box", depth=depth, device="cpu").dtype == np.int16
    assert tessera.apply(image.astype(np.float64), "box", depth=depth, device="cpu").dtype == np.float64


def test_a_step_naming_a_depth_decides_the_result(rng):
    image = int16_image(rng, (12, 14))
    chain = tessera.Chain([tessera.Filter("box", depth="u16"), "gaussian"])
    got = tessera.apply(image, chain, device="cpu")
    assert got.dtype == np.uint16
    np.testing.assert_array_equal(got, tessera.apply(image.astype(np.float32), chain, device="cpu"))
    f32 = tessera.Chain(["box", tessera.Filter("gaussian", depth="f32")])
    assert tessera.apply(image, f32, device="cpu").dtype == np.float32
    # depth= on the call overrides the last step's own
    assert tessera.apply(image, f32, depth="same", device="cpu").dtype == np.int16


def test_chain_steps_stay_float32_between_steps(rng):
    image = int16_image(rng, (15, 18)) // 8
    chain = tessera.Chain([tessera.Filter(kernel=KERNEL), tessera.Filter(kernel=KERNEL.T)])
    got = tessera.apply(image, chain, device="cpu")
    by_hand = tessera.apply(image.astype(np.float32), chain, device="cpu")
    np.testing.assert_array_equal(got, by_hand_int16(by_hand))


def test_out_for_converted_dtypes(rng):
    image = float64_image(rng, (10, 12, 3))
    out = np.full(image.shape, np.nan)
    assert tessera.apply(image, "box", out=out, device="cpu") is out
    np.testing.assert_array_equal(out, tessera.apply(image, "box", device="cpu"))
    small = int16_image(rng, (10, 12))
    out16 = np.zeros((10, 12), np.int16)
    assert tessera.apply(small, "box", out=out16, device="cpu") is out16
    np.testing.assert_array_equal(out16, tessera.apply(small, "box", device="cpu"))
    named = np.zeros((10, 12), np.float32)
    assert tessera.apply(small, "box", depth="f32", out=named, device="cpu") is named
    with pytest.raises(TypeError, match="dtype"):
        tessera.apply(small, "box", out=np.zeros((10, 12), np.float32))
    with pytest.raises(ValueError, match="shape"):
        tessera.apply(small, "box", out=np.zeros((12, 10), np.int16))
    with pytest.raises(ValueError, match="overlaps"):
        tessera.apply(image, "box", out=image)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        tessera.apply(image, "box", out=[0.0] * 360)


def test_views_of_converted_dtypes_are_read(rng):
    big = float64_image(rng, (40, 50, 3))
    view = big[3:33:2, 5:45:3]  # a step along x: copied by the conversion anyway
    np.testing.assert_array_equal(tessera.apply(view, "box", device="cpu"),
                                  tessera.apply(np.ascontiguousarray(view), "box", device="cpu"))


def test_conversion_warns_about_nothing():
    image = np.array([[1e300, -1e300, 1.0], [np.nan, 2.0, 3.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = tessera.apply(image, kernel=[[1.0]], device="cpu")
        tessera.apply(np.array([[32767, -32768]], np.int16), kernel=[[1e30]], device="cpu")
    assert got[0, 0] == np.inf and got[0, 1] == -np.inf and np.isnan(got[1, 0]) and got[1, 2] == 3.0


def test_native_dtypes_report_no_conversion(rng):
    tessera.apply(int16_image(rng, (8, 8)), "box", device="cpu")
    assert tessera.last_run().conversion != ""
    tessera.apply(np.zeros((8, 8), np.uint8), "box", device="cpu")
    assert tessera.last_run().conversion == ""
    assert tessera.last_run().as_dict()["conversion"] == ""


def test_converted_dtypes_are_listed():
    assert tessera.CONVERTED_DTYPES == {np.dtype(np.float64): np.dtype(np.float32),
                                        np.dtype(np.int16): np.dtype(np.float32)}


def test_other_dtypes_are_still_type_errors():
    for dtype in (np.int8, np.int32, np.float16, np.uint32):
        with pytest.raises(TypeError, match="int16 or float64"):
            tessera.apply(np.zeros((8, 8), dtype), "box")


def test_device_arrays_are_not_converted():
    class FakeCudaArray:
        __cuda_array_interface__ = {"shape": (8, 8), "typestr": "<f8", "strides": None, "data": (1 << 20, False),
                                    "version": 3}

    with pytest.raises(TypeError, match="NumPy images only"):
        tessera.apply(FakeCudaArray(), "box")


@FAST
@given(image=hnp.arrays(np.int16, st.tuples(st.integers(1, 9), st.integers(1, 9)),
                        elements=st.integers(-32768, 32767)),
       kernel=hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)),
                         elements=st.floats(-3.0, 3.0)),
       border=st.sampled_from(BORDERS), scale=st.floats(-2.0, 2.0), offset=st.floats(-100.0, 100.0))
def test_int16_property(image, kernel, border, scale, offset):
    kwargs = dict(kernel=kernel, border=border, scale=scale, offset=offset, device="cpu")
    got = tessera.apply(image, **kwargs)
    np.testing.assert_array_equal(got, by_hand_int16(tessera.apply(image.astype(np.float32), **kwargs)))
    f64 = image.astype(np.float64) / 7.0
    np.testing.assert_array_equal(tessera.apply(f64, **kwargs),
                                  tessera.apply(f64.astype(np.float32), **kwargs).astype(np.float64))
