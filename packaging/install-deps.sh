#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages Tessera needs, by profile (each one holds the one before it):
#   packaging/install-deps.sh [run]   build and run the programs (packaging/dev.sh run and build)
#   packaging/install-deps.sh test    run, and what the test suite uses (packaging/dev.sh test)
#   packaging/install-deps.sh ci      test, and what CI's other stages use (.ci/run)
#   packaging/install-deps.sh --list [run|test|ci]   print a profile's packages; install nothing
# Safe to run again: apt-get is only called when a package is missing. No service is started
# while packages are installed (a temporary /usr/sbin/policy-rc.d refuses every start); the
# last lines say which services the profile's packages (and anything installed with them) have
# enabled. Then checks for the CUDA toolkit, which is not a Debian package here, and explains
# how to get it when it is absent.
set -euo pipefail

# ---- The profiles -------------------------------------------------------------------------
# run: what configuring, building and running the default (dev) build needs. The default build
# compiles the tests too (TESSERA_BUILD_TESTS is ON), so GoogleTest is here, and it makes the
# HTML manual (pandoc) and the man pages (help2man).
run_packages=(
    build-essential cmake ninja-build ccache pkg-config
    dpkg-dev                            # cpack -G DEB (dpkg-shlibdeps)
    qt6-base-dev libgl-dev
    qt6-qpa-plugins fonts-dejavu-core   # the window's platform plugins and font
    libopencv-dev libjpeg62-turbo-dev libpng-dev libtiff-dev libwebp-dev libopenexr-dev zlib1g-dev
    nlohmann-json3-dev
    libgtest-dev libgmock-dev
    pandoc help2man
    xvfb xauth                          # xvfb-run: the window on a machine without a display
)
# test: what `ctest` runs besides the programs: the Python tests and the CLI's image tests
# (Debian's python3 with NumPy, pytest, Hypothesis and OpenCV), the tools the tests write and
# read image metadata with (exiv2, ImageMagick), and style.format (clang-format-14 over git).
test_packages=(
    python3 python3-numpy python3-pytest python3-hypothesis python3-opencv
    exiv2 imagemagick
    clang-format-14 git
)
# ci: CI's stages after the test command (.ci/run).
ci_packages=(
    fakeroot lintian appstream desktop-file-utils man-db   # package: build and check
    slurmctld slurmd slurm-client munge                     # cluster: Slurm job array
    clang-14 libfuzzer-14-dev                               # fuzz
    environment-modules shellcheck                          # cluster script checks
    python3-pip python3-setuptools python3-wheel            # a wheel built offline by Debian's python3
)
# --------------------------------------------------------------------------------------------

usage() {
    sed -n '3,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}
bad_usage() {
    echo "install-deps: $*" >&2
    usage >&2
    exit 2
}

profile=
list=0
while (($#)); do
    case $1 in
        --list) list=1 ;;
        -h|--help) usage; exit 0 ;;
        run|test|ci) [[ -z $profile ]] || bad_usage "one profile only"; profile=$1 ;;
        *) bad_usage "unknown profile or option '$1'" ;;
    esac
    shift
done
profile=${profile:-run}

packages=("${run_packages[@]}")
[[ $profile = run ]] || packages+=("${test_packages[@]}")
[[ $profile != ci ]] || packages+=("${ci_packages[@]}")

if ((list)); then
    printf '%s\n' "${packages[@]}"
    exit 0
fi

# Packages installed now (name per line), for what apt-get brings in besides the named ones.
installed_now() {
    dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 ~ /^[ih]i/ { print $2 }' | sort -u
}

missing=()
declare -A present=()
while read -r name; do
    present[$name]=1
done < <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${packages[@]}" 2>/dev/null | awk '$1 ~ /^[ih]i/ { print $2 }')
for p in "${packages[@]}"; do
    [[ -n ${present[$p]:-} ]] || missing+=("$p")
done

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    sudo_cmd=(sudo)
fi

# While apt-get runs, /usr/sbin/policy-rc.d answers 101 ("action forbidden") to every request,
# so no maintainer script starts a daemon (invoke-rc.d and deb-systemd-invoke both ask it).
# A policy file that was there before is put aside and back afterwards, also on failure.
policy=/usr/sbin/policy-rc.d
saved_policy=/usr/sbin/policy-rc.d.tessera-saved
policy_marker="# Written by Tessera's packaging/install-deps.sh for the duration of apt-get."
policy_placed=0
restore_policy() {
    ((policy_placed)) || return 0
    if [[ -e $saved_policy ]]; then
        "${sudo_cmd[@]}" mv -f "$saved_policy" "$policy"
    else
        "${sudo_cmd[@]}" rm -f "$policy"
    fi
    policy_placed=0
}
# What a run killed during apt-get left behind: the saved file is the real one, and ours goes.
repair_policy() {
    if [[ -e $saved_policy ]]; then
        echo "install-deps: putting back $policy, left aside by an interrupted run"
        "${sudo_cmd[@]}" mv -f "$saved_policy" "$policy"
    elif [[ -f $policy ]] && grep -qF "$policy_marker" "$policy"; then
        echo "install-deps: removing the $policy an interrupted run left"
        "${sudo_cmd[@]}" rm -f "$policy"
    fi
}
place_policy() {
    trap restore_policy EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
    policy_placed=1
    if [[ -e $policy ]]; then
        "${sudo_cmd[@]}" mv -f "$policy" "$saved_policy"
    fi
    printf '#!/bin/sh\n%s\nexit 101\n' "$policy_marker" | "${sudo_cmd[@]}" tee "$policy" >/dev/null
    "${sudo_cmd[@]}" chmod 755 "$policy"
}

repair_policy
new_packages=()
if ((${#missing[@]})); then
    echo "install-deps: profile $profile: installing ${missing[*]}"
    if ((${#sudo_cmd[@]})); then
        command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install packages" >&2; exit 1; }
    fi
    before=$(installed_now)
    place_policy
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    restore_policy
    mapfile -t new_packages < <(comm -13 <(printf '%s\n' "$before") <(installed_now))
    echo "install-deps: packages new on this system, dependencies included: ${#new_packages[@]}; no service was started while installing them"
else
    echo "install-deps: profile $profile: all ${#packages[@]} Debian packages present"
fi

# ---- The services ---------------------------------------------------------------------------
# The systemd units (services, sockets, timers) and SysV init scripts that the profile's
# packages, and the packages this run installed, ship; and whether each is enabled, that is,
# started at boot (or by its timer). systemctl answers where systemd runs; elsewhere (containers)
# the links that enabling makes tell the same.
units=()
owners=()
while read -r pkg file; do
    units+=("$(basename "$file")")
    owners+=("$pkg")
done < <(
    for p in "${packages[@]}" "${new_packages[@]}"; do
        dpkg-query -L "$p" 2>/dev/null |
            sed -nE -e 's,^(/usr)?/lib/systemd/system/([^/@]*\.(service|socket|timer))$,\2,p' \
                    -e 's,^/etc/init\.d/([^/]*)$,\1.init,p' |
            sed "s/^/$p /"
    done | sort -u -k2,2
)

unit_state() {
    local unit=$1 name=${1%.*} file
    if [[ $unit = *.init ]]; then
        # An init script whose unit file exists was already reported as that unit.
        [[ -e /lib/systemd/system/$name.service || -e /usr/lib/systemd/system/$name.service ]] && return 1
        if compgen -G "/etc/rc[2345].d/S*$name" >/dev/null; then echo "enabled (SysV init, /etc/rc?.d)"; else echo "not enabled"; fi
        return 0
    fi
    if [[ -d /run/systemd/system ]]; then
        local state active
        state=$(systemctl is-enabled "$unit" 2>/dev/null || true)
        active=$(systemctl is-active "$unit" 2>/dev/null || true)
        echo "${state:-unknown} (systemctl), ${active:-unknown} now"
        return 0
    fi
    file=/lib/systemd/system/$unit
    [[ -e $file ]] || file=/usr/lib/systemd/system/$unit
    local wants how
    wants=$(cd /etc/systemd/system && compgen -G "*.wants/$unit" | sed 's|\.wants/.*||' | paste -sd ' ' -) || true
    if [[ -n $wants ]]; then
        how="enabled (systemd: wanted by $wants"
        if [[ -e /etc/init.d/$name ]] && compgen -G "/etc/rc[2345].d/S*$name" >/dev/null; then
            how+="; SysV init: /etc/rc?.d/S*$name"
        fi
        echo "$how)"
    elif [[ -L /etc/systemd/system/$unit && $(readlink "/etc/systemd/system/$unit") = /dev/null ]]; then
        echo "masked"
    elif ! grep -q '^\[Install\]' "$file" 2>/dev/null; then
        echo "static (started only by another unit)"
    else
        echo "not enabled"
    fi
}

enabled=()
if ((${#units[@]})); then
    echo "install-deps: services of the $profile profile's packages (this script starts none):"
    for i in "${!units[@]}"; do
        state=$(unit_state "${units[$i]}") || continue
        # A unit that starts only where a file exists (slurmd and slurmctld: slurm.conf) says so.
        for dir in /lib/systemd/system /usr/lib/systemd/system; do
            [[ -f $dir/${units[$i]} ]] || continue
            while read -r need; do
                [[ -e $need ]] || state+="; starts only once $need exists"
            done < <(sed -n 's/^ConditionPathExists=\([^!].*\)$/\1/p' "$dir/${units[$i]}")
            break
        done
        printf '  %-22s %-20s %s\n' "${units[$i]%.init}" "(${owners[$i]})" "$state"
        [[ $state != enabled* ]] || enabled+=("${units[$i]%.init}")
    done
    if [[ ! -d /run/systemd/system ]]; then
        echo "install-deps: systemd is not running here, so nothing starts these; where it runs, the enabled ones start at boot"
    fi
    daemons=()
    for unit in "${enabled[@]}"; do
        [[ $unit = *.timer || $unit = *.socket ]] || daemons+=("$unit")
    done
    if ((${#daemons[@]})); then
        echo "install-deps: Tessera needs none of these daemons running (its cluster test starts its own). To keep them from starting at boot:"
        if [[ -d /run/systemd/system ]]; then
            echo "  sudo systemctl disable --now ${daemons[*]}    # --now: stop them too"
        elif command -v systemctl >/dev/null; then
            echo "  sudo systemctl disable ${daemons[*]}"
        else
            printf '  sudo update-rc.d %s disable\n' "${daemons[@]%.service}"
        fi
    fi
else
    echo "install-deps: the $profile profile's packages hold no service"
fi

# ---- The CUDA toolkit: nvcc 12.x or 13.x on PATH or in /usr/local/cuda ---------------------
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
