# SPDX-License-Identifier: Apache-2.0
"""Property tests (Hypothesis) of tessera.apply on the CPU against the float64 reference:
random small images, kernels and options; option values that differ only in their last bits;
NaN and infinity pixels, which must reach exactly the outputs whose window holds them."""

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tessera
from conftest import BORDERS
from reference import correlate

# Small and quick: the whole file runs in seconds on two cores. No example database: a run
# leaves nothing behind in the source or build tree.
FAST = settings(max_examples=50, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
# For a test expected to fail for now: report the first failing example without shrinking it,
# which would take minutes.
UNSHRUNK = settings(FAST, phases=[Phase.explicit, Phase.generate])


def weights(min_abs=0.0):
    """Kernel weights in [-2, 2]; with min_abs, none nearer zero than that."""
    if min_abs == 0.0:
        return st.floats(-2.0, 2.0, width=32)
    magnitudes = st.floats(min_abs, 2.0, width=32)
    return st.tuples(magnitudes, st.booleans()).map(lambda m: -m[0] if m[1] else m[0])


@st.composite
def kernels(draw, max_side, min_abs=0.0):
    kh = draw(st.integers(1, max_side))
    kw = draw(st.integers(1, max_side))
    kernel = draw(hnp.arrays(np.float64, (kh, kw), elements=weights(min_abs)))
    anchor = draw(st.none() | st.tuples(st.integers(0, kw - 1), st.integers(0, kh - 1)))
    return kernel, anchor


@st.composite
def images(draw, dtype, max_side=12, elements=None):
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    channels = draw(st.sampled_from([None, 1, 3, 4]))
    shape = (h, w) if channels is None else (h, w, channels)
    if elements is None:
        elements = (st.floats(-1000.0, 1000.0, width=32) if dtype == np.float32 else st.integers(0, 255))
    return draw(hnp.arrays(dtype, shape, elements=elements))


def bound(image, kernel, scale, offset, border_value, out_dtype):
    """How far the float32 computation may stray from the float64 reference: the tests'
    tolerance (reference.tolerance) with scale, offset and the border value in the magnitude,
    plus one step of rounding for integer outputs."""
    largest = max(1.0, float(np.abs(image.astype(np.float64)).max()), abs(border_value))
    magnitude = abs(scale) * float(np.abs(kernel).sum()) * largest + abs(offset)
    slack = 1e-5 * magnitude + 1e-6
    return slack + 1.0 if np.dtype(out_dtype).kind == "u" else slack


@FAST
@given(data=st.data(), dtype=st.sampled_from([np.float32, np.uint8]), border=st.sampled_from(BORDERS),
       scale=st.floats(-2.0, 2.0, width=32), offset=st.floats(-50.0, 50.0, width=32),
       border_value=st.floats(-300.0, 300.0, width=32))
def test_apply_matches_the_float64_reference(data, dtype, border, scale, offset, border_value):
    image = data.draw(images(dtype))
    kernel, anchor = data.draw(kernels(5))
    got = tessera.apply(image, kernel=kernel, anchor=anchor, border=border, border_value=border_value, scale=scale,
                        offset=offset, device="cpu")
    expected = correlate(image, kernel, anchor, border, border_value, scale, offset)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    diff = np.abs(got.astype(np.float64) - expected.astype(np.float64))
    assert diff.max() <= bound(image, kernel, scale, offset, border_value, dtype), f"largest difference {diff.max()}"


def float32_straddle(value):
    """Doubles one bit below, at and one bit above the midpoint between float32(value) and the
    next float32 away from zero; what each rounds to in float32 (the midpoint ties to even)."""
    low = np.float32(value)
    high = np.nextafter(low, np.float32(np.copysign(np.inf, value)))
    middle = (float(low) + float(high)) / 2.0  # exact in double
    below = float(np.nextafter(middle, float(low)))
    above = float(np.nextafter(middle, float(high)))
    return [below, middle, above]


@FAST
@given(option=st.sampled_from(["scale", "offset", "border_value"]),
       value=st.floats(2.0 ** -10, 2.0 ** 14, width=32) | st.floats(-(2.0 ** 14), -(2.0 ** -10), width=32),
       order=st.permutations([0, 1, 2]), width=st.integers(2, 9))
def test_options_a_bit_apart_each_get_their_own_result(option, value, order, width):
    """Three calls whose option differs only in the last bits of a double, in any order: each
    result is the reference's for its own value (exactly: the sums are exact here), so no call
    is ever answered with a neighbour's result."""
    candidates = float32_straddle(value)
    if option == "scale":
        image, call = np.ones((2, width), np.float32), dict(kernel=[[1.0]])
    elif option == "offset":
        image, call = np.zeros((2, width), np.float32), dict(kernel=[[1.0]])
    else:
        image, call = np.zeros((2, width), np.float32), dict(kernel=[[0.0, 1.0]], anchor=(0, 0), border="constant")
    reference_options = dict(call)
    reference_options.pop("kernel")
    for i in order:
        v = candidates[i]
        got = tessera.apply(image, device="cpu", **call, **{option: v})
        expected = correlate(image, call["kernel"], **reference_options, **{option: v})
        np.testing.assert_array_equal(got, expected, err_msg=f"{option}={v!r}")
    # The two outer values round to different float32 values: the calls really were different.
    assert np.float32(candidates[0]) != np.float32(candidates[2])


def non_finite_image(draw, max_side):
    image = draw(images(np.float32, max_side, st.floats(-100.0, 100.0, width=32)))
    flat = image.reshape(-1)
    count = draw(st.integers(1, 3))
    positions = draw(st.lists(st.integers(0, flat.size - 1), min_size=count, max_size=count))
    for p in positions:
        flat[p] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    return image


def check_non_finite_reach(image, kernel, anchor, border):
    got = tessera.apply(image, kernel=kernel, anchor=anchor, border=border, border_value=3.0, device="cpu")
    with np.errstate(invalid="ignore"):
        expected = correlate(image, kernel, anchor, border, 3.0)
    for name, test in (("NaN", np.isnan), ("+inf", np.isposinf), ("-inf", np.isneginf)):
        wrong = test(got) != test(expected)
        assert not wrong.any(), f"{int(wrong.sum())} outputs disagree on {name}, first at {np.argwhere(wrong)[0]}"
    finite = np.isfinite(expected)
    diff = np.abs(got[finite].astype(np.float64) - expected[finite])
    limit = 1e-5 * float(np.abs(kernel).sum()) * 100.0 + 1e-6
    assert diff.size == 0 or diff.max() <= limit, f"largest finite difference {diff.max()}"


@FAST
@given(data=st.data(), border=st.sampled_from(BORDERS))
def test_non_finite_pixels_reach_only_their_windows(data, border):
    """Every weight is non-zero (a zero weight times infinity is NaN in a sum that keeps it and
    nothing in one that skips it), so a window holding a NaN or an infinity gives NaN or an
    infinity, as the float64 reference says, and every other output stays finite."""
    image = non_finite_image(data.draw, 12)
    kernel, anchor = data.draw(kernels(5, min_abs=2.0 ** -4))
    check_non_finite_reach(image, kernel, anchor, border)


@UNSHRUNK
@given(data=st.data(), border=st.sampled_from(BORDERS))
def test_non_finite_pixels_reach_only_their_windows_large_kernels(data, border):
    """As above with kernels up to 17 x 17, where filter2D may switch to its DFT route."""
    image = non_finite_image(data.draw, 24)
    kernel, anchor = data.draw(kernels(17, min_abs=2.0 ** -4))
    check_non_finite_reach(image, kernel, anchor, border)
