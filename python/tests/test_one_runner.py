# SPDX-License-Identifier: Apache-2.0
"""One chain through every front end that runs here: `tessera-cli apply`, `tessera-cli batch` and
tessera.apply give the same pixels, and apply's JSON and tessera.last_run() the same report
(the pipeline's, values/run_report_json). On a GPU machine gpu_check.py adds CuPy."""

import json
import subprocess

import numpy as np
import pytest

import tessera
from conftest import random_image

cv2 = pytest.importorskip("cv2", reason="python3-opencv writes and reads the CLI's TIFF files")

CHAIN = ["--filter", "gaussian", "--param", "sigma=1.7", "--filter", "sharpen", "--param", "amount=0.8"]


def python_chain():
    return tessera.Chain([tessera.Filter("gaussian", sigma=1.7), tessera.Filter("sharpen", amount=0.8)])


@pytest.fixture
def image(tmp_path):
    rng = np.random.default_rng(41)
    img = random_image(rng, (97, 131, 3), np.uint8)
    path = tmp_path / "in" / "photo.tif"
    path.parent.mkdir()
    assert cv2.imwrite(str(path), img, [cv2.IMWRITE_TIFF_COMPRESSION, 1])
    return img, path


def test_cli_apply_batch_and_python_give_the_same_pixels_and_report(cli, tmp_path, image):
    img, path = image
    applied = tmp_path / "applied.tif"
    done = subprocess.run([cli, "apply", str(path), "-o", str(applied), "--device", "cpu", "--json", *CHAIN],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    cli_report = json.loads(done.stdout)
    out_dir = tmp_path / "batch"
    done = subprocess.run([cli, "batch", str(path.parent), "-o", str(out_dir), "--device", "cpu", "--template",
                           "{stem}", "--format", "tif", *CHAIN], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr

    from_apply = cv2.imread(str(applied), cv2.IMREAD_UNCHANGED)
    from_batch = cv2.imread(str(out_dir / "photo.tif"), cv2.IMREAD_UNCHANGED)
    from_python = tessera.apply(img, python_chain(), device="cpu")
    assert from_apply is not None and from_batch is not None
    assert np.array_equal(from_apply, from_python)
    assert np.array_equal(from_batch, from_python)

    # The same report: the same fields, the same placement, devices and steps.
    report = tessera.last_run().as_dict()
    run = cli_report["run"]
    # "conversion" is the Python call's own dtype conversion (NumPy float64, int16), no CLI field.
    assert set(run) == set(report) - {"where", "note", "conversion"}
    for field in ("placement", "devices", "step_methods", "fallback", "fallback_policy"):
        assert run[field] == report[field], field
    assert run["placement"] == "streamed"
    assert run["devices"] == ["cpu"]
    assert len(run["records"]) >= 1 and {r["device"] for r in run["records"]} == {-1}
