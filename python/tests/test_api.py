# SPDX-License-Identifier: Apache-2.0
"""The package's face: filters(), devices(), Filter/Chain/load_preset, views, out= and every
error an argument can raise."""

import json
import os
import sys
import threading
import time

import numpy as np
import pytest

import tessera
from tessera import _arrays
from conftest import random_image


def test_filters_lists_ids_and_parameters():
    listed = {f["id"]: f for f in tessera.filters()}
    assert {"identity", "box", "gaussian", "sobel", "custom"} <= set(listed)
    sigma = {p["key"]: p for p in listed["gaussian"]["params"]}["sigma"]
    assert sigma["type"] == "double" and sigma["min"] <= sigma["default"] <= sigma["max"]


def test_devices_answers_without_a_gpu():
    d = tessera.devices()
    assert d["device_count"] == len(d["devices"])
    assert "fft" in d and "runtime_version" in d


def test_version_and_library_path():
    assert tessera.__version__.split("+")[0].count(".") == 2
    assert os.path.basename(tessera.LIBRARY_PATH).startswith("libtessera.so.0")


def test_structures_match_the_c_header():
    import ctypes
    from tessera import _lib
    assert ctypes.sizeof(_lib._Image) == 40 and _lib._Image.channels.offset == 32
    assert ctypes.sizeof(_lib._Options) == 80
    assert _lib._Options.border_value.offset == 48 and _lib._Options.gpu_memory_limit.offset == 72


def test_help_reads_well():
    for item in (tessera, tessera.apply, tessera.filters, tessera.devices, tessera.Chain, tessera.Filter,
                 tessera.load_preset, tessera.last_run):
        assert item.__doc__ and len(item.__doc__) > 40


def test_every_registry_filter_runs_with_defaults(rng):
    image = random_image(rng, (20, 24, 3), np.float32)
    for f in tessera.filters():
        if f["id"] != "custom":
            assert tessera.apply(image, f["id"], device="cpu").shape == image.shape


def test_crop_is_read_in_place(rng):
    big = random_image(rng, (60, 80, 4), np.uint8)
    crop = big[5:45, 7:61]
    layout = _arrays.host_layout(crop)
    assert layout.data == crop.ctypes.data and layout.row_stride == big.strides[0]
    np.testing.assert_array_equal(tessera.apply(crop, "gaussian", sigma=1.5, device="cpu"),
                                  tessera.apply(np.ascontiguousarray(crop), "gaussian", sigma=1.5, device="cpu"))


def test_single_row_and_column_views(rng):
    image = random_image(rng, (30, 30), np.float32)
    for view in (image[3:4, :], image[:, 5:6], image[2:3, 2:3]):
        np.testing.assert_array_equal(tessera.apply(view, "box", device="cpu"),
                                      tessera.apply(view.copy(), "box", device="cpu"))


def test_out_is_written_and_returned(rng):
    image = random_image(rng, (32, 32, 3), np.uint8)
    out = np.full((32, 32, 3), 0x5A, np.uint8)
    result = tessera.apply(image, "box", out=out, device="cpu")
    assert result is out
    np.testing.assert_array_equal(out, tessera.apply(image, "box", device="cpu"))


def test_out_may_be_a_crop(rng):
    image = random_image(rng, (20, 20), np.float32)
    canvas = np.zeros((40, 40), np.float32)
    tessera.apply(image, "box", out=canvas[10:30, 5:25], device="cpu")
    np.testing.assert_array_equal(canvas[10:30, 5:25], tessera.apply(image, "box", device="cpu"))
    assert not canvas[:10].any() and not canvas[:, :5].any()


def test_load_preset_and_save_round_trip(tmp_path, rng):
    chain = tessera.Chain([tessera.Filter("gaussian", sigma=2.5), tessera.Filter(kernel=np.eye(3), anchor=(0, 2))],
                          name="mine")
    path = tmp_path / "p.json"
    chain.save(path)
    loaded = tessera.load_preset(path)
    assert loaded.name == "mine" and len(loaded) == 2 and loaded.steps[1]["anchor"] == [0, 2]
    image = random_image(rng, (25, 25, 3), np.uint8)
    np.testing.assert_array_equal(tessera.apply(image, loaded, device="cpu"), tessera.apply(image, chain, device="cpu"))


def test_chain_items_of_every_kind():
    inner = tessera.Chain(["box"])
    chain = tessera.Chain(["identity", ("sobel", {"dx": 1}), {"id": "gaussian", "params": {"sigma": 1}},
                           np.ones((2, 3)), inner, tessera.Filter("emboss")])
    assert [s["id"] for s in chain.steps] == ["identity", "sobel", "gaussian", "custom", "box", "emboss"]
    assert chain.steps[3]["kernel_size"] == [3, 2]
    assert "gaussian" in repr(chain)
    assert json.loads(chain.to_json())["filters"][0] == {"id": "identity"}


def test_last_run_says_where(rng):
    tessera.apply(random_image(rng, (8, 8), np.uint8), "box", device="cpu")
    assert tessera.last_run().where == "cpu"
    assert str(tessera.last_run()).startswith("cpu")


# ---- errors -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint32, np.float16, np.bool_, np.complex64])
def test_unsupported_dtype_is_a_type_error(dtype):
    with pytest.raises(TypeError, match="uint8, uint16 or float32"):
        tessera.apply(np.zeros((8, 8), dtype), "box")


@pytest.mark.parametrize("image", [[[1, 2], [3, 4]], "image", 3.0, None])
def test_not_an_array_is_a_type_error(image):
    with pytest.raises(TypeError, match="numpy.ndarray"):
        tessera.apply(image, "box")


@pytest.mark.parametrize("shape", [(8,), (2, 2, 8, 8, 3), (2, 8, 8, 2), (8, 8, 2), (8, 8, 5), (0, 8), (8, 0, 3)])
def test_bad_shape_is_a_value_error(shape):
    with pytest.raises(ValueError, match="shape|channels|empty"):
        tessera.apply(np.zeros(shape, np.uint8), "box")


def test_planar_and_non_contiguous_layouts_are_value_errors():
    planar = np.zeros((3, 16, 16), np.uint8).transpose(1, 2, 0)  # HxWxC view of CxHxW memory
    with pytest.raises(ValueError, match="interleaved"):
        tessera.apply(planar, "box")
    with pytest.raises(ValueError, match="contiguous within a row"):
        tessera.apply(np.zeros((16, 32), np.float32)[:, ::2], "box")
    with pytest.raises(ValueError, match="contiguous within a row"):
        tessera.apply(np.zeros((16, 16), np.uint16).T, "box")
    with pytest.raises(ValueError, match="backwards"):
        tessera.apply(np.zeros((16, 16, 3), np.uint8)[::-1], "box")
    with pytest.raises(ValueError, match="contiguous within a row"):
        tessera.apply(np.zeros((16, 16, 3), np.uint8)[:, ::-1], "box")


def test_unaligned_array_is_a_value_error():
    raw = np.zeros(16 * 16 * 4 + 1, np.uint8)
    unaligned = raw[1:].view(np.float32).reshape(16, 16)
    with pytest.raises(ValueError, match="aligned"):
        tessera.apply(unaligned, "box")


def test_bad_filters_and_parameters_are_value_errors():
    image = np.zeros((8, 8), np.uint8)
    with pytest.raises(ValueError, match="nosuch"):
        tessera.apply(image, "nosuch")
    with pytest.raises(ValueError, match="sigma"):
        tessera.apply(image, "gaussian", sigma=-3)
    with pytest.raises(ValueError, match="bogus"):
        tessera.apply(image, "gaussian", bogus=1)
    with pytest.raises(ValueError, match="kernel"):
        tessera.apply(image, kernel=np.zeros((0, 3)))
    with pytest.raises(ValueError, match="finite"):
        tessera.apply(image, kernel=[[1.0, np.nan]])
    with pytest.raises(ValueError, match="anchor"):
        tessera.apply(image, kernel=np.ones((3, 3)), anchor=(3, 0))
    with pytest.raises(ValueError, match="anchor"):
        tessera.apply(image, kernel=np.ones((3, 3)), anchor="centre")
    with pytest.raises(ValueError, match="255|size"):
        tessera.apply(image, kernel=np.ones((1, 300)))


def test_bad_options_are_value_or_type_errors():
    image = np.zeros((8, 8), np.uint8)
    with pytest.raises(ValueError, match="border"):
        tessera.apply(image, "box", border="mirror")
    with pytest.raises(ValueError, match="depth"):
        tessera.apply(image, "box", depth="f64")
    with pytest.raises(ValueError, match="method"):
        tessera.apply(image, "box", method="winograd")
    with pytest.raises(ValueError, match="device"):
        tessera.apply(image, "box", device="tpu")
    with pytest.raises(TypeError, match="device"):
        tessera.apply(image, "box", device=0)
    with pytest.raises(TypeError, match="scale"):
        tessera.apply(image, "box", scale="2")
    with pytest.raises(ValueError, match="finite"):
        tessera.apply(image, "box", offset=float("inf"))
    with pytest.raises(TypeError, match="border"):
        tessera.apply(image, "box", border=1)
    with pytest.raises(TypeError, match="stream"):
        tessera.apply(image, "box", stream=0)


def test_device_gpu_without_a_gpu_is_a_runtime_error():
    if tessera.devices()["device_count"] > 0:
        pytest.skip("this machine has a GPU")
    with pytest.raises(RuntimeError, match="GPU|gpu"):
        tessera.apply(np.zeros((8, 8), np.uint8), "box", device="gpu")


def test_misplaced_arguments_are_type_errors():
    image = np.zeros((8, 8), np.uint8)
    with pytest.raises(TypeError, match="needs a filter"):
        tessera.apply(image)
    with pytest.raises(TypeError, match="not both"):
        tessera.apply(image, "box", kernel=np.ones((3, 3)))
    with pytest.raises(TypeError, match="no filter parameters"):
        tessera.apply(image, kernel=np.ones((3, 3)), sigma=2)
    with pytest.raises(TypeError, match="carries its own"):
        tessera.apply(image, tessera.Filter("box"), size=3)
    with pytest.raises(TypeError, match="filter must be"):
        tessera.apply(image, 42)
    with pytest.raises(TypeError, match="a chain takes"):
        tessera.Chain([3.5])
    with pytest.raises(ValueError, match="at least one"):
        tessera.Chain([])
    with pytest.raises(TypeError, match="parameter"):
        tessera.Filter("gaussian", sigma=[1, 2])


def test_bad_out_arguments():
    image = np.zeros((8, 8, 3), np.uint8)
    with pytest.raises(TypeError, match="dtype"):
        tessera.apply(image, "box", out=np.zeros((8, 8, 3), np.float32))
    with pytest.raises(ValueError, match="shape"):
        tessera.apply(image, "box", out=np.zeros((8, 8, 4), np.uint8))
    with pytest.raises(ValueError, match="shape"):
        tessera.apply(image, "box", out=np.zeros((8, 8), np.uint8))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        tessera.apply(image, "box", out=[0] * 192)
    readonly = np.zeros((8, 8, 3), np.uint8)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        tessera.apply(image, "box", out=readonly)
    with pytest.raises(ValueError, match="overlaps"):
        tessera.apply(image, "box", out=image)
    with pytest.raises(ValueError, match="interleaved|contiguous"):
        tessera.apply(image, "box", out=np.zeros((3, 8, 8), np.uint8).transpose(1, 2, 0))


def test_bad_presets(tmp_path):
    with pytest.raises(OSError):
        tessera.load_preset(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="not a regular file"):
        tessera.load_preset(tmp_path)
    broken = tmp_path / "broken.json"
    broken.write_text('{"filters": [{"id": "gaussian", "params": {"sigma": "x"}}]}')
    with pytest.raises(ValueError, match=r"broken\.json.*sigma"):
        tessera.load_preset(broken)
    typo = tmp_path / "typo.json"
    typo.write_text('{"size": [3, 3], "weights": [1, 1, 1, 1, 1, 1, 1, 1, 1], "boder": "wrap"}')
    with pytest.raises(ValueError, match=r"typo\.json.*boder"):
        tessera.load_preset(typo)
    not_json = tmp_path / "text.json"
    not_json.write_text("not json")
    with pytest.raises(ValueError, match=r"text\.json"):
        tessera.load_preset(not_json)


# ---- the GIL ------------------------------------------------------------------------------

def test_gil_is_released_while_filtering(rng, monkeypatch):
    """The main thread keeps running Python (taking timestamps) while another thread is inside
    the library's filtering call: with the GIL held through it, no timestamp could fall inside."""
    image = random_image(rng, (2000, 2000, 4), np.float32)
    kernel = rng.random((9, 9))
    call = {}
    inner = tessera._lib.plan_run_host

    def timed(*args):
        call["start"] = time.perf_counter()
        result = inner(*args)
        call["end"] = time.perf_counter()
        return result

    monkeypatch.setattr(tessera._lib, "plan_run_host", timed)

    def work():
        tessera.apply(image, kernel=kernel, device="cpu")

    stamps = []
    worker = threading.Thread(target=work)
    worker.start()
    n = 0
    while worker.is_alive():
        n += 1
        if n % 64 == 0:
            stamps.append(time.perf_counter())
    worker.join()
    seconds = call["end"] - call["start"]
    # Python hands the GIL over every switch interval: the main thread may run that long after
    # the worker's first timestamp and before its last one even when the call holds the GIL.
    margin = 3 * sys.getswitchinterval()
    if seconds < 4 * margin:
        pytest.skip(f"the call took {seconds:.3f} s: too short to tell")
    inside = sum(1 for t in stamps if call["start"] + margin < t < call["end"] - margin)
    assert inside > 10, f"{inside} timestamps inside a {seconds:.3f} s call"


def test_two_threads_filter_at_once(rng):
    images = [random_image(rng, (600, 600, 3), np.uint8) for _ in range(2)]
    results = [None, None]

    def work(i):
        results[i] = tessera.apply(images[i], "gaussian", sigma=3.0, device="cpu")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(2):
        np.testing.assert_array_equal(results[i], tessera.apply(images[i], "gaussian", sigma=3.0, device="cpu"))
