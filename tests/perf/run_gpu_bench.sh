#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the whole comparison on the GPU machine in one go, without network:
#   1. tessera-bench from the bundle (tests/perf/make_bundle.sh made it),
#   2. the Python peers (CuPy, PyTorch) with tests/perf/peers.py,
#   3. NPP: compiles tests/perf/npp_peer.cu with the machine's nvcc and runs it (skipped
#      cleanly when NPP's headers or libraries are missing),
# writes every JSON line to OUT_DIR and prints the ratio table last.
#
#   tests/perf/run_gpu_bench.sh [BUNDLE_DIR=.gpu-bundle] [OUT_DIR=./perf-out]
# Environment: BENCH_ARGS (extra tessera-bench options, e.g. "--runs 30 --cases large"),
#              PEER_ARGS (extra peers.py options), SKIP_PEERS=1, SKIP_NPP=1.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bundle=${1:-$here/../../.gpu-bundle}
out=${2:-${OUT:-$PWD/perf-out}}
mkdir -p "$out"
log=$out/bench.log
: > "$log"
say() { echo "run_gpu_bench: $*" | tee -a "$log" >&2; }

# Files that come back (at most 8): env.txt bench.log tessera.txt tessera.jsonl peers.jsonl
# npp.jsonl ratio_table.txt
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    [[ -f $bundle/BUILD_INFO ]] && cat "$bundle/BUILD_INFO"
    nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>&1
    nvcc --version 2>&1 | tail -1
    python3 -c 'import torch, cupy; print("torch", torch.__version__, "cupy", cupy.__version__)' 2>&1 | tail -1
} > "$out/env.txt"

# --- 1. tessera-bench ---------------------------------------------------------------------
bin=$bundle/tessera-bench
[[ -x $bin ]] || bin=$bundle/app/tessera-bench
cufft_dirs=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    [[ -d $d ]] && cufft_dirs="$cufft_dirs:$d"
done
pydir=$(python3 -c 'import nvidia, os; print(os.path.dirname(nvidia.__path__[0]))' 2>/dev/null || true)
if [[ -n $pydir ]]; then
    for d in "$pydir"/nvidia/*/lib "$pydir"/nvidia/cu13/lib; do [[ -d $d ]] && cufft_dirs="$cufft_dirs:$d"; done
fi
bench_rc=0
if [[ -x $bin ]]; then
    say "tessera-bench ${BENCH_ARGS:-}"
    # shellcheck disable=SC2086
    LD_LIBRARY_PATH="$bundle/lib$cufft_dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$bin" ${BENCH_ARGS:-} > "$out/tessera.txt" 2>> "$log"
    bench_rc=$?
    say "tessera-bench exit status $bench_rc"
    if [[ $bench_rc -ne 0 && ! -s $out/tessera.txt ]]; then
        LD_LIBRARY_PATH="$bundle/lib$cufft_dirs" ldd "$bin" >> "$log" 2>&1
    fi
    grep '^{' "$out/tessera.txt" > "$out/tessera.jsonl" || true
    grep -v '^{' "$out/tessera.txt" || true
else
    say "no tessera-bench in $bundle (make it with tests/perf/make_bundle.sh); peers only"
    : > "$out/tessera.jsonl"
fi

# Same size and cases for the peers as for tessera-bench, when BENCH_ARGS names them.
peer_common=()
set -- ${BENCH_ARGS:-}
while [[ $# -gt 0 ]]; do
    case $1 in
        --size|--cases|--runs|--warmup) peer_common+=("$1" "$2"); shift 2 ;;
        *) shift ;;
    esac
done

# --- 2. CuPy and PyTorch ------------------------------------------------------------------
: > "$out/peers.jsonl"
if [[ ${SKIP_PEERS:-0} != 1 ]]; then
    say "peers.py ${peer_common[*]} ${PEER_ARGS:-}"
    # shellcheck disable=SC2086
    PYTHONUNBUFFERED=1 python3 "$here/peers.py" "${peer_common[@]}" ${PEER_ARGS:-} --out "$out/peers.jsonl" \
        > /dev/null 2>> "$log" || say "peers.py failed (see bench.log)"
fi

# --- 3. NPP -------------------------------------------------------------------------------
: > "$out/npp.jsonl"
if [[ ${SKIP_NPP:-0} != 1 ]]; then
    cuda_home=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")")}
    if ! command -v nvcc > /dev/null; then
        say "NPP skipped: no nvcc"
    elif ! ls "$cuda_home"/include/npp.h "$cuda_home"/targets/*/include/npp.h > /dev/null 2>&1; then
        say "NPP skipped: npp.h not found under $cuda_home"
    else
        tmp=$(mktemp -d)
        if nvcc -O3 -arch=sm_90 "$here/npp_peer.cu" -lnppif -lnppc -o "$tmp/npp_peer" >> "$log" 2>&1; then
            npp_args=()
            for ((i = 0; i < ${#peer_common[@]}; i += 2)); do
                npp_args+=("${peer_common[i]}" "${peer_common[i + 1]}")
            done
            say "npp_peer ${npp_args[*]}"
            "$tmp/npp_peer" "${npp_args[@]}" > "$out/npp.jsonl" 2>> "$log" || say "npp_peer failed (see bench.log)"
        else
            say "NPP skipped: npp_peer.cu did not compile or link (see bench.log)"
        fi
        rm -rf "$tmp"
    fi
fi

# --- ratio table, last --------------------------------------------------------------------
python3 "$here/peers.py" --table-only --tessera "$out/tessera.jsonl" --extra "$out/peers.jsonl" "$out/npp.jsonl" \
    > "$out/ratio_table.txt" 2>> "$log"
echo
cat "$out/ratio_table.txt"
exit "$bench_rc"
