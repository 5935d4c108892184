# SPDX-License-Identifier: Apache-2.0
"""Batches: NxHxWxC (and NxHxW with batch=True) in one call, each image computed exactly as it
would be alone, with one plan."""

import numpy as np
import pytest

import tessera
from tessera import _fast
from conftest import CHANNELS, DTYPES, random_image


def alone(batch, *args, **kwargs):
    return np.stack([tessera.apply(image, *args, **kwargs) for image in batch])


@pytest.mark.parametrize("channels", CHANNELS)
@pytest.mark.parametrize("dtype", DTYPES + [np.int16, np.float64])
def test_each_image_as_alone(rng, dtype, channels):
    if dtype == np.int16:
        batch = rng.integers(-32768, 32768, (5, 17, 23, channels), dtype=np.int16)
    elif dtype == np.float64:
        batch = rng.normal(size=(5, 17, 23, channels))
    else:
        batch = random_image(rng, (5, 17, 23, channels), dtype)
    got = tessera.apply(batch, "gaussian", sigma=1.3, border="reflect", device="cpu")
    assert got.shape == batch.shape and got.dtype == batch.dtype
    np.testing.assert_array_equal(got, alone(batch, "gaussian", sigma=1.3, border="reflect", device="cpu"))


def test_images_differ_and_stay_in_their_place(rng):
    batch = np.zeros((4, 9, 9), np.float32)
    for i in range(4):
        batch[i, 4, 4] = i + 1
    got = tessera.apply(batch, "box", batch=True, device="cpu")
    for i in range(4):
        assert got[i, 4, 4] == pytest.approx((i + 1) / 9)
        assert got[i].sum() == pytest.approx(i + 1)


def test_single_channel_stack_needs_batch_true(rng):
    stack = random_image(rng, (6, 20, 3), np.uint8)  # also an HxWxC image: 6 rows of 20 RGB pixels
    as_image = tessera.apply(stack, "box", device="cpu")
    as_batch = tessera.apply(stack, "box", batch=True, device="cpu")
    np.testing.assert_array_equal(as_image, tessera.apply(stack, "box", batch=False, device="cpu"))
    np.testing.assert_array_equal(as_batch, alone(stack, "box", device="cpu"))
    assert not np.array_equal(as_image, as_batch)
    grey = random_image(rng, (3, 30, 40), np.uint16)
    np.testing.assert_array_equal(tessera.apply(grey, kernel=np.arange(6.0).reshape(2, 3) / 15, batch=True,
                                                device="cpu"),
                                  alone(grey, kernel=np.arange(6.0).reshape(2, 3) / 15, device="cpu"))
    with pytest.raises(ValueError, match="batch=True"):
        tessera.apply(grey[0, 0], "box", batch=True)  # a single row: no stack of images


def test_chain_options_and_depth(rng):
    batch = random_image(rng, (3, 16, 18, 4), np.uint8)
    chain = tessera.Chain(["box", tessera.Filter("sobel", dx=1, dy=0)])
    kwargs = dict(border="constant", border_value=7, scale=0.5, offset=3, depth="f32", device="cpu")
    got = tessera.apply(batch, chain, **kwargs)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, alone(batch, chain, **kwargs))


def test_out_is_written_and_returned(rng):
    batch = random_image(rng, (4, 12, 15, 3), np.float32)
    out = np.full(batch.shape, np.nan, np.float32)
    assert tessera.apply(batch, "box", size=5, out=out, device="cpu") is out
    np.testing.assert_array_equal(out, alone(batch, "box", size=5, device="cpu"))
    # out may be a view as well: every other image of a larger batch
    big = np.zeros((8, 12, 15, 3), np.float32)
    tessera.apply(batch, "box", size=5, out=big[::2], device="cpu")
    np.testing.assert_array_equal(big[::2], out)
    assert not big[1::2].any()


def test_views_are_read_in_place(rng):
    big = random_image(rng, (6, 30, 40, 4), np.uint8)
    view = big[1:5, 3:25, 7:31]
    np.testing.assert_array_equal(tessera.apply(view, "gaussian", device="cpu"),
                                  alone(np.ascontiguousarray(view), "gaussian", device="cpu"))


def test_one_plan_for_the_batch(rng):
    batch = random_image(rng, (7, 10, 11), np.float32)
    before = set(map(id, _fast._plans.values()))
    hits = _fast.hits
    tessera.apply(batch, kernel=[[0.123, 0.5, 0.377]], batch=True, device="cpu")
    assert len([p for p in _fast._plans.values() if id(p) not in before]) == 1
    assert _fast.hits - hits == 7  # each image ran the remembered plan


def test_report_is_the_last_images(rng):
    tessera.apply(random_image(rng, (2, 9, 13), np.uint8), "box", batch=True, device="cpu")
    assert "13 x 9" in tessera.last_run().plan


def test_bad_batches(rng):
    batch = random_image(rng, (3, 8, 8, 3), np.uint8)
    with pytest.raises(ValueError, match="shape"):
        tessera.apply(batch, "box", batch=False)
    with pytest.raises(TypeError, match="batch must be"):
        tessera.apply(batch, "box", batch="yes")
    with pytest.raises(ValueError, match="batch=True"):
        tessera.apply(np.zeros((8, 8), np.uint8), "box", batch=True)
    with pytest.raises(ValueError, match="empty"):
        tessera.apply(np.zeros((0, 8, 8, 3), np.uint8), "box")
    with pytest.raises(ValueError, match="channels"):
        tessera.apply(np.zeros((3, 8, 8, 2), np.uint8), "box")
    with pytest.raises(ValueError, match="shape"):
        tessera.apply(batch, "box", out=np.zeros((2, 8, 8, 3), np.uint8))
    with pytest.raises(ValueError, match="shape"):
        tessera.apply(batch, "box", out=np.zeros((3, 8, 8), np.uint8))
    with pytest.raises(TypeError, match="dtype"):
        tessera.apply(batch, "box", out=np.zeros((3, 8, 8, 3), np.float32))
    with pytest.raises(ValueError, match="overlaps"):
        tessera.apply(batch, "box", out=batch[::-1])
