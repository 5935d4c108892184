#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One entry point for a fresh Debian machine:
#   packaging/dev.sh run    install what is missing, build, start Tessera on a sample image
#   packaging/dev.sh test   install what is missing, build, run the whole test suite
#   packaging/dev.sh build  install what is missing and build
# What is missing is installed by packaging/install-deps.sh: its run profile for run and build,
# its test profile for test.
# The preset defaults to dev; set TESSERA_PRESET=release or asan for the others.
# TESSERA_CMAKE_ARGS, when set on a build folder's first configure, is added to the preset's
# settings (space-separated -D options; CI uses it, see .ci/run).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
preset=${TESSERA_PRESET:-dev}
build_dir=build/$preset
sample=$root/resources/samples/astronaut.png

usage() {
    sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

# setup_and_build PROFILE: the install-deps.sh profile to install first.
setup_and_build() {
    ./packaging/install-deps.sh "$1"
    # The CUDA toolkit often lives outside PATH.
    if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
        export PATH=/usr/local/cuda/bin:$PATH
    fi
    if [[ ! -f $build_dir/build.ninja ]]; then
        local extra=()
        read -r -a extra <<<"${TESSERA_CMAKE_ARGS:-}"
        cmake --preset "$preset" "${extra[@]}"
    fi
    cmake --build --preset "$preset"
}

run_app() {
    local bin=$build_dir/app
    if [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
        echo "dev.sh: starting Tessera on $sample"
        exec "$bin/tessera" "$sample" "$@"
    fi
    local out=$root/$build_dir/out
    mkdir -p "$out"
    echo "dev.sh: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): running tessera-cli instead"
    "$bin/tessera-cli" devices
    "$bin/tessera-cli" apply "$sample" -o "$out/astronaut-gaussian.png" \
        --filter gaussian --param sigma=2 --device auto
    "$bin/tessera-cli" apply "$sample" -o "$out/astronaut-sobel.tiff" \
        --filter sobel --param dx=1 --param dy=0 --depth f32 --device auto
    cat <<MSG
dev.sh: results written to
  $out/astronaut-gaussian.png
  $out/astronaut-sobel.tiff (32-bit float, signed values kept)
To see the GUI, run this from a desktop session, or without one:
  xvfb-run -a $root/packaging/dev.sh run
or take a screenshot headless:
  QT_QPA_PLATFORM=offscreen $root/$bin/tessera $sample --screenshot /tmp/tessera.png
MSG
}

run_tests() {
    local jobs
    jobs=$(nproc 2>/dev/null || echo 2)
    # The Slurm cluster test (label cluster) is CI's own stage: tests/cluster/slurm_test.sh.
    QT_QPA_PLATFORM=offscreen ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" -LE cluster
}

case ${1:-} in
    run) shift; setup_and_build run; run_app "$@" ;;
    test) setup_and_build test; run_tests ;;
    build) setup_and_build run ;;
    *) usage ;;
esac
