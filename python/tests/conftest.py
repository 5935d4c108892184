# SPDX-License-Identifier: Apache-2.0
"""Fixtures for the tessera package's tests: the CLI to compare with and random images."""

import os
import shutil

import numpy as np
import pytest

import tessera  # noqa: F401  (fails early, with the loader's message, when the library is missing)

DTYPES = [np.uint8, np.uint16, np.float32]
CHANNELS = [1, 3, 4]
BORDERS = ["reflect101", "reflect", "replicate", "constant", "wrap"]


@pytest.fixture(scope="session")
def cli():
    """The tessera-cli program (TESSERA_CLI, set by CTest; else the one on PATH)."""
    path = os.environ.get("TESSERA_CLI") or shutil.which("tessera-cli")
    if not path:
        pytest.skip("tessera-cli not found (set TESSERA_CLI)")
    return path


def random_image(rng, shape, dtype):
    """Values over the dtype's whole range (floats around [-1, 2] with some large ones)."""
    dtype = np.dtype(dtype)
    if dtype == np.uint8:
        return rng.integers(0, 256, shape, dtype=np.uint8)
    if dtype == np.uint16:
        return rng.integers(0, 65536, shape, dtype=np.uint16)
    return (rng.random(shape) * 3.0 - 1.0).astype(np.float32)


def shape_of(h, w, channels, flat=False):
    return (h, w) if (channels == 1 and flat) else (h, w, channels)


@pytest.fixture
def rng():
    return np.random.default_rng()
