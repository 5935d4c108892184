# SPDX-License-Identifier: Apache-2.0
"""Batches, convolve() and DLPack with CuPy arrays, PyTorch tensors and JAX arrays on a GPU
(skipped where those libraries or a GPU are missing), compared with the host results."""

import numpy as np
import pytest

import tessera
from conftest import random_image

ASYMMETRIC = np.array([[1.0, -2.0, 0.5, 4.0], [0.25, 3.0, -1.0, 0.0], [0.0, 1.0, 2.0, -3.0]]) / 8.0


def _cupy():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("no GPU for CuPy")
    except Exception as e:  # no driver
        pytest.skip(f"CuPy sees no GPU: {e}")
    if tessera.devices()["device_count"] < 1:
        pytest.skip("tessera sees no GPU")
    return cupy


def _torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available() or tessera.devices()["device_count"] < 1:
        pytest.skip("no CUDA device for PyTorch or tessera")
    return torch


def close(got, expected):
    """GPU and CPU results agree: within float32 rounding, and one step for integer results."""
    got = np.asarray(got)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    slack = 1.0 if got.dtype.kind == "u" else 0.0
    difference = np.abs(got.astype(np.float64) - expected.astype(np.float64)).max()
    assert difference <= 1e-4 * max(1.0, float(np.abs(expected).max())) + slack


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_cupy_batch(rng, dtype):
    cupy = _cupy()
    batch = random_image(rng, (4, 33, 47, 3), dtype)
    x = cupy.asarray(batch)
    got = tessera.apply(x, "gaussian", sigma=1.7)
    assert isinstance(got, cupy.ndarray) and got.shape == x.shape and got.dtype == x.dtype
    for i in range(4):
        cupy.testing.assert_array_equal(got[i], tessera.apply(x[i], "gaussian", sigma=1.7))
    out = cupy.empty_like(x)
    assert tessera.apply(x, "gaussian", sigma=1.7, out=out) is out
    cupy.testing.assert_array_equal(out, got)
    close(got.get(), tessera.apply(batch, "gaussian", sigma=1.7, device="cpu"))


def test_torch_batch(rng):
    torch = _torch()
    batch = random_image(rng, (3, 20, 30), np.float32)
    t = torch.from_numpy(batch).cuda()
    got = tessera.apply(t, "box", size=5, batch=True)
    assert isinstance(got, torch.Tensor) and got.is_cuda and tuple(got.shape) == batch.shape
    for i in range(3):
        assert torch.equal(got[i], tessera.apply(t[i], "box", size=5))
    close(got.cpu().numpy(), tessera.apply(batch, "box", size=5, batch=True, device="cpu"))


@pytest.mark.parametrize("filter_args", [("sobel", {"dx": 1}), (None, {"kernel": ASYMMETRIC, "anchor": (1, 2)})])
def test_cupy_convolve_on_a_stream(rng, filter_args):
    cupy = _cupy()
    filter, kwargs = filter_args
    image = random_image(rng, (2, 40, 50, 4), np.float32)
    expected = tessera.convolve(image, filter, device="cpu", **kwargs)
    x = cupy.asarray(image)
    close(tessera.convolve(x, filter, **kwargs).get(), expected)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        y = x * 1  # queued on the stream: convolve() must see it
    out = cupy.empty_like(x)
    tessera.convolve(y, filter, out=out, stream=stream, **kwargs)
    stream.synchronize()
    close(out.get(), expected)


def test_torch_convolve(rng):
    torch = _torch()
    image = random_image(rng, (40, 50), np.float32)
    got = tessera.convolve(torch.from_numpy(image).cuda(), "emboss", angle=30.0)
    close(got.cpu().numpy(), tessera.convolve(image, "emboss", angle=30.0, device="cpu"))


def test_cuda_dlpack_producer_goes_through_cupy(rng):
    cupy = _cupy()

    class Producer:
        def __init__(self, array):
            self._array = array

        def __dlpack__(self, *args, **kwargs):
            return self._array.__dlpack__(*args, **kwargs)

        def __dlpack_device__(self):
            return self._array.__dlpack_device__()

    image = random_image(rng, (30, 31, 4), np.uint8)
    got = tessera.apply(Producer(cupy.asarray(image)), "box")
    assert isinstance(got, cupy.ndarray)
    close(got.get(), tessera.apply(image, "box", device="cpu"))


def test_jax_array_comes_back_as_jax(rng):
    jax = pytest.importorskip("jax")
    _cupy()
    try:
        gpu = jax.devices("gpu")[0]
    except Exception:
        pytest.skip("no GPU for JAX")
    image = random_image(rng, (24, 25), np.float32)
    x = jax.device_put(image, gpu)
    got = tessera.apply(x, "gaussian", sigma=1.2)
    assert isinstance(got, jax.Array)
    close(np.asarray(got), tessera.apply(image, "gaussian", sigma=1.2, device="cpu"))


def test_torch_cpu_tensor_comes_back_as_a_tensor(rng):
    torch = pytest.importorskip("torch")
    image = random_image(rng, (20, 22, 3), np.uint16)
    got = tessera.apply(torch.from_numpy(image), "box", device="cpu")
    assert isinstance(got, torch.Tensor) and not got.is_cuda
    np.testing.assert_array_equal(got.numpy(), tessera.apply(image, "box", device="cpu"))


def test_device_float64_is_refused_with_a_hint():
    cupy = _cupy()
    with pytest.raises(TypeError, match="NumPy images only"):
        tessera.apply(cupy.zeros((8, 8), cupy.float64), "box")
