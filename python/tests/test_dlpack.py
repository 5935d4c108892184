# SPDX-License-Identifier: Apache-2.0
"""Any DLPack producer: host ones through numpy.from_dlpack, CUDA ones through CuPy or PyTorch
(stood in for here by modules that record the call), the result as the producer's kind of array
where it has a way back."""

import sys
import types

import numpy as np
import pytest

import tessera
from conftest import random_image

KDL_CPU, KDL_CUDA, KDL_METAL = 1, 2, 8


class Producer:
    """Only the DLPack protocol, over a NumPy array."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, *args, **kwargs):
        return self._array.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


class ProducerWithWayBack(Producer):
    """A producer whose type takes DLPack in too, as array libraries' types do."""

    @classmethod
    def from_dlpack(cls, other):
        return cls(np.from_dlpack(other))


class Elsewhere:
    """A producer on another device (the capsule is never asked for)."""

    def __init__(self, device_type, device_id=0):
        self.device = (device_type, device_id)

    def __dlpack__(self, *args, **kwargs):
        raise AssertionError("the capsule of an array tessera cannot read must not be taken")

    def __dlpack_device__(self):
        return self.device


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32, np.int16, np.float64])
def test_host_producer_comes_back_as_numpy(rng, dtype):
    image = (rng.normal(0, 300, (20, 24, 3)) if np.dtype(dtype).kind == "f" else
             rng.integers(0, 200, (20, 24, 3))).astype(dtype)
    got = tessera.apply(Producer(image), "gaussian", sigma=1.5, device="cpu")
    assert type(got) is np.ndarray and got.dtype == image.dtype
    np.testing.assert_array_equal(got, tessera.apply(image, "gaussian", sigma=1.5, device="cpu"))


def test_producer_with_a_way_back_gets_its_own_kind(rng):
    image = random_image(rng, (16, 18), np.float32)
    got = tessera.apply(ProducerWithWayBack(image), "box", device="cpu")
    assert type(got) is ProducerWithWayBack
    np.testing.assert_array_equal(got._array, tessera.apply(image, "box", device="cpu"))


def test_array_namespace_gives_the_way_back(rng):
    namespace = types.SimpleNamespace(from_dlpack=lambda other: ("made by the namespace", np.from_dlpack(other)))

    class WithNamespace(Producer):
        def __array_namespace__(self, api_version=None):
            return namespace

    image = random_image(rng, (10, 12), np.uint8)
    label, got = tessera.apply(WithNamespace(image), "box", device="cpu")
    assert label == "made by the namespace"
    np.testing.assert_array_equal(got, tessera.apply(image, "box", device="cpu"))


def test_producer_is_read_in_place(rng):
    big = random_image(rng, (30, 40, 4), np.uint8)
    crop = big[5:25, 3:33]
    np.testing.assert_array_equal(tessera.apply(Producer(crop), "box", device="cpu"),
                                  tessera.apply(np.ascontiguousarray(crop), "box", device="cpu"))


def writable_through_dlpack():
    """Whether NumPy imports writable memory writable: NumPy 2 with a DLPack 1.0 producer."""
    try:
        return np.from_dlpack(Producer(np.zeros(1))).flags.writeable
    except Exception:
        return False


def test_out_as_a_producer_is_written(rng):
    image = random_image(rng, (14, 15, 3), np.float32)
    target = np.zeros_like(image)
    out = Producer(target)
    tessera.apply(image, "box", device="cpu")  # the plan is remembered: out= is still looked at
    if not writable_through_dlpack():
        # NumPy 1.x imports every DLPack array read-only: out= is refused, saying why
        with pytest.raises(ValueError, match="read-only through DLPack"):
            tessera.apply(Producer(image), "box", out=out, device="cpu")
        with pytest.raises(ValueError, match="read-only through DLPack"):
            tessera.apply(image, "box", out=out, device="cpu")
        assert not target.any()
        return
    assert tessera.apply(Producer(image), "box", out=out, device="cpu") is out
    np.testing.assert_array_equal(target, tessera.apply(image, "box", device="cpu"))
    target[:] = 0
    assert tessera.apply(image, "box", out=out, device="cpu") is out
    np.testing.assert_array_equal(target, tessera.apply(image, "box", device="cpu"))


def test_batches_and_convolve_through_dlpack(rng):
    batch = random_image(rng, (3, 12, 13, 4), np.uint16)
    np.testing.assert_array_equal(tessera.apply(Producer(batch), "box", device="cpu"),
                                  tessera.apply(batch, "box", device="cpu"))
    image = random_image(rng, (12, 13), np.float32)
    np.testing.assert_array_equal(tessera.convolve(Producer(image), "sobel", dx=1, device="cpu"),
                                  tessera.convolve(image, "sobel", dx=1, device="cpu"))
    np.testing.assert_array_equal(tessera.convolve(Producer(image), kernel=[[1.0, 2.0, 0.0]], device="cpu"),
                                  tessera.convolve(image, kernel=[[1.0, 2.0, 0.0]], device="cpu"))


def test_errors_of_the_image_come_through(rng):
    with pytest.raises(TypeError, match="uint8, uint16 or float32"):
        tessera.apply(Producer(np.zeros((8, 8), np.int32)), "box")
    with pytest.raises(ValueError, match="channels"):
        tessera.apply(Producer(np.zeros((8, 8, 2), np.uint8)), "box")


def without_cupy_and_torch(monkeypatch):
    # A None entry in sys.modules makes `import name` fail with ImportError.
    monkeypatch.setitem(sys.modules, "cupy", None)
    monkeypatch.setitem(sys.modules, "torch", None)


def test_cuda_producer_without_cupy_or_torch_is_named(monkeypatch):
    without_cupy_and_torch(monkeypatch)
    with pytest.raises(TypeError) as error:
        tessera.apply(Elsewhere(KDL_CUDA, 1), "box")
    message = str(error.value)
    assert "Elsewhere" in message and "kDLCUDA" in message and "device 1" in message
    assert "CuPy" in message and "PyTorch" in message


def test_cuda_producer_goes_to_cupy_then_torch(monkeypatch, rng):
    image = random_image(rng, (9, 10), np.float32)
    calls = []

    def importer(name):
        def from_dlpack(obj):
            calls.append((name, obj))
            return image  # a stand-in: the real ones give a CuPy array or a CUDA tensor
        return types.SimpleNamespace(from_dlpack=from_dlpack)

    producer = Elsewhere(KDL_CUDA, 0)
    monkeypatch.setitem(sys.modules, "cupy", importer("cupy"))
    monkeypatch.setitem(sys.modules, "torch", importer("torch"))
    got = tessera.apply(producer, "box", device="cpu")
    assert calls == [("cupy", producer)]
    np.testing.assert_array_equal(got, tessera.apply(image, "box", device="cpu"))
    monkeypatch.setitem(sys.modules, "cupy", None)
    calls.clear()
    tessera.apply(producer, "box", device="cpu")
    assert calls == [("torch", producer)]


def test_other_devices_are_named(monkeypatch):
    with pytest.raises(TypeError, match=r"Elsewhere on kDLMetal, device 0.*host memory"):
        tessera.apply(Elsewhere(KDL_METAL), "box")
    with pytest.raises(TypeError, match="device type 99"):
        tessera.apply(Elsewhere(99, 3), "box")

    class Broken(Producer):
        def __dlpack_device__(self):
            raise RuntimeError("no device today")

    with pytest.raises(TypeError, match="no device today"):
        tessera.apply(Broken(np.zeros((4, 4), np.uint8)), "box")


def test_numpy_arrays_do_not_take_the_dlpack_path(monkeypatch, rng):
    from tessera import _dlpack
    assert not _dlpack.is_foreign(np.zeros((2, 2)))
    assert _dlpack.is_foreign(Producer(np.zeros((2, 2))))
    assert not _dlpack.is_foreign([[1, 2], [3, 4]])
