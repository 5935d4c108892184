# SPDX-License-Identifier: Apache-2.0
"""Arguments the C interface cannot hold as given are refused in Python, naming the argument:
nothing is wrapped, truncated, dropped or handed on to fail later with another message."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tessera

IMAGE = np.zeros((8, 8), np.float32)


@pytest.fixture(autouse=True)
def warnings_are_errors():
    # A refused value must be an exception, not a warning and a changed value.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("limit", [-1, 2 ** 64, 2 ** 70, -(2 ** 63), 1.5, float("inf"), float("nan")])
def test_gpu_memory_limit_out_of_range_or_fractional(limit):
    with pytest.raises(ValueError, match="gpu_memory_limit"):
        tessera.apply(IMAGE, "box", device="cpu", gpu_memory_limit=limit)


@pytest.mark.parametrize("limit", ["1G", [1], True])
def test_gpu_memory_limit_of_another_type(limit):
    with pytest.raises(TypeError, match="gpu_memory_limit"):
        tessera.apply(IMAGE, "box", device="cpu", gpu_memory_limit=limit)


@pytest.mark.parametrize("limit", [0, None, 2 ** 64 - 1, np.uint64(2 ** 63), 2e9])
def test_gpu_memory_limit_in_range(limit):
    tessera.apply(IMAGE, "box", device="cpu", gpu_memory_limit=limit)


@pytest.mark.parametrize("anchor", [(1.7, 0.2), (0, 0.5), (np.float32(2.25), 1)])
def test_fractional_anchor_is_refused(anchor):
    with pytest.raises(ValueError, match="anchor"):
        tessera.apply(IMAGE, kernel=np.ones((3, 3)), anchor=anchor, device="cpu")
    with pytest.raises(ValueError, match="anchor"):
        tessera.Filter(kernel=np.ones((3, 3)), anchor=anchor)
    with pytest.raises(ValueError, match="anchor"):
        tessera.Filter("box", anchor=anchor)


def test_anchor_of_another_type_is_refused():
    with pytest.raises(TypeError, match="anchor"):
        tessera.apply(IMAGE, kernel=np.ones((3, 3)), anchor=(True, 0), device="cpu")
    with pytest.raises(TypeError, match="anchor"):
        tessera.apply(IMAGE, kernel=np.ones((3, 3)), anchor=("1", 0), device="cpu")


def test_whole_anchors_of_any_number_type_are_the_same_anchor(rng):
    image = rng.random((9, 9)).astype(np.float32)
    kernel = rng.random((3, 3))
    expected = tessera.apply(image, kernel=kernel, anchor=(0, 2), device="cpu")
    for anchor in [(0.0, 2.0), (np.int16(0), np.uint8(2)), np.array([0, 2])]:
        np.testing.assert_array_equal(tessera.apply(image, kernel=kernel, anchor=anchor, device="cpu"), expected)


@pytest.mark.parametrize("kernel", [np.ones((3, 3)) * (1 + 2j), np.ones((2, 2), np.complex64),
                                    np.array([[1, 2j]], dtype=object), [[1.0, 1j]]])
def test_complex_kernel_is_refused(kernel):
    with pytest.raises(TypeError, match="complex"):
        tessera.apply(IMAGE, kernel=kernel, device="cpu")
    with pytest.raises(TypeError, match="complex"):
        tessera.Chain([tessera.Filter(kernel=kernel)])


@pytest.mark.parametrize("kernel", [np.array([["1", "2"]]), np.array([[1.0, "x"]], dtype=object),
                                    np.array([[None]], dtype=object)])
def test_kernel_of_non_numbers_is_a_type_error(kernel):
    with pytest.raises(TypeError, match="kernel"):
        tessera.apply(IMAGE, kernel=kernel, device="cpu")


def test_ragged_kernel_is_a_value_error():
    with pytest.raises(ValueError, match="kernel"):
        tessera.apply(IMAGE, kernel=[[1.0, 2.0], [3.0]], device="cpu")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), np.float32("nan")])
def test_non_finite_filter_parameter_names_it(value):
    with pytest.raises(ValueError, match="sigma.*finite"):
        tessera.apply(IMAGE, "gaussian", sigma=value, device="cpu")
    with pytest.raises(ValueError, match="sigma.*finite"):
        tessera.Filter("gaussian", sigma=value)
    with pytest.raises(ValueError, match="sigma.*finite"):
        tessera.Chain([("gaussian", {"sigma": value})])
    with pytest.raises(ValueError, match="sigma.*finite"):
        tessera.Chain([{"id": "gaussian", "params": {"sigma": value}}])


@pytest.mark.parametrize("name", ["scale", "offset", "border_value"])
@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_options_are_refused_as_the_cli_refuses_them(name, value):
    with pytest.raises(ValueError, match=f"{name}.*finite"):
        tessera.apply(IMAGE, "box", device="cpu", **{name: value})
    with pytest.raises(ValueError, match=f"{name}.*finite"):
        tessera.Filter("box", **{name: value})
    with pytest.raises(ValueError, match=f"{name}.*finite"):
        tessera.Chain([{"id": "box", name: value}])


def test_huge_integers_are_refused_by_name():
    with pytest.raises(ValueError, match="scale"):
        tessera.apply(IMAGE, "box", scale=10 ** 400, device="cpu")
    with pytest.raises(ValueError, match="size"):
        tessera.apply(IMAGE, "box", size=2 ** 70, device="cpu")


def test_step_options_of_a_filter_are_checked():
    with pytest.raises(ValueError, match="border"):
        tessera.Filter("box", border="mirror")
    with pytest.raises(TypeError, match="scale"):
        tessera.Filter("box", scale="2")
    with pytest.raises(ValueError, match="depth"):
        tessera.Filter("box", depth="f64")


def _import_with_library(library):
    env = dict(os.environ, TESSERA_LIBRARY=library)
    return subprocess.run([sys.executable, "-c", "import tessera"], env=env, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("library", ["libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6"])
def test_another_library_is_an_import_error(library):
    if os.sep in library and not os.path.exists(library):
        pytest.skip(f"{library} is not on this machine")
    run = _import_with_library(library)
    assert run.returncode != 0
    assert "ImportError" in run.stderr and "AttributeError" not in run.stderr, run.stderr
    assert library in run.stderr and "not libtessera" in run.stderr


def test_a_missing_named_library_is_an_import_error_not_a_quiet_fallback(tmp_path):
    missing = str(tmp_path / "libtessera.so.0")
    run = _import_with_library(missing)
    assert run.returncode != 0 and "ImportError" in run.stderr and missing in run.stderr, run.stderr
