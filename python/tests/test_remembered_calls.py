# SPDX-License-Identifier: Apache-2.0
"""The key of remembered calls (python/tessera/_fast.py), the one cache of plans: host calls run
here; for device calls stand-ins for CuPy arrays and PyTorch tensors check the key, and the
calls themselves need a GPU and are checked by gpu_check.py."""

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
T = ("json", "t")  # a chain key as apply() makes it for a chain given as JSON


def test_same_call_same_key():
    a, b = FakeCupy(), FakeCupy()
    assert _fast.key(T, a, b, OPTIONS) == _fast.key(T, FakeCupy(), FakeCupy(), OPTIONS)


@pytest.mark.parametrize("change", [
    dict(shape=(8, 10, 4)), dict(strides=(64, 4, 1)), dict(dtype=np.float32), dict(device=1)])
def test_geometry_is_in_the_key(change):
    assert _fast.key(T, FakeCupy(), None, OPTIONS) != _fast.key(T, FakeCupy(**change), None, OPTIONS)
    assert _fast.key(T, FakeCupy(), FakeCupy(), OPTIONS) != _fast.key(T, FakeCupy(), FakeCupy(**change), OPTIONS)


def test_text_and_options_are_in_the_key():
    a = FakeCupy()
    assert _fast.key(T, a, None, OPTIONS) != _fast.key(("json", "u"), a, None, OPTIONS)
    other = ("wrap",) + OPTIONS[1:]
    assert _fast.key(T, a, None, OPTIONS) != _fast.key(T, a, None, other)


def test_values_equal_to_checked_ones_but_of_another_type_get_their_own_key():
    a = FakeCupy()
    one = ("reflect101", 1, None, None, None, "auto", "auto", 0)
    true = ("reflect101", True, None, None, None, "auto", "auto", 0)
    assert _fast.key(T, a, None, one) != _fast.key(T, a, None, true)


def test_no_key_for_unknown_outputs_unhashable_options_or_unkeyable_chains():
    assert _fast.key(T, FakeCupy(), np.zeros((8, 9, 4), np.uint8), OPTIONS) is None
    unhashable = ("reflect101", [1], None, None, None, "auto", "auto", 0)
    assert _fast.key(T, FakeCupy(), None, unhashable) is None
    assert _fast.key(None, np.zeros((4, 4), np.uint8), None, OPTIONS) is None


def test_host_keys_hold_shape_and_dtype_but_not_the_output():
    image = np.zeros((4, 5), np.uint8)
    key = _fast.key(T, image, None, OPTIONS)
    assert key is not None
    assert key == _fast.key(T, np.ones((4, 5), np.uint8), np.zeros((4, 5), np.uint8), OPTIONS)
    assert key != _fast.key(T, np.zeros((5, 4), np.uint8), None, OPTIONS)
    assert key != _fast.key(T, np.zeros((4, 5), np.uint16), None, OPTIONS)
    assert key != _fast.key(T, np.zeros((4, 5, 1), np.uint8), None, OPTIONS)


def _plans_of(call):
    """The remembered plans that a call adds or takes, by identity."""
    before = {id(p): p for p in _fast._plans.values()}
    call()
    return [p for p in _fast._plans.values() if id(p) not in before]


def test_a_repeated_host_call_runs_the_same_plan():
    image = np.arange(16 * 16, dtype=np.uint8).reshape(16, 16)
    sigma = 1.1
    new = _plans_of(lambda: tessera.apply(image, "gaussian", sigma=sigma, device="cpu"))
    assert len(new) == 1
    handle = new[0].handle
    hits = _fast.hits
    for _ in range(3):
        again = _plans_of(lambda: tessera.apply(image, "gaussian", sigma=sigma, device="cpu"))
        assert again == []
    assert _fast.hits == hits + 3
    key = _fast.key(_fast.filter_key("gaussian", None, None, {"sigma": sigma}), image, None,
                    (None, None, None, None, None, "cpu", "auto", 0))
    assert _fast.lookup(key) is new[0] and new[0].handle == handle


def test_a_value_one_bit_apart_gets_a_plan_of_its_own():
    image = np.full((9, 9), 200, np.uint8)
    sigma = 1.3
    nudged = float(np.nextafter(sigma, 2.0))
    first = _plans_of(lambda: tessera.apply(image, "gaussian", sigma=sigma, device="cpu"))
    second = _plans_of(lambda: tessera.apply(image, "gaussian", sigma=nudged, device="cpu"))
    assert len(first) == 1 and len(second) == 1
    assert first[0].handle != second[0].handle
    # The same holds for the options and for chains given as objects (keyed by their JSON).
    scale = 0.5
    one = _plans_of(lambda: tessera.apply(image, "box", scale=scale, device="cpu"))
    other = _plans_of(lambda: tessera.apply(image, "box", scale=float(np.nextafter(scale, 1.0)), device="cpu"))
    assert len(one) == 1 and len(other) == 1
    chain = tessera.Chain([tessera.Filter("gaussian", sigma=sigma)])
    nudged_chain = tessera.Chain([tessera.Filter("gaussian", sigma=nudged)])
    a = _plans_of(lambda: tessera.apply(image, chain, device="cpu"))
    b = _plans_of(lambda: tessera.apply(image, nudged_chain, device="cpu"))
    c = _plans_of(lambda: tessera.apply(image, chain, device="cpu"))
    assert len(a) == 1 and len(b) == 1 and c == []
