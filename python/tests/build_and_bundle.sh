#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds libtessera.so.0 (sm_90), tessera-bench and the GPU test binary here and packs them with the
# shared libraries they load (OpenCV and its dependencies; the CUDA runtime is linked in
# statically and cuFFT is opened at run time from the GPU machine's toolkit) into a folder git
# ignores, next to the pure-Python package and the GPU check. On the GPU machine:
#
#   .gpu-py/gpu_python python/tests/gpu_check.py --bench ".gpu-py/run tessera-bench" --json gpu_check.json
#   .gpu-py/run tessera_gpu_tests --gtest_filter='DeviceChain*'
#
# gpu_python unpacks the bundle once, then runs python3 with LD_LIBRARY_PATH on the packed
# libraries, TESSERA_LIBRARY on the packed libtessera.so.0 and PYTHONPATH on python/ of the
# checkout (the package is plain Python, so that machine's Python 3.12 and NumPy 2 load it).
#
#   python/tests/build_and_bundle.sh [OUTDIR]     (default .gpu-py, run from the repository root)
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
out=${1:-.gpu-py}
grep -qxF "/$out/" .git/info/exclude 2>/dev/null || echo "/$out/" >> "$(git rev-parse --git-path info/exclude)"

cmake --preset dev >/dev/null
nice cmake --build --preset dev -j2 --target tessera_core tessera-bench tessera_gpu_tests

lib=build/dev/lib/libtessera.so.0
echo "== what libtessera.so.0 needs (no libcudart, no libcufft, no Qt):"
ldd "$lib" | awk '{print "   " $1}'
if ldd "$lib" | grep -Eq 'libcudart|libcufft|libQt'; then
    echo "build_and_bundle: libtessera.so.0 must not need the CUDA runtime, cuFFT or Qt" >&2
    exit 1
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
strip --strip-unneeded -o "$stage/libtessera.so.0" "$lib"
strip -o "$stage/tessera-bench" build/dev/app/tessera-bench
strip -o "$stage/tessera_gpu_tests" build/dev/tests/gpu/tessera_gpu_tests
chmod +x "$stage"/*
# tessera-cli stays out: it brings most of Qt Core's dependencies and the check does not need it.
# The programs load libtessera.so.0; the stripped copy in the stage is the one packed (lib/).
LD_LIBRARY_PATH="$stage" "$root/../shared/tools/gpu-bundle" "$out" "$stage/tessera-bench" "$stage/tessera_gpu_tests"

cat > "$out/gpu_python" <<'SH'
#!/usr/bin/env bash
# python3 with the bundle's libraries and libtessera.so.0; arguments go to python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/run" tessera-bench --version >/dev/null    # unpacks the bundle once
dest=/tmp/gpu-bundle-$(cksum < "$here/bundle.tar.xz" | cut -d' ' -f1)
cuda=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do [[ -d $d ]] && cuda="$cuda:$d"; done
export LD_LIBRARY_PATH="$dest/lib$cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TESSERA_LIBRARY="$dest/lib/libtessera.so.0"
export PYTHONPATH="$(cd "$here/.." && pwd)/python${PYTHONPATH:+:$PYTHONPATH}"
exec python3 "$@"
SH
chmod +x "$out/gpu_python"
du -sh "$out"
echo "On the GPU machine, from the repository root:"
echo "  $out/gpu_python -c 'import tessera; print(tessera.devices())'"
echo "  $out/gpu_python python/tests/gpu_check.py --bench \"$out/run tessera-bench\" --json gpu_check.json"
echo "  $out/run tessera_gpu_tests --gtest_filter='DeviceChain*'"
