# SPDX-License-Identifier: Apache-2.0
"""Remembered chains and plans are keyed exactly: calls whose options differ only in the last
bit of a double, or whose kernels are object arrays, never get each other's results."""

from fractions import Fraction

import numpy as np
import pytest

import tessera
from tessera import _args, _fast
from test_remembered_calls import OPTIONS, T, FakeCupy


def float32_neighbours(value):
    """Three doubles around the midpoint between float32(value) and the next float32 up: one
    below it (rounds down to float32), the midpoint itself (ties to even) and one above it
    (rounds up). They differ only in their last bits."""
    low = np.float32(value)
    high = np.nextafter(low, np.float32(np.inf))
    middle = (float(low) + float(high)) / 2.0  # exact in double
    return [float(np.nextafter(middle, -np.inf)), middle, float(np.nextafter(middle, np.inf))], low, high


def test_the_issue_example_scale_below_a_millionth():
    image = np.full((6, 6), 100.0, np.float32)
    first = tessera.apply(image, "box", scale=1e-7, device="cpu")
    second = tessera.apply(image, "box", scale=3e-7, device="cpu")
    np.testing.assert_allclose(first, np.float32(1e-5), rtol=1e-6)
    np.testing.assert_allclose(second, np.float32(3e-5), rtol=1e-6)


@pytest.mark.parametrize("option", ["scale", "offset", "border_value"])
def test_options_one_bit_apart_give_their_own_results(option):
    values, low, high = float32_neighbours(1.0 + 2.0 ** -20)
    expected = {values[0]: low, values[2]: high}
    if option == "scale":
        image, call = np.ones((3, 4), np.float32), dict(kernel=[[1.0]])
    elif option == "offset":
        image, call = np.zeros((3, 4), np.float32), dict(kernel=[[1.0]])
    else:
        # The right column reads the constant border.
        image, call = np.zeros((3, 4), np.float32), dict(kernel=[[0.0, 1.0]], anchor=(0, 0), border="constant")
    # Both orders: whichever comes first must not be handed to the other.
    for order in (values, values[::-1]):
        for value in order:
            got = tessera.apply(image, device="cpu", **call, **{option: value})
            probe = got[0, -1]
            if value in expected:
                assert probe == expected[value], f"{option}={value!r} gave {probe!r}"
            else:
                assert probe in (low, high)


def test_object_kernels_are_keyed_by_their_values():
    image = np.ones((5, 5), np.float32)
    for i in range(24):
        # A fresh float object each time, freed with its array: its address comes back soon.
        kernel = np.array([[float(i) + 0.5]], dtype=object)
        got = tessera.apply(image, kernel=kernel, device="cpu")[2, 2]
        assert abs(got - (i + 0.5)) <= 1e-5 * (i + 0.5), f"kernel {i + 0.5} gave {got}"
        del kernel


def test_object_kernels_of_fractions_run_as_float64():
    image = np.ones((4, 4), np.float32)
    kernel = np.array([[Fraction(1, 3), Fraction(2, 3)]], dtype=object)
    np.testing.assert_array_equal(tessera.apply(image, kernel=kernel, device="cpu"),
                                  tessera.apply(image, kernel=np.array([[1 / 3, 2 / 3]]), device="cpu"))


def test_exact_keys_tell_apart_last_bits_and_signed_zeros():
    x = 0.1
    assert _args.exact(x) != _args.exact(float(np.nextafter(x, 1.0)))
    assert _args.exact(0.0) != _args.exact(-0.0)
    assert _args.exact(np.float32(0.0)) != _args.exact(np.float32(-0.0))
    assert _args.exact(1) != _args.exact(True) and _args.exact(1) != _args.exact(1.0)
    assert _args.exact((0.5, "a")) == _args.exact((0.5, "a"))
    with pytest.raises(TypeError):
        _args.exact([1])


@pytest.mark.parametrize("index", [1, 2, 3])  # border_value, scale, offset
def test_device_call_keys_tell_apart_last_bits_and_signed_zeros(index):
    def options(value):
        changed = list(OPTIONS)
        changed[index] = value
        return tuple(changed)

    image = FakeCupy()
    assert _fast.key(T, image, None, options(1e-7)) != _fast.key(T, image, None, options(3e-7))
    nudged = float(np.nextafter(0.75, 1.0))
    assert _fast.key(T, image, None, options(0.75)) != _fast.key(T, image, None, options(nudged))
    assert _fast.key(T, image, None, options(0.0)) != _fast.key(T, image, None, options(-0.0))
    assert _fast.key(T, image, None, options(0.75)) == _fast.key(T, image, None, options(0.75))


def test_filter_parameters_one_bit_apart_get_their_own_chain():
    sigma = 1.25
    nudged = float(np.nextafter(sigma, 2.0))
    first = tessera._chain_text("gaussian", None, None, {"sigma": sigma})
    second = tessera._chain_text("gaussian", None, None, {"sigma": nudged})
    assert first != second and repr(nudged) in second
