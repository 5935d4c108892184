#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every Debian package Tessera needs to build, run and test. Safe to run again: it
# only calls apt-get when something is missing. Checks for the CUDA toolkit, which is not a
# Debian package here, and explains how to get it when it is absent.
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache pkg-config git
    qt6-base-dev libqt6opengl6-dev libgl-dev qt6-qpa-plugins
    libopencv-dev exiv2 libjpeg62-turbo-dev libpng-dev libtiff-dev libwebp-dev libopenexr-dev zlib1g-dev
    libgtest-dev libgmock-dev
    nlohmann-json3-dev
    xvfb xauth fonts-dejavu-core
    clang-14 clang-format-14 libfuzzer-14-dev
    help2man dpkg-dev fakeroot lintian appstream desktop-file-utils man-db
    pandoc
    slurmctld slurmd slurm-client munge
    python3-numpy python3-pytest python3-hypothesis python3-opencv
    imagemagick
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if ((${#missing[@]})); then
    echo "install-deps: installing ${missing[*]}"
    sudo_cmd=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install packages" >&2; exit 1; }
        sudo_cmd=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "install-deps: all Debian packages present"
fi

# The CUDA toolkit: nvcc 12.x or 13.x on PATH or in /usr/local/cuda.
find_nvcc() {
    if command -v nvcc >/dev/null 2>&1; then command -v nvcc; return; fi
    for d in /usr/local/cuda/bin /usr/local/cuda-13*/bin /usr/local/cuda-12*/bin; do
        [[ -x $d/nvcc ]] && { echo "$d/nvcc"; return; }
    done
}
nvcc_path=$(find_nvcc || true)
if [[ -z $nvcc_path ]]; then
    cat >&2 <<'MSG'
install-deps: the CUDA toolkit (nvcc 12.x or 13.x) is missing. Tessera compiles its GPU code with it
even on machines without a GPU. Install NVIDIA's CUDA Toolkit for Debian 12 (the cuda-toolkit-13-0
package from NVIDIA's repository, see https://developer.nvidia.com/cuda-downloads) so that
/usr/local/cuda/bin/nvcc exists, then run this again.
MSG
    exit 1
fi
version=$("$nvcc_path" --version | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1.\2/p')
case $version in
    12.*|13.*) echo "install-deps: CUDA toolkit $version ($nvcc_path)" ;;
    *) echo "install-deps: $nvcc_path is CUDA $version; Tessera needs nvcc 12.x or 13.x" >&2; exit 1 ;;
esac
