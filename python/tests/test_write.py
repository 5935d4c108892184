# SPDX-License-Identifier: Apache-2.0
"""tessera.write: each format's quality or compression reaches the file, colours go in the
order asked, and what a format cannot hold is refused naming the file."""

import struct

import numpy as np
import pytest

import tessera

cv2 = pytest.importorskip("cv2", reason="python3-opencv reads the written files back")


def photo(rows=64, cols=80):
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (rows, cols, 3), np.uint8)
    return cv2.GaussianBlur(image, (0, 0), 1.5)


def luminance_dc(path):
    """The first value of a JPEG's first quantisation table (16 at quality 50 in libjpeg's scaling)."""
    data = path.read_bytes()
    at = data.index(b"\xff\xdb")
    assert data[at + 4] >> 4 == 0, "8-bit table"
    return data[at + 5]


def test_jpeg_quality_is_written_and_said(tmp_path):
    image = photo()
    low, high = tmp_path / "low.jpg", tmp_path / "high.jpg"
    assert tessera.write(low, image, quality=50) == "JPEG quality 50"
    assert tessera.write(high, image, quality="95") == "JPEG quality 95"
    assert luminance_dc(low) == 16
    assert luminance_dc(high) == 2
    assert low.stat().st_size < high.stat().st_size
    assert tessera.write(tmp_path / "default.jpg", image) == "JPEG quality 92"


def test_rgb_order_is_the_default_and_bgr_is_opencvs(tmp_path):
    image = np.zeros((8, 8, 3), np.uint8)
    image[..., 0] = 255  # red in RGB, blue in BGR
    tessera.write(tmp_path / "rgb.png", image)
    tessera.write(tmp_path / "bgr.png", image, order="bgr")
    assert image[0, 0].tolist() == [255, 0, 0], "the caller's array is never written"
    assert cv2.imread(str(tmp_path / "rgb.png"))[0, 0].tolist() == [0, 0, 255]
    assert cv2.imread(str(tmp_path / "bgr.png"))[0, 0].tolist() == [255, 0, 0]


def test_png_level_and_tiff_compression(tmp_path):
    image = photo()
    assert tessera.write(tmp_path / "fast.png", image, compression=0) == "PNG compression level 0"
    assert tessera.write(tmp_path / "small.png", image, compression=9) == "PNG compression level 9"
    assert (tmp_path / "small.png").stat().st_size < (tmp_path / "fast.png").stat().st_size
    for scheme, tag in (("none", 1), ("lzw", 5), ("deflate", 8)):
        out = tmp_path / f"{scheme}.tif"
        tessera.write(out, image, compression=scheme)
        data = out.read_bytes()
        assert data[:2] == b"II"
        ifd = struct.unpack_from("<I", data, 4)[0]
        entries = struct.unpack_from("<H", data, ifd)[0]
        tags = {struct.unpack_from("<H", data, ifd + 2 + 12 * i)[0]: struct.unpack_from("<H", data, ifd + 2 + 12 * i + 8)[0]
                for i in range(entries)}
        assert tags[259] == tag, scheme
        assert np.array_equal(cv2.imread(str(out))[..., ::-1], image)


def test_webp_lossless_by_default_and_lossy_with_a_quality(tmp_path):
    image = photo()
    assert tessera.write(tmp_path / "a.webp", image) == "WebP lossless"
    assert tessera.write(tmp_path / "b.webp", image, quality=60) == "WebP quality 60"
    assert b"VP8L" in (tmp_path / "a.webp").read_bytes()
    assert b"VP8L" not in (tmp_path / "b.webp").read_bytes()
    assert np.array_equal(cv2.imread(str(tmp_path / "a.webp"))[..., ::-1], image)


def test_bad_choices_and_formats_are_refused(tmp_path):
    image = photo()
    with pytest.raises(ValueError, match="out of range"):
        tessera.write(tmp_path / "x.jpg", image, quality=0)
    with pytest.raises(ValueError, match="compression 'fast'"):
        tessera.write(tmp_path / "x.png", image, compression="fast")
    with pytest.raises(ValueError, match="x.jpg"):
        tessera.write(tmp_path / "x.jpg", image.astype(np.float32))
    with pytest.raises(ValueError, match="order"):
        tessera.write(tmp_path / "x.png", image, order="grb")
    assert not list(tmp_path.iterdir())
