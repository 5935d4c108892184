# SPDX-License-Identifier: Apache-2.0
"""tessera.apply gives what `tessera-cli apply` writes, pixel for pixel, for every dtype,
channel count and border, and for presets; both run the CPU path here."""

import json
import os
import subprocess

import numpy as np
import pytest

import tessera
from conftest import BORDERS, CHANNELS, DTYPES, random_image

cv2 = pytest.importorskip("cv2", reason="python3-opencv writes and reads the CLI's TIFF files")

KERNEL = np.array([[0.5, -1.0, 0.25, 0.0], [1.0, 2.0, -0.5, 0.125], [0.0, 0.75, 1.5, -0.25]])
KERNEL_TEXT = ";".join(",".join(repr(float(v)) for v in row) for row in KERNEL)


def run_cli(cli, tmp_path, image, args):
    src = str(tmp_path / "in.tif")
    # Tessera's TIFFs declare their alpha as unassociated (straight), and OpenCV's TIFF reader
    # then multiplies the colours by it; PNG holds straight alpha for both, so integer images
    # with alpha come back through PNG.
    straight = image.ndim == 3 and image.shape[2] == 4 and image.dtype != np.float32 and "f32" not in args
    dst = str(tmp_path / ("out.png" if straight else "out.tif"))
    # Uncompressed: OpenCV would store three float channels as lossy LogLuv otherwise.
    assert cv2.imwrite(src, image, [cv2.IMWRITE_TIFF_COMPRESSION, 1])
    result = subprocess.run([cli, "apply", src, "-o", dst, "--device", "cpu", *args], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out = cv2.imread(dst, cv2.IMREAD_UNCHANGED)
    assert out is not None
    return out


def same_shape(out, image):
    """cv2 reads a one-channel file as HxW: compare HxWx1 results as HxW."""
    return out.reshape(image.shape[:2]) if out.ndim == 3 and out.shape[2] == 1 else out


@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("channels", CHANNELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_custom_kernel_matches_cli(cli, tmp_path, rng, dtype, channels, border):
    image = random_image(rng, (37, 53, channels) if channels > 1 else (37, 53), dtype)
    args = ["--kernel", KERNEL_TEXT, "--border", border, "--border-value", "7", "--scale", "0.5", "--offset", "3"]
    expected = run_cli(cli, tmp_path, image, args)
    got = tessera.apply(image, kernel=KERNEL, border=border, border_value=7, scale=0.5, offset=3, device="cpu")
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(same_shape(got, image), expected)


@pytest.mark.parametrize("depth", ["u8", "u16", "f32"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_depth_and_named_filter_match_cli(cli, tmp_path, rng, dtype, depth):
    image = random_image(rng, (41, 29, 3), dtype)
    expected = run_cli(cli, tmp_path, image, ["--filter", "gaussian", "--param", "sigma=1.7", "--depth", depth])
    got = tessera.apply(image, "gaussian", sigma=1.7, depth=depth, device="cpu")
    np.testing.assert_array_equal(got, expected)


def test_chain_matches_cli(cli, tmp_path, rng):
    image = random_image(rng, (64, 48, 4), np.uint8)
    expected = run_cli(cli, tmp_path, image, ["--filter", "box", "--param", "size=5", "--filter", "sobel",
                                              "--param", "dx=1", "--param", "dy=0", "--kernel", "1,2,1",
                                              "--border", "replicate", "--depth", "f32"])
    chain = tessera.Chain([tessera.Filter("box", size=5), ("sobel", {"dx": 1, "dy": 0}), np.array([[1, 2, 1]])])
    got = tessera.apply(image, chain, border="replicate", depth="f32", device="cpu")
    np.testing.assert_array_equal(got, expected)


def preset_files(tmp_path):
    here = os.path.dirname(os.path.abspath(__file__))
    shipped = os.path.join(here, "..", "..", "resources", "presets", "sharpen-5x5.json")
    chain = tmp_path / "chain.json"
    chain.write_text(json.dumps({"name": "soft edges", "border": "wrap", "depth": "u16", "filters": [
        {"id": "gaussian", "params": {"sigma": 1.2}},
        {"id": "custom", "size": [3, 1], "weights": [1, 0, -1], "anchor": [0, 0], "offset": 100},
    ]}))
    return [shipped, str(chain)]


@pytest.mark.parametrize("which", [0, 1])
def test_presets_match_cli(cli, tmp_path, rng, which):
    path = preset_files(tmp_path)[which]
    image = random_image(rng, (33, 35, 3), np.uint8)
    expected = run_cli(cli, tmp_path, image, ["--preset", path])
    got = tessera.apply(image, tessera.load_preset(path), device="cpu")
    np.testing.assert_array_equal(got, expected)
