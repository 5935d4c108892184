#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times library peers on tessera-bench's cases and prints the side-by-side table.

Peers: CuPy ``cupyx.scipy.ndimage.correlate`` (correlate1d twice for the separable cases) and
PyTorch ``conv2d`` with groups = channels after a reflect pad. Images are random and resident
on the GPU; each line is the median of CUDA-event timings after warm-up. Output is one JSON
object per line in tessera-bench's schema (method "cupy", "cupy-f32", "torch", and "cufft" for the
one-channel float 31 x 31 case: PyTorch's cuFFT rfft2, a product with the kernel's spectrum computed
beforehand and irfft2 on the unpadded image, a circular convolution, that is the wrap border),
then, when
``--tessera`` names a file of tessera-bench output, a table comparing everything.

Only the table:  peers.py --table-only --tessera tessera.jsonl --extra npp.jsonl peers.jsonl
"""

import argparse
import json
import math
import sys
import time

CEILING_GBS = 4150.0

# name, format, channels, kernel size, separable, target ms at 8192 x 8192 (PERFORMANCE.md)
CASES = [
    ("f32c1-custom3", "f32c1", 1, 3, False, 0.16),
    ("f32c1-custom15", "f32c1", 1, 15, False, 0.5),
    ("f32c1-custom31", "f32c1", 1, 31, False, 1.2),
    ("rgba8-custom3", "rgba8", 4, 3, False, 0.16),
    ("rgba8-custom15", "rgba8", 4, 15, False, 1.0),
    ("rgba8-custom31", "rgba8", 4, 31, False, 2.5),
    ("rgba8-gaussian31", "rgba8", 4, 31, True, 0.25),
    ("f32c1-gaussian31", "f32c1", 1, 31, True, 0.2),
]
TARGETS = {c[0]: c[5] for c in CASES}
UNAVAILABLE_GROUPS = ("multi", "preview")


def select_cases(names):
    chosen = []
    for case in CASES:
        name, fmt, _, k, sep, _ = case
        groups = {"all", fmt, "separable" if sep else "custom"}
        if not sep:
            groups.add("small" if k <= 3 else "large")
        if any(n == name or n in groups for n in names):
            chosen.append(case)
    for n in names:
        if n in UNAVAILABLE_GROUPS:
            print(f"peers.py: case group '{n}' is not yet available; skipping it", file=sys.stderr)
    return chosen


def parse_size(text):
    if "x" in text.lower():
        w, h = text.lower().split("x", 1)
        return int(w), int(h)
    return int(text), int(text)


def gaussian_taps(np, k):
    sigma = k / 6.0
    x = np.arange(k) - (k - 1) / 2.0
    t = np.exp(-x * x / (2 * sigma * sigma))
    return (t / t.sum()).astype(np.float32)


def random_kernel(np, k, rng):
    w = rng.uniform(-0.25, 1.0, size=(k, k))
    return (w / w.sum()).astype(np.float32)


def summarize(ms):
    s = sorted(ms)
    n = len(s)
    med = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    return med, s[0], s[-1]


def time_events(make_event, sync, fn, runs, warmup, budget_s):
    """Warm-up, then timed runs each between two events; fewer runs when one is slow."""
    for _ in range(warmup):
        fn()
    sync()
    t0 = time.perf_counter()
    fn()
    sync()
    one = time.perf_counter() - t0
    runs = max(3, min(runs, int(budget_s / max(one, 1e-6))))
    pairs = []
    for _ in range(runs):
        a, b = make_event(), make_event()
        a.record()
        fn()
        b.record()
        pairs.append((a, b))
    sync()
    return [p[0].elapsed(p[1]) for p in pairs]


def line(case, width, height, method, ms, device_name, extra):
    name, fmt, ch, k, sep, _ = case
    med, lo, hi = summarize(ms)
    io = 2.0 * width * height * 4  # both formats have 4-byte pixels
    floor_ms = io / (CEILING_GBS * 1e6)
    out = {
        "case": name, "format": fmt, "width": width, "height": height,
        "kernel": ("gaussian" if sep else "custom") + str(k), "method": method,
        "devices": [0], "device_name": device_name,
        "ms_median": round(med, 5), "ms_min": round(lo, 5), "ms_max": round(hi, 5), "runs": len(ms),
        "mpix_s": round(width * height / med / 1e3, 2), "bytes": int(io),
        "gbps": round(io / med / 1e6, 2), "floor_ms": round(floor_ms, 5),
        "pct_of_floor": round(100.0 * floor_ms / med, 3), "check": "none", "max_abs_err": None,
        "target_ms": TARGETS[name] if (width, height) == (8192, 8192) else None,
    }
    out.update(extra)
    return out


def run_cupy(cases, width, height, args, emit):
    try:
        import cupy as cp
        import numpy as np
        from cupyx.scipy import ndimage
    except Exception as e:  # noqa: BLE001 - report any import failure and carry on
        print(f"peers.py: CuPy unavailable ({e}); skipping", file=sys.stderr)
        return

    class Ev:
        def __init__(self):
            self.e = cp.cuda.Event()

        def record(self):
            self.e.record()

        def elapsed(self, other):
            return cp.cuda.get_elapsed_time(self.e, other.e)

    sync = cp.cuda.get_current_stream().synchronize
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    rng = np.random.default_rng(args.seed)
    for case in cases:
        cname, fmt, ch, k, sep, _ = case
        taps = gaussian_taps(np, k) if sep else random_kernel(np, k, rng)
        dtypes = [("cupy", cp.float32)] if fmt == "f32c1" else [("cupy", cp.uint8), ("cupy-f32", cp.float32)]
        for method, dtype in dtypes:
            shape = (height, width) if ch == 1 else (height, width, ch)
            if dtype == cp.uint8:
                x = cp.random.randint(0, 256, size=shape, dtype=cp.int32).astype(cp.uint8)
            else:
                x = cp.random.random(shape, dtype=cp.float32)
            out = cp.empty_like(x)
            # 'mirror' is reflect101 (d c b | a b c d); RGBA correlates each channel alone.
            if sep:
                t = cp.asarray(taps)
                tmp = cp.empty(shape, dtype=cp.float32)

                def fn(x=x, out=out, t=t, tmp=tmp):
                    ndimage.correlate1d(x, t, axis=1, output=tmp, mode="mirror")
                    ndimage.correlate1d(tmp, t, axis=0, output=out, mode="mirror")
                how = "correlate1d rows into f32, then columns"
            else:
                w = cp.asarray(taps if ch == 1 else taps[:, :, None])

                def fn(x=x, out=out, w=w):
                    ndimage.correlate(x, w, output=out, mode="mirror")
                how = "correlate, one call" + ("" if ch == 1 else " (weights K x K x 1: per channel)")
            try:
                ms = time_events(Ev, sync, fn, args.runs, args.warmup, args.budget)
                emit(line(case, width, height, method, ms, name,
                          {"chosen": how, "peer_dtype": "u8" if dtype == cp.uint8 else "f32"}))
            except Exception as e:  # noqa: BLE001
                emit({"case": cname, "format": fmt, "width": width, "height": height, "method": method,
                      "devices": [0], "error": str(e)})
            del x, out
            cp.get_default_memory_pool().free_all_blocks()


def run_torch(cases, width, height, args, emit):
    try:
        import numpy as np
        import torch
        import torch.nn.functional as F
    except Exception as e:  # noqa: BLE001
        print(f"peers.py: PyTorch unavailable ({e}); skipping", file=sys.stderr)
        return
    if not torch.cuda.is_available():
        print("peers.py: PyTorch sees no GPU; skipping", file=sys.stderr)
        return
    # Full fp32 products, the accuracy class Tessera keeps (cuDNN would otherwise use TF32).
    torch.backends.cudnn.allow_tf32 = args.torch_tf32
    torch.backends.cuda.matmul.allow_tf32 = args.torch_tf32
    dev = torch.device("cuda:0")
    name = torch.cuda.get_device_name(0)

    class Ev:
        def __init__(self):
            self.e = torch.cuda.Event(enable_timing=True)

        def record(self):
            self.e.record()

        def elapsed(self, other):
            return self.e.elapsed_time(other.e)

    rng = np.random.default_rng(args.seed)
    with torch.no_grad():
        for case in cases:
            cname, fmt, ch, k, sep, _ = case
            taps = gaussian_taps(np, k) if sep else random_kernel(np, k, rng)
            x = torch.rand((1, ch, height, width), device=dev, dtype=torch.float32)
            r = k // 2
            if sep:
                t = torch.from_numpy(taps).to(dev)
                wr = t.view(1, 1, 1, k).repeat(ch, 1, 1, 1)
                wc = t.view(1, 1, k, 1).repeat(ch, 1, 1, 1)

                def fn(x=x, wr=wr, wc=wc, r=r, ch=ch):
                    y = F.conv2d(F.pad(x, (r, r, 0, 0), mode="reflect"), wr, groups=ch)
                    return F.conv2d(F.pad(y, (0, 0, r, r), mode="reflect"), wc, groups=ch)
                how = "reflect pad + conv2d (1 x K), then (K x 1), groups = channels, f32"
            else:
                w = torch.from_numpy(taps).to(dev).view(1, 1, k, k).repeat(ch, 1, 1, 1)

                def fn(x=x, w=w, r=r, ch=ch):
                    return F.conv2d(F.pad(x, (r, r, r, r), mode="reflect"), w, groups=ch)
                how = "reflect pad + conv2d, groups = channels, f32"
            if cname == "f32c1-custom31":
                run_plain_fft(torch, case, x, taps, width, height, args, emit, Ev, name)
            try:
                ms = time_events(Ev, torch.cuda.synchronize, fn, args.runs, args.warmup, args.budget)
                emit(line(case, width, height, "torch", ms, name,
                          {"chosen": how + (" (TF32 allowed)" if args.torch_tf32 else ""), "peer_dtype": "f32"}))
            except Exception as e:  # noqa: BLE001
                emit({"case": cname, "format": fmt, "width": width, "height": height, "method": "torch",
                      "devices": [0], "error": str(e)})
            del x
            torch.cuda.empty_cache()


def run_plain_fft(torch, case, x, taps, width, height, args, emit, Ev, name):
    """The plain cuFFT correlation: rfft2 of the image, a product with the conjugate spectrum of
    the kernel (zero-padded to the image, its anchor at the origin, computed once), irfft2. No
    border frame: the image wraps around."""
    k = taps.shape[0]
    r = k // 2
    padded = torch.zeros((height, width), device=x.device, dtype=torch.float32)
    padded[:k, :k] = torch.from_numpy(taps).to(x.device)
    padded = torch.roll(padded, shifts=(-r, -r), dims=(0, 1))
    spectrum = torch.conj(torch.fft.rfft2(padded))

    def fn(x=x, spectrum=spectrum):
        return torch.fft.irfft2(torch.fft.rfft2(x) * spectrum, s=(height, width))
    try:
        ms = time_events(Ev, torch.cuda.synchronize, fn, args.runs, args.warmup, args.budget)
        emit(line(case, width, height, "cufft", ms, name,
                  {"chosen": "torch.fft rfft2 x precomputed kernel spectrum, irfft2; no padding (wrap border)",
                   "peer_dtype": "f32"}))
    except Exception as e:  # noqa: BLE001
        emit({"case": case[0], "format": case[1], "width": width, "height": height, "method": "cufft",
              "devices": [0], "error": str(e)})


def read_jsonl(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.strip()
            if raw.startswith("{"):
                try:
                    rows.append(json.loads(raw))
                except json.JSONDecodeError:
                    pass
    return rows


def ratio_table(rows):
    """One row per case: Tessera's auto line, the best forced method, the naive kernel and each
    peer; "x best peer" is the best peer's time over Tessera auto's (above 1: Tessera faster)."""
    by_case = {}
    for r in rows:
        if r.get("case") in TARGETS and "ms_median" in r and not r.get("error"):
            if r.get("devices", [0]) != [0]:
                continue  # the table compares GPU 0; other devices and the CPU are in the JSON
            by_case.setdefault(r["case"], []).append(r)
    peers = ["naive", "npp", "cupy", "cupy-f32", "torch", "cufft"]
    head = f"{'case':<18} {'auto ms':>9} {'(ran)':<10} {'best forced':>16} " + " ".join(f"{p:>9}" for p in peers)
    head += f" {'x best peer':>11} {'target':>7} {'met':>4}"
    out = [head, "-" * len(head)]

    def fmt(v):
        return f"{v:9.4g}" if v is not None else f"{'-':>9}"

    for name, *_ in CASES:
        rs = by_case.get(name)
        if not rs:
            continue
        ms = {}
        for r in rs:
            m = r["method"]
            ms[m] = min(ms.get(m, math.inf), r["ms_median"])
        auto = next((r for r in rs if r["method"] == "auto"), None)
        forced = {m: v for m, v in ms.items() if m in ("direct", "separable", "fft")}
        best_forced = min(forced.items(), key=lambda kv: kv[1]) if forced else None
        peer_ms = [ms.get(p) for p in peers]
        real_peers = [v for p, v in zip(peers, peer_ms) if v is not None and p != "naive"]
        a = auto["ms_median"] if auto else None
        ratio = f"{min(real_peers) / a:10.2f}x" if a and real_peers else f"{'-':>11}"
        target = TARGETS[name] if auto and (auto.get("width"), auto.get("height")) == (8192, 8192) else None
        met = ("yes" if a <= target else "no") if (a and target) else "-"
        bf = f"{best_forced[0]} {best_forced[1]:.4g}" if best_forced else "-"
        out.append(f"{name:<18} {fmt(a)} {(auto or {}).get('chosen', '-'):<10} {bf:>16} "
                   + " ".join(fmt(v) for v in peer_ms)
                   + f" {ratio} {target if target else '-':>7} {met:>4}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", default="8192", help="N or WxH (default 8192)")
    ap.add_argument("--runs", type=int, default=20, help="timed runs per line (default 20)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--budget", type=float, default=6.0,
                    help="seconds of timed runs per line at most; slow peers get fewer runs (min 3)")
    ap.add_argument("--cases", default="all", help="names or groups, as tessera-bench")
    ap.add_argument("--peers", default="cupy,torch", help="which peers to time (cupy, torch)")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--torch-tf32", action="store_true", help="let cuDNN use TF32 (less exact, faster)")
    ap.add_argument("--tessera", help="tessera-bench output (JSON lines; other lines ignored)")
    ap.add_argument("--extra", nargs="*", default=[], help="more JSON-lines files for the table (npp, ...)")
    ap.add_argument("--out", help="also write the peers' JSON lines here")
    ap.add_argument("--table-only", action="store_true", help="time nothing; build the table from files")
    ap.add_argument("files", nargs="*", help="with --table-only: more JSON-lines files")
    args = ap.parse_args()

    width, height = parse_size(args.size)
    cases = select_cases([c for c in args.cases.split(",") if c])
    rows = []
    sink = open(args.out, "w", encoding="utf-8") if args.out else None

    def emit(obj):
        text = json.dumps(obj)
        print(text, flush=True)
        if sink:
            sink.write(text + "\n")
            sink.flush()
        rows.append(obj)

    if not args.table_only:
        wanted = set(args.peers.split(","))
        if "cupy" in wanted:
            run_cupy(cases, width, height, args, emit)
        if "torch" in wanted:
            run_torch(cases, width, height, args, emit)
    if sink:
        sink.close()

    for path in ([args.tessera] if args.tessera else []) + list(args.extra) + list(args.files):
        try:
            rows.extend(read_jsonl(path))
        except OSError as e:
            print(f"peers.py: cannot read {path}: {e}", file=sys.stderr)
    if args.tessera or args.table_only:
        print()
        print("ms medians on GPU 0; 'x best peer' = fastest of NPP/CuPy/PyTorch/cuFFT over Tessera auto "
              "(>1: Tessera faster); cufft: plain whole-image cuFFT correlation, wrap border")
        print(ratio_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
