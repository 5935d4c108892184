#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Packs tessera-bench and the shared libraries it needs (OpenCV and its dependencies) into a
# folder that can travel to the GPU machine. Left out: the C library family, libstdc++/libgcc
# (the GPU machine's are newer and compatible) and the CUDA libraries (cuFFT is hundreds of MB;
# run_gpu_bench.sh finds the GPU machine's own).
#
#   tests/perf/make_bundle.sh [BUILD_DIR=build/bench] [BUNDLE_DIR=.gpu-bundle]
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/bench}
bundle=${2:-$root/.gpu-bundle}
bin=$build/app/tessera-bench
[[ -x $bin ]] || { echo "make_bundle.sh: $bin not found; build it with: ninja -C $build tessera-bench" >&2; exit 1; }

rm -rf "$bundle"
mkdir -p "$bundle/lib"
cp "$bin" "$bundle/"
ldd "$bin" | awk '/=> \//{print $3}' | while read -r lib; do
    case $(basename "$lib") in
        libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) ;;
        libcufft*|libcudart*|libcuda.so*|libnpp*) ;;
        *) cp -L "$lib" "$bundle/lib/" ;;
    esac
done
{
    echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "dirty files: $(git -C "$root" status --porcelain 2>/dev/null | wc -l)"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
} > "$bundle/BUILD_INFO"
du -sh "$bundle"
