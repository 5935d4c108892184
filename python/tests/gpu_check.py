#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks and times the tessera package on a GPU machine with CuPy and PyTorch.

    python3 gpu_check.py [--json results.json] [--size 8192] [--runs 20] [--bench PATH-OR-COMMAND]

1. CuPy arrays and PyTorch CUDA tensors give the results of NumPy arrays (the CPU path and
   the GPU path for host images), for every dtype, channel count and a spread of filters.
2. The output is device memory of the input's GPU, the input is not copied: pointers, CuPy's
   pool and PyTorch's allocator counters around the call, and every allocation made during it.
3. The caller's stream is honoured: the input is written by a slow kernel queued on a
   non-default stream, then filtered on that stream (explicit and as the current stream); a
   filter that did not wait would read the old pixels.
4. Times, from Python with CUDA events on the caller's stream around the call, median of
   --runs, on a size x size RGBA8 CuPy array with out=: 3x3 box, 3x3 custom, 15x15 custom,
   Gaussian 31, next to cupyx.scipy.ndimage.correlate and torch.nn.functional.conv2d
   (depthwise, groups = 4) on the same data; and tessera-bench's figures for the same cases
   when --bench is given. Prints a table and writes everything as JSON.
Exits 1 when a check fails.
"""

import argparse
import json
import shlex
import subprocess
import sys
import time

import numpy as np

import tessera
from gpu_timing import events_ms, host_us, pipelined_ms, queued_events_ms, torch_ms

try:
    import cupy as cp
    import cupyx.scipy.ndimage as cpnd
except ImportError:  # pragma: no cover
    cp = None
try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover
    torch = None

RESULTS = {"checks": [], "timings": [], "bench": [], "library": tessera.LIBRARY_PATH, "version": tessera.__version__}


def check(name, ok, detail=""):
    RESULTS["checks"].append({"name": name, "ok": bool(ok), "detail": detail})
    print(f"{'PASS' if ok else 'FAIL'}  {name}{'  (' + detail + ')' if detail else ''}", flush=True)
    return ok


def random_image(rng, shape, dtype):
    if dtype == np.uint8:
        return rng.integers(0, 256, shape, dtype=np.uint8)
    if dtype == np.uint16:
        return rng.integers(0, 65536, shape, dtype=np.uint16)
    return (rng.random(shape) * 3 - 1).astype(np.float32)


def max_diff(a, b):
    return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


def allowed(dtype, image, kernel_abs_sum=4.0, steps=1):
    # GPU and CPU accumulate in float32 in different orders: one step for integers, which a
    # later step of a chain may scale by the sum of its weights' magnitudes.
    if dtype != np.float32:
        return 1.0 if steps == 1 else 1.0 + kernel_abs_sum
    return 1e-4 * kernel_abs_sum * max(1.0, float(np.abs(image).max())) * steps


CASES = [
    ("gaussian sigma 2", dict(filter="gaussian", sigma=2.0)),
    ("box 15", dict(filter="box", size=15)),
    ("custom 5x5 anchored, constant border",
     dict(kernel=np.linspace(-1, 1, 25).reshape(5, 5), anchor=(1, 3), border="constant", border_value=9)),
    ("sobel dx, wrap, f32", dict(filter="sobel", dx=1, dy=0, border="wrap", depth="f32")),
    ("chain box+sharpen, scale/offset", dict(filter=tessera.Chain(["box", tessera.Filter("sharpen")]),
                                               scale=0.5, offset=10)),
]


def run(image, case, **extra):
    args = dict(case)
    f = args.pop("filter", None)
    return tessera.apply(image, f, **args, **extra) if f is not None else tessera.apply(image, **args, **extra)


def parity(rng):
    has_gpu = tessera.devices()["device_count"] > 0
    for dtype in (np.uint8, np.uint16, np.float32):
        for channels in (1, 3, 4):
            host = random_image(rng, (257, 389, channels), dtype)
            for name, case in CASES:
                ref = run(host, case, device="cpu")
                label = f"{np.dtype(dtype).name} x{channels} {name}"
                steps = len(case["filter"]) if isinstance(case.get("filter"), tessera.Chain) else 1
                tol = allowed(dtype, host, 13.0 if "custom" in name else 9.0, steps)
                if has_gpu:
                    d = max_diff(run(host, case, device="gpu"), ref)
                    check(f"numpy on GPU = CPU: {label}", d <= tol, f"max diff {d:g}")
                if cp is not None:
                    got = run(cp.asarray(host), case)
                    ok = isinstance(got, cp.ndarray) and got.shape == ref.shape and got.dtype == ref.dtype
                    d = max_diff(cp.asnumpy(got), ref) if ok else float("inf")
                    check(f"cupy = numpy: {label}", ok and d <= tol, f"max diff {d:g}")
                if torch is not None and (dtype != np.uint16 or hasattr(torch, "uint16")):
                    t = torch.from_numpy(host).cuda()
                    got = run(t, case)
                    ok = isinstance(got, torch.Tensor) and got.is_cuda and tuple(got.shape) == ref.shape
                    d = max_diff(got.cpu().numpy(), ref) if ok else float("inf")
                    check(f"torch = numpy: {label}", ok and d <= tol, f"max diff {d:g}")
    if cp is not None:
        # A crop of a device array (row pitch larger than the row) is read in place.
        big = cp.asarray(random_image(rng, (300, 400, 4), np.uint8))
        crop = big[10:250, 16:300]
        d = max_diff(cp.asnumpy(tessera.apply(crop, "gaussian", sigma=1.5)),
                     tessera.apply(cp.asnumpy(crop), "gaussian", sigma=1.5, device="cpu"))
        check("cupy crop = numpy crop", d <= 1, f"max diff {d:g}")


def memory(rng):
    if cp is not None:
        pool = cp.get_default_memory_pool()
        image = cp.asarray(random_image(rng, (2048, 2048, 4), np.uint8))
        out = cp.empty_like(image)
        tessera.apply(image, "gaussian", sigma=3.0, out=out)  # plans, warms the pool
        cp.cuda.get_current_stream().synchronize()
        attrs = cp.cuda.runtime.pointerGetAttributes(out.data.ptr)
        check("cupy output is device memory of the input's GPU",
              attrs.type == getattr(cp.cuda.runtime, "memoryTypeDevice", 2) and attrs.device == image.device.id,
              f"type {attrs.type}, device {attrs.device}")
        fresh = tessera.apply(image, "box")
        check("cupy output is a new cupy array", isinstance(fresh, cp.ndarray) and fresh.data.ptr != image.data.ptr)
        check("cupy output works with cupy.from_dlpack and torch.from_dlpack",
              _dlpack_ok(fresh))
        # Every allocation during the call, through CuPy's allocator hook.
        sizes = []
        original = cp.cuda.get_allocator()

        def counting(n):
            sizes.append(n)
            return original(n)

        used_before = pool.used_bytes()
        free_before = cp.cuda.runtime.memGetInfo()[0]
        cp.cuda.set_allocator(counting)
        try:
            result = tessera.apply(image, "gaussian", sigma=3.0, out=out)
        finally:
            cp.cuda.set_allocator(original)
        cp.cuda.get_current_stream().synchronize()
        free_after = cp.cuda.runtime.memGetInfo()[0]
        image_bytes = image.nbytes
        check("cupy out= is returned", result is out)
        from tessera import _arrays
        layout, _ = _arrays.device_layout(image)
        scratch = _scratch_of(layout, tessera.Chain([tessera.Filter("gaussian", sigma=3.0)]).to_json())
        check("cupy: the call allocates the plan's scratch and nothing else (no copy of the input)",
              sum(sizes) <= scratch + 1024, f"allocations {sizes}, scratch {scratch}, image {image_bytes} bytes")
        check("cupy pool in use unchanged after the call", pool.used_bytes() == used_before,
              f"{used_before} -> {pool.used_bytes()}")
        check("device free memory unchanged beyond the pool",
              abs(free_after - free_before) <= 2 * image_bytes, f"{free_before} -> {free_after}")
    if torch is not None:
        t = torch.from_numpy(random_image(rng, (2048, 2048, 4), np.uint8)).cuda()
        out = torch.empty_like(t)
        tessera.apply(t, "gaussian", sigma=3.0, out=out)
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        result = tessera.apply(t, "gaussian", sigma=3.0, out=out)
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated() - before
        check("torch out= is returned", result is out)
        check("torch memory allocated unchanged after the call", torch.cuda.memory_allocated() == before)
        from tessera import _arrays
        layout, _ = _arrays.device_layout(t)
        scratch = _scratch_of(layout, tessera.Chain([tessera.Filter("gaussian", sigma=3.0)]).to_json())
        check("torch: the call's peak extra memory is the plan's scratch (no copy of the input)",
              peak <= scratch + 1024, f"peak extra {peak} bytes, scratch {scratch}, image {t.numel()} bytes")
        fresh = tessera.apply(t, "box")
        check("torch output is a new CUDA tensor on the input's device",
              fresh.is_cuda and fresh.device == t.device and fresh.data_ptr() != t.data_ptr())


def _scratch_of(layout, text):
    """The scratch bytes a device plan of the chain text needs for images like layout's."""
    from tessera import _lib
    handle, _, scratch = _lib.plan_create(layout.image(), _lib.DEVICE_MEMORY, text, _lib.make_options())
    _lib.plan_free(handle)
    return scratch


def device_reports(rng, tmp_dir="/tmp"):
    """Device-array runs report as host runs do: placement "device", their GPU, one method and
    one kernel record per step, CUDA-event step times when step timing is on, and a trace."""
    import os
    arrays = []
    if cp is not None:
        arrays.append(("cupy", cp.asarray(random_image(rng, (300, 400, 4), np.uint8))))
    if torch is not None:
        arrays.append(("torch", torch.from_numpy(random_image(rng, (300, 400, 3), np.float32)).cuda()))
    chain = tessera.Chain([tessera.Filter("gaussian", sigma=2.0), "sharpen"])
    for name, image in arrays:
        gpu = f"gpu:{image.device.id if name == 'cupy' else image.device.index}"
        for timed in (False, True):
            previous = tessera.set_step_timing(timed)
            try:
                tessera.apply(image, chain)
                tessera.apply(image, chain)  # the remembered plan reports as well
            finally:
                tessera.set_step_timing(previous)
            r = tessera.last_run()
            label = f"{name}{' timed' if timed else ''}"
            check(f"{label}: report placement and device", r.placement == "device" and r.devices == [gpu]
                  and r.where == gpu, repr(r))
            check(f"{label}: one method and one kernel record per step", len(r.step_methods) == 2
                  and len(r.methods) == 2 and len([x for x in r.records if x["phase"] == "kernel"]) == 2, repr(r))
            durations = [x["end_us"] - x["begin_us"] for x in r.records]
            if timed:
                check(f"{label}: step times from CUDA events", all(d > 0 for d in durations) and r.kernel_ms > 0,
                      str(durations))
                path = os.path.join(tmp_dir, f"tessera-{name}-trace.json")
                r.write_trace(path)
                with open(path, encoding="utf-8") as f:
                    events = [e for e in json.load(f)["traceEvents"] if e["ph"] == "X"]
                check(f"{label}: the trace has an event per step", len(events) == 2
                      and [e["name"] for e in events] == r.step_methods, str([e["name"] for e in events]))
            else:
                check(f"{label}: untimed records carry no time", all(d == 0 for d in durations), str(durations))


def _dlpack_ok(array):
    try:
        a = cp.from_dlpack(array)
        ok = a.data.ptr == array.data.ptr
        if torch is not None:
            ok = ok and torch.from_dlpack(array).data_ptr() == array.data.ptr
        return ok
    except Exception as e:  # noqa: BLE001
        print("   dlpack:", e)
        return False


_SPIN = r'''
extern "C" __global__ void spin_then_fill(unsigned char* p, long long n, long long cycles, unsigned char v) {
    long long start = clock64();
    while (clock64() - start < cycles) { }
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        p[i] = (unsigned char)(v + i * 7);
}
'''


def streams(rng):
    if cp is None:
        return
    kernel = cp.RawKernel(_SPIN, "spin_then_fill")
    shape = (1024, 1536, 4)
    cycles = 2_000_000_000  # about a second at H200 clocks
    expected_input = ((np.arange(np.prod(shape)) * 7 + 3) % 256).astype(np.uint8).reshape(shape)
    expected = tessera.apply(expected_input, "gaussian", sigma=2.0, device="cpu")
    for mode in ("explicit stream=", "current stream"):
        s = cp.cuda.Stream(non_blocking=True)
        x = cp.zeros(shape, cp.uint8)
        cp.cuda.Device().synchronize()
        kernel((132,), (256,), (x, np.int64(x.size), np.int64(cycles), np.uint8(3)), stream=s)
        t0 = time.perf_counter()
        if mode == "explicit stream=":
            out = tessera.apply(x, "gaussian", sigma=2.0, stream=s)
        else:
            with s:
                out = tessera.apply(x, "gaussian", sigma=2.0)
        returned = time.perf_counter() - t0
        s.synchronize()
        d = max_diff(cp.asnumpy(out), expected)
        check(f"cupy {mode}: waits for work queued before the call", d <= 1, f"max diff {d:g}")
        check(f"cupy {mode}: the call returns before the stream's work is done", returned < 0.5,
              f"returned after {returned * 1000:.1f} ms")
    if torch is not None:
        s = torch.cuda.Stream()
        x = torch.zeros(shape, dtype=torch.uint8, device="cuda")
        torch.cuda.synchronize()
        kernel((132,), (256,), (cp.asarray(x), np.int64(x.numel()), np.int64(cycles), np.uint8(3)),
               stream=cp.cuda.ExternalStream(s.cuda_stream))
        with torch.cuda.stream(s):
            out = tessera.apply(x, "gaussian", sigma=2.0)
        s.synchronize()
        d = max_diff(out.cpu().numpy(), expected)
        check("torch current stream: waits for work queued before the call", d <= 1, f"max diff {d:g}")


def remembered_calls(rng):
    """Repeated calls take the remembered plan, give the full path's results, and still check
    what the key does not cover."""
    from tessera import _fast
    if cp is not None:
        host = random_image(rng, (333, 517, 4), np.uint8)
        image = cp.asarray(host)
        out1, out2 = cp.empty_like(image), cp.empty_like(image)
        tessera.apply(image, "gaussian", sigma=2.5, out=out1)
        hits = _fast.hits
        tessera.apply(image, "gaussian", sigma=2.5, out=out2)
        check("cupy: a repeated call takes the remembered plan", _fast.hits == hits + 1, f"hits {hits} -> {_fast.hits}")
        check("cupy: remembered call = first call", bool((out1 == out2).all()))
        fresh = tessera.apply(image, "gaussian", sigma=2.5)
        check("cupy: remembered call without out= gives a new array with the result",
              fresh.data.ptr not in (out1.data.ptr, out2.data.ptr) and bool((fresh == out1).all()))
        try:
            tessera.apply(image, "gaussian", sigma=2.5, out=image)
            check("cupy: remembered call refuses out= overlapping the image", False, "no error")
        except ValueError as e:
            check("cupy: remembered call refuses out= overlapping the image", "overlap" in str(e), str(e))
        d = max_diff(cp.asnumpy(out2), tessera.apply(host, "gaussian", sigma=2.5, device="cpu"))
        check("cupy: remembered call = numpy on the CPU", d <= 1, f"max diff {d:g}")
    if torch is not None:
        t = torch.from_numpy(random_image(rng, (333, 517, 3), np.float32)).cuda()
        o1, o2 = torch.empty_like(t), torch.empty_like(t)
        tessera.apply(t, kernel=np.arange(9.0).reshape(3, 3), out=o1)
        hits = _fast.hits
        tessera.apply(t, kernel=np.arange(9.0).reshape(3, 3), out=o2)
        check("torch: a repeated call takes the remembered plan", _fast.hits == hits + 1, f"hits {hits} -> {_fast.hits}")
        check("torch: remembered call = first call", bool(torch.equal(o1, o2)))
        tessera.apply(t, kernel=np.arange(9.0).reshape(3, 3), border_value=1, out=o2)  # remembered
        try:
            tessera.apply(t, kernel=np.arange(9.0).reshape(3, 3), border_value=True, out=o2)
            check("torch: border_value=True is refused though 1 would be accepted", False, "no error")
        except TypeError as e:
            check("torch: border_value=True is refused though 1 would be accepted", True, str(e))


def random_kernel(size, seed):
    k = np.random.default_rng(seed).uniform(-0.25, 1.0, (size, size))
    return k / k.sum()


def gaussian_kernel(size):
    sigma = size / 6.0
    x = np.arange(size) - (size - 1) / 2
    g = np.exp(-x * x / (2 * sigma * sigma))
    g /= g.sum()
    return np.outer(g, g)


def timings(size, runs):
    if cp is None:
        return
    rng = np.random.default_rng(1)
    image = cp.asarray(random_image(rng, (size, size, 4), np.uint8))
    out = cp.empty_like(image)
    stream = cp.cuda.get_current_stream()
    cases = [
        ("rgba8-box3", dict(f="box", params=dict(size=3)), np.ones((3, 3)) / 9),
        ("rgba8-custom3", dict(kernel=random_kernel(3, 3)), random_kernel(3, 3)),
        ("rgba8-custom15", dict(kernel=random_kernel(15, 15)), random_kernel(15, 15)),
        ("rgba8-gaussian31", dict(f="gaussian", params=dict(sigma=31 / 6.0, size=31)), gaussian_kernel(31)),
    ]
    for name, spec, kernel in cases:
        row = {"case": name, "size": size, "runs": runs}
        if "f" in spec:
            call = lambda: tessera.apply(image, spec["f"], out=out, **spec["params"])  # noqa: E731
        else:
            call = lambda: tessera.apply(image, kernel=spec["kernel"], out=out)  # noqa: E731
        from tessera import _fast
        call()  # the first call of a case plans; the ones timed below find its plan
        hits = _fast.hits
        row["tessera_queued_ms"] = queued_events_ms(call, stream, runs)
        row["fast_path_calls"] = _fast.hits - hits
        check(f"{name}: every call after the first took the remembered plan", row["fast_path_calls"] == runs + 3,
              f"{row['fast_path_calls']} of {runs + 3}")
        row["tessera_ms"], row["tessera_min_ms"], row["tessera_max_ms"] = events_ms(call, stream, runs)
        row["tessera_back_to_back_ms"] = pipelined_ms(call, stream, runs)
        row["tessera_host_us_per_call"] = host_us(call, runs)
        # CuPy: correlate per channel over an HxWxC array with a kernel of one channel's extent.
        k3 = cp.asarray(kernel[:, :, None].astype(np.float32))
        try:
            row["cupy_ms"] = events_ms(lambda: cpnd.correlate(image, k3, mode="mirror"), stream, max(3, runs // 4))[0]
        except Exception as e:  # noqa: BLE001
            row["cupy_error"] = str(e)
        if torch is not None:
            t = torch.as_tensor(image, device="cuda").permute(2, 0, 1)[None].float()
            w = torch.as_tensor(np.repeat(kernel[None, None].astype(np.float32), 4, 0), device="cuda")
            pad = kernel.shape[0] // 2
            row["torch_ms"] = torch_ms(lambda: F.conv2d(F.pad(t, (pad,) * 4, mode="reflect"), w, groups=4),
                                       max(3, runs // 4))
        for peer in ("cupy_ms", "torch_ms"):
            if peer in row:
                row[peer.replace("_ms", "_ratio")] = row[peer] / row["tessera_ms"]
        RESULTS["timings"].append(row)


def bench(command, size, runs):
    cmd = shlex.split(command) + ["--cases", "rgba8-custom3,rgba8-custom15,rgba8-gaussian31,rgba8-gaussian3", "--size",
                                  f"{size}x{size}", "--runs", str(runs), "--json-only"]
    try:
        text = subprocess.run(cmd, capture_output=True, text=True, timeout=600).stdout
    except Exception as e:  # noqa: BLE001
        print("tessera-bench:", e)
        return
    for line in text.splitlines():
        try:
            RESULTS["bench"].append(json.loads(line))
        except json.JSONDecodeError:
            pass


def table():
    # The bench's own choice (method auto) for the same case; the named 3x3 box is a rank-1 3x3
    # kernel like the bench's 3x3 Gaussian, so the planner treats both alike.
    bench_by_case = {}
    for b in RESULTS["bench"]:
        if "case" in b and "ms_median" in b and b.get("method") == "auto":
            name = "rgba8-box3" if b["case"] == "rgba8-gaussian3" else b["case"]
            bench_by_case.setdefault(name, []).append(b)
    print("\nqueued: CUDA events on the caller's stream around each call, calls queued back to back, one wait "
          "at the end, median (tessera-bench's method); alone: the same with a wait after each call, so the "
          "call's host time and launch latency count; host us: the call's own host time")
    print(f"{'case':18} {'queued ms':>10} {'bench ms':>9} {'q/bench':>8} {'alone ms':>9} {'a/bench':>8} "
          f"{'host us':>8} {'cupy ms':>9} {'x':>6} {'torch ms':>9} {'x':>6}")
    for r in RESULTS["timings"]:
        best = min((b["ms_median"] for b in bench_by_case.get(r["case"], [])), default=None)
        r["bench_ms"] = best
        ratio = r["tessera_queued_ms"] / best if best else None
        alone = r["tessera_ms"] / best if best else None
        r["python_over_bench"] = ratio
        r["alone_over_bench"] = alone
        nan = float("nan")
        print(f"{r['case']:18} {r['tessera_queued_ms']:10.4f} {best if best else nan:9.4f} "
              f"{ratio if ratio else nan:8.3f} {r['tessera_ms']:9.4f} {alone if alone else nan:8.3f} "
              f"{r['tessera_host_us_per_call']:8.1f} {r.get('cupy_ms', nan):9.3f} "
              f"{r.get('cupy_ratio', float('nan')):6.1f} {r.get('torch_ms', float('nan')):9.3f} "
              f"{r.get('torch_ratio', float('nan')):6.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", default="gpu_check.json")
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--bench", help="tessera-bench to run for the same cases (a path or a command)")
    parser.add_argument("--skip", default="", help="comma list of parity,memory,streams,timings")
    a = parser.parse_args()
    print("tessera", tessera.__version__, "from", tessera.LIBRARY_PATH)
    print("devices:", json.dumps([d["name"] for d in tessera.devices()["devices"]]))
    print("cupy", getattr(cp, "__version__", None), "torch", getattr(torch, "__version__", None), "numpy",
          np.__version__)
    check("a CUDA device is visible to tessera", tessera.devices()["device_count"] > 0,
          str(tessera.devices().get("reason")))
    check("cupy imports", cp is not None)
    check("torch imports with CUDA", torch is not None and torch.cuda.is_available())
    rng = np.random.default_rng()
    skip = set(a.skip.split(","))
    for name, step in (("parity", lambda: parity(rng)), ("memory", lambda: memory(rng)),
                       ("streams", lambda: streams(rng)), ("streams again, remembered", lambda: streams(rng)),
                       ("remembered", lambda: remembered_calls(rng)), ("reports", lambda: device_reports(rng)), ("timings", lambda: timings(a.size, a.runs))):
        if name in skip:
            continue
        try:
            step()
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            check(f"{name} ran to the end", False, repr(e))
    if a.bench:
        bench(a.bench, a.size, a.runs)
    table()
    with open(a.json, "w") as f:
        json.dump(RESULTS, f, indent=2, default=str)
    failed = [c for c in RESULTS["checks"] if not c["ok"]]
    print(f"\n{len(RESULTS['checks']) - len(failed)} checks passed, {len(failed)} failed; results in {a.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
