# SPDX-License-Identifier: Apache-2.0
"""What the device path checks before it reaches a GPU, with stand-ins for CUDA arrays (objects
that only carry __cuda_array_interface__), so it runs on machines without CuPy or a GPU."""

import numpy as np
import pytest

import tessera
from tessera import _arrays, _device


class FakeCudaArray:
    def __init__(self, shape, typestr="|u1", strides=None, pointer=1 << 20):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "strides": strides,
                                         "data": (pointer, False), "version": 3}


def test_device_arrays_are_told_apart_from_host_arrays():
    assert _arrays.is_device_array(FakeCudaArray((4, 4)))
    assert not _arrays.is_device_array(np.zeros((4, 4), np.uint8))


def test_layout_of_a_device_crop():
    # A 10x20 RGBA8 crop at (2, 3) of a 32x64 image: the row stride is the parent's.
    crop = FakeCudaArray((10, 20, 4), "|u1", (64 * 4, 4, 1), pointer=(1 << 20) + 2 * 256 + 3 * 4)
    layout, producer = _arrays.device_layout(crop)
    assert (layout.height, layout.width, layout.channels, layout.row_stride) == (10, 20, 4, 256)
    assert layout.data == (1 << 20) + 524 and producer is None


def test_device_dtype_errors():
    for typestr in ("<i4", "<f8", "|i1", "<f2"):
        with pytest.raises(TypeError, match="uint8, uint16 or float32"):
            tessera.apply(FakeCudaArray((8, 8), typestr), "box")


def test_device_layout_errors():
    with pytest.raises(ValueError, match="interleaved"):
        tessera.apply(FakeCudaArray((8, 8, 3), "|u1", (8, 1, 64)), "box")
    with pytest.raises(ValueError, match="contiguous within a row"):
        tessera.apply(FakeCudaArray((8, 8), "<f4", (64, 8)), "box")
    with pytest.raises(ValueError, match="channels"):
        tessera.apply(FakeCudaArray((3, 8, 8)), "box")
    with pytest.raises(ValueError, match="shape"):
        tessera.apply(FakeCudaArray((8,)), "box")


def test_other_device_arrays_need_out():
    with pytest.raises(TypeError, match="out="):
        tessera.apply(FakeCudaArray((8, 8)), "box")


def test_streams_are_read_from_ints_and_stream_objects():
    class CupyLike:
        ptr = 1234

    class TorchLike:
        cuda_stream = 5678

    assert _device._stream_handle(None) is None
    assert _device._stream_handle(42) == 42
    assert _device._stream_handle(CupyLike()) == 1234
    assert _device._stream_handle(TorchLike()) == 5678
    with pytest.raises(TypeError, match="stream"):
        _device._stream_handle("default")
    assert _device._same_stream(0, 1) and not _device._same_stream(0, 2)


def test_without_a_gpu_a_device_array_is_refused_by_cuda():
    if tessera.devices()["device_count"] > 0:
        pytest.skip("this machine has a GPU")
    image, out = FakeCudaArray((8, 8)), FakeCudaArray((8, 8), pointer=1 << 21)
    with pytest.raises((RuntimeError, ValueError)):
        tessera.apply(image, "box", out=out)
