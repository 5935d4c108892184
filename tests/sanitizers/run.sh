#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the asan preset (AddressSanitizer + UBSan on all host code) and runs the whole CPU test
# suite under it; see tests/sanitizers/README.md. Prints the wall time of the build and the test
# step; exits non-zero when the configure, the build or any test fails.
#   tests/sanitizers/run.sh [extra ctest arguments, e.g. -R Batch]
# TESSERA_JOBS sets the build and test parallelism (default: nproc). Run it where there is no
# CUDA device, as CI is.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
supp=$root/tests/sanitizers
jobs=${TESSERA_JOBS:-$(nproc 2>/dev/null || echo 2)}

# The CUDA toolkit often lives outside PATH.
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi

elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

start=$SECONDS
# The GPU code's objects come from the dev build when there is one (brought up to date here
# first): their host side runs only where a GPU does, never in the CPU suite checked below, and
# compiling their device code again would be most of this build. TESSERA_ASAN_OWN_KERNELS=1
# compiles them here instead.
kernels=()
if [[ -f build/dev/build.ninja && -z ${TESSERA_ASAN_OWN_KERNELS:-} ]]; then
    if ! cmake --build build/dev -j "$jobs" --target tessera_gpu_kernels; then
        echo "sanitizers: the dev build's GPU kernels did not build"
        exit 1
    fi
    kernels=(-DTESSERA_PREBUILT_GPU_KERNELS="$root/build/dev/gpu/CMakeFiles/tessera_gpu_kernels.dir")
else
    kernels=(-DTESSERA_PREBUILT_GPU_KERNELS=)
fi
if ! cmake --preset asan "${kernels[@]}" || ! cmake --build --preset asan -j "$jobs"; then
    echo "sanitizers: asan build FAILED after $(elapsed $((SECONDS - start)))"
    exit 1
fi
build_s=$((SECONDS - start))
echo "sanitizers: asan build $(elapsed "$build_s")"

# halt_on_error and a distinct exit code: a finding fails its test even where the test only
# checks an exit status (the CLI's exit codes are 0, 1, 2, 130 and 143). Leaks are checked at
# exit (LSan); third-party leaks are suppressed only through lsan.supp, each entry with a reason.
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:exitcode=86:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86:suppressions=$supp/ubsan.supp
export LSAN_OPTIONS=exitcode=86:suppressions=$supp/lsan.supp:print_suppressions=0
export QT_QPA_PLATFORM=offscreen

start=$SECONDS
# The whole suite, as the normal run: without a CUDA device the gpu-labelled tests skip and their
# CPU-path tests still run (device code is compute-sanitizer's job on the GPU machine). A hang must
# not eat CI's hour, hence the per-test ceiling.
# The Slurm cluster test runs once, in CI's own stage, on the normal build.
ctest --test-dir build/asan --output-on-failure --no-tests=error -j "$jobs" --timeout 600 -LE cluster "$@"
rc=$?
test_s=$((SECONDS - start))
echo "sanitizers: asan tests $(elapsed "$test_s") ($([[ $rc -eq 0 ]] && echo passed || echo FAILED))"
echo "sanitizers: total $(elapsed $((build_s + test_s)))"
exit "$rc"
