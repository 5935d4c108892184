# SPDX-License-Identifier: Apache-2.0
"""The key of remembered device calls (python/tessera/_fast.py), with stand-ins for CuPy arrays
and PyTorch tensors: the calls themselves need a GPU and are checked by gpu_check.py."""

import numpy as np
import pytest

import tessera
from tessera import _fast


class _Device:
    def __init__(self, id):
        self.id = id


class FakeCupy:
    """Looks like a cupy.ndarray to the key: its type lives in a module named cupy."""

    __module__ = "cupy._core.core"

    def __init__(self, shape=(8, 9, 4), strides=None, dtype=np.uint8, device=0):
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self.strides = strides or tuple(int(s) for s in np.empty(shape, dtype).strides)
        self.device = _Device(device)
        self.data = object()


OPTIONS = ("reflect101", None, None, None, None, "auto", "auto", 0)


def test_same_call_same_key():
    a, b = FakeCupy(), FakeCupy()
    assert _fast.key("t", a, b, OPTIONS) == _fast.key("t", FakeCupy(), FakeCupy(), OPTIONS)


@pytest.mark.parametrize("change", [
    dict(shape=(8, 10, 4)), dict(strides=(64, 4, 1)), dict(dtype=np.float32), dict(device=1)])
def test_geometry_is_in_the_key(change):
    assert _fast.key("t", FakeCupy(), None, OPTIONS) != _fast.key("t", FakeCupy(**change), None, OPTIONS)
    assert _fast.key("t", FakeCupy(), FakeCupy(), OPTIONS) != _fast.key("t", FakeCupy(), FakeCupy(**change), OPTIONS)


def test_text_and_options_are_in_the_key():
    a = FakeCupy()
    assert _fast.key("t", a, None, OPTIONS) != _fast.key("u", a, None, OPTIONS)
    other = ("wrap",) + OPTIONS[1:]
    assert _fast.key("t", a, None, OPTIONS) != _fast.key("t", a, None, other)


def test_values_equal_to_checked_ones_but_of_another_type_get_their_own_key():
    a = FakeCupy()
    one = ("reflect101", 1, None, None, None, "auto", "auto", 0)
    true = ("reflect101", True, None, None, None, "auto", "auto", 0)
    assert _fast.key("t", a, None, one) != _fast.key("t", a, None, true)


def test_no_key_for_host_arrays_unknown_outputs_or_unhashable_options():
    assert _fast.key("t", np.zeros((4, 4), np.uint8), None, OPTIONS) is None
    assert _fast.key("t", FakeCupy(), np.zeros((8, 9, 4), np.uint8), OPTIONS) is None
    unhashable = ("reflect101", [1], None, None, None, "auto", "auto", 0)
    assert _fast.key("t", FakeCupy(), None, unhashable) is None


def test_nothing_is_remembered_without_a_gpu_and_host_calls_never_hit():
    hits = _fast.hits
    image = np.zeros((16, 16), np.uint8)
    for _ in range(3):
        tessera.apply(image, "box", device="cpu")
    assert _fast.hits == hits
