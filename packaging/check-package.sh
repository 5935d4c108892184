#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian packages from a configured and built folder, checks them, installs them on
# this machine, uses them as their users would, and purges them:
#   packaging/check-package.sh BUILD_DIR     (CI: build/dev; needs root, apt-get and dpkg)
# 1. desktop-file-validate and appstreamcli validate the desktop file and the metainfo;
# 2. cpack -G DEB builds libtessera0, libtessera-dev, tessera-cli, tessera and python3-tessera;
#    each one's Depends is checked (the exact libtessera0, no cuFFT anywhere, no Qt Gui or Widgets
#    for tessera-cli, none of Qt for the library), and lintian finds no error in any;
# 3. all five are installed with apt-get, then: versions, a filter applied to an installed
#    sample and read back, the programs without cuFFT, the window's --version without a display,
#    the man pages rendered, the manual's links, `import tessera` (as root, which writes byte
#    code) filtering a NumPy image, and the C and C++ projects of examples/ built against the
#    installed libtessera-dev (pkg-config and find_package) and run;
# 4. all five are purged, and /usr, /etc, /opt and /var/lib (less dpkg's and apt's own records)
#    must hold exactly what they held before, and `import tessera` must fail.
# Any failure exits non-zero with the step that failed (and purges what it installed). Exit 77:
# not root, so nothing can be installed (the build and lint steps have still run).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: check-package.sh BUILD_DIR}
build=$(cd "$build" && pwd)
app_id=io.github.tessera.Tessera
packages=(libtessera0 libtessera-dev tessera-cli tessera python3-tessera)

# Lintian: any error (E:) fails the check; warnings (W:) are shown. One is expected:
#   maintscript-calls-ldconfig             CPack writes a postinst and postrm calling ldconfig for
#                                          a package with a library in /usr/lib; libtessera0's
#                                          ldconfig trigger does the same, so it is harmless.
# At --display-info lintian adds these, accepted:
#   binary-has-unneeded-section .comment   CPack strips with plain `strip`, which keeps the
#                                          compiler's version note; harmless.
#   hardening-no-fortify-functions         the presets do not set _FORTIFY_SOURCE (a later build
#                                          change); relro and bind-now are set.
#   extra-license-file LICENSE             the Apache-2.0 text is shipped beside the copyright
#                                          file on purpose, as the licence asks.
#   package-contains-documentation-outside-usr-share-doc samples/SOURCES.md, manual/*.html
#                                          the samples' origins and licences stay with them; the
#                                          manual lives with the data Help > User Guide reads.
#   spelling-error-in-binary               a message of the statically linked CUDA runtime
#                                          ("occured") and chance letters in machine code.
#   no-symbols-control-file                libtessera0 has a shlibs file tying its users to the
#                                          exact version instead (its C++ symbols are private).
step() { echo "check-package: $*"; }
fail() { echo "check-package: FAILED: $*" >&2; exit 1; }

step "desktop-file-validate"
out=$(desktop-file-validate "$root/packaging/$app_id.desktop" 2>&1) || fail "desktop-file-validate: $out"
[[ -z $out ]] || fail "desktop-file-validate reports: $out"

step "appstreamcli validate --no-net"
appstreamcli validate --no-net "$build/packaging/$app_id.metainfo.xml" || fail "appstreamcli validate"

step "cpack -G DEB"
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB >/dev/null) || fail "cpack -G DEB"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[[ -n $version ]] || fail "no project version in $build/CMakeCache.txt"
declare -A deb
for package in "${packages[@]}"; do
    files=("$build/${package}_${version}_"*.deb)
    [[ -f ${files[0]} ]] || fail "cpack made no $package package"
    deb[$package]=${files[0]}
    printf '  %-40s %6s\n' "$(basename "${files[0]}")" "$(du -h "${files[0]}" | cut -f1)"
done

step "dependencies"
depends_of() { dpkg-deb -f "${deb[$1]}" Depends; }
needs() { grep -qE "(^|, )$2( |,|$)" <<<"$(depends_of "$1")" || fail "$1 does not depend on $2: $(depends_of "$1")"; }
lacks() { ! grep -qiE "$2" <<<"$(depends_of "$1")" || fail "$1 depends on $2: $(depends_of "$1")"; }
exact_lib="libtessera0 \\(= $version\\)"
for package in "${packages[@]}"; do
    echo "  $package: $(depends_of "$package")"
    lacks "$package" cufft
    [[ $package == libtessera0 ]] || needs "$package" "$exact_lib"
done
lacks libtessera0 'libqt6'
lacks tessera-cli 'libqt6(gui|widgets|opengl|dbus)'
needs tessera-cli 'libqt6core6'
needs tessera 'libqt6widgets6'
needs tessera "tessera-cli \\(= $version\\)"
needs tessera qt6-qpa-plugins
needs python3-tessera 'python3-numpy'
needs python3-tessera 'python3 \(>= 3\.[0-9]+\)'
[[ $(dpkg-deb -f "${deb[python3-tessera]}" Architecture) == all ]] || fail "python3-tessera is not Architecture: all"

step "lintian"
# (lintian warns about running as root, which CI containers do; that line is not a finding)
lintian_out=$(lintian --tag-display-limit 0 "${deb[@]}" 2>&1 | grep -v 'running with root privileges' || true)
[[ -z $lintian_out ]] || echo "$lintian_out"
if grep -q '^E:' <<<"$lintian_out"; then
    fail "lintian reports errors"
fi

if [[ $(id -u) -ne 0 ]]; then
    echo "check-package: SKIPPED the install, use and purge steps: they need root"
    exit 77
fi
for package in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q installed; then
        fail "$package is already installed on this machine: purge it first (apt-get purge ${packages[*]})"
    fi
done

tmp=$(mktemp -d)
# Everything under the folders a package can touch, less the package manager's own records and
# caches, and files that change on their own (logs, timestamps, the loader's cache).
snapshot() {
    find /usr /etc /opt /var/lib -xdev \
        \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/lib/systemd -o -path /var/lib/ucf \
           -o -path /etc/ld.so.cache -o -path /var/lib/man-db \) -prune -o -print 2>/dev/null | sort
}
snapshot >"$tmp/before.txt"
installed=0
cleanup() {
    local rc=$?
    if ((installed)); then
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${packages[@]}" >/dev/null 2>&1 || true
    fi
    rm -rf "$tmp"
    exit "$rc"
}
trap cleanup EXIT

step "apt-get install ${packages[*]}"
installed=1
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${deb[@]}" >"$tmp/apt.txt" 2>&1 ||
    fail "apt-get install: $(tail -n 20 "$tmp/apt.txt")"
share=/usr/share

step "installed files"
for f in bin/tessera bin/tessera-cli bin/tessera-bench include/tessera/tessera.h include/tessera/tessera.hpp \
         share/applications/$app_id.desktop share/metainfo/$app_id.metainfo.xml \
         share/icons/hicolor/scalable/apps/$app_id.svg share/icons/hicolor/512x512/apps/$app_id.png \
         share/doc/libtessera0/THIRD-PARTY-NOTICES.md share/tessera/presets/sharpen-5x5.json \
         share/bash-completion/completions/tessera-cli \
         share/tessera/manual/index.html share/tessera/manual/user-guide.html; do
    [[ -e /usr/$f ]] || fail "missing /usr/$f"
done
for package in "${packages[@]}"; do
    [[ -f /usr/share/doc/$package/copyright && -f /usr/share/doc/$package/changelog.gz ]] ||
        fail "$package has no copyright file or changelog"
done
lib=$(dpkg -L libtessera0 | grep -E '/libtessera\.so\.0$' | head -n 1)
[[ -n $lib ]] || fail "libtessera0 holds no libtessera.so.0"
[[ $(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p') == libtessera.so.0 ]] ||
    fail "$lib has no SONAME libtessera.so.0"

step "ldd tessera-cli: no Qt Gui or Widgets, libtessera from the package"
# (ldd's output is read into a variable first: grep -q leaving a pipe early would fail it.)
cli_ldd=$(ldd /usr/bin/tessera-cli)
sed 's/^/  /' <<<"$cli_ldd"
! grep -qE 'libQt6(Gui|Widgets)' <<<"$cli_ldd" || fail "tessera-cli loads Qt Gui or Widgets"
for program in tessera tessera-cli tessera-bench; do
    loaded=$(ldd "/usr/bin/$program" | sed -n 's/^[[:space:]]*libtessera\.so\.0 => \([^ ]*\) .*/\1/p')
    [[ -n $loaded && $(readlink -f "$loaded") == $(readlink -f "$lib") ]] ||
        fail "$program does not load the installed libtessera.so.0 (it loads '${loaded:-nothing}')"
done

step "tessera-cli --version, tessera-bench --version"
tessera-cli --version
tessera-bench --version

step "tessera-cli apply on an installed sample"
sample=$(find "$share/tessera/samples" -name '*.png' | sort | head -n 1)
[[ -n $sample ]] || fail "no sample image in the package"
tessera-cli apply "$sample" -o "$tmp/out.png" --filter gaussian --param sigma=2 --device auto
[[ -s $tmp/out.png ]] || fail "no output written"
size_of() { tessera-cli apply "$1" -o "$tmp/check.png" --filter identity --json | grep -E '"(width|height)"' | tr -d ' \n'; }
[[ $(size_of "$tmp/out.png") == "$(size_of "$sample")" ]] || fail "the output does not read back at the sample's size"
rm -f "$tmp/check.png"

step "without cuFFT: the programs start, say why the FFT method is missing, and filter"
# Every CUDA toolkit folder is covered by an empty tmpfs in a private mount namespace, so neither
# the loader's cache nor the toolkit's folders can give cuFFT: a user's machine without the
# toolkit. Where no namespace can be made, the override points at a missing file.
no_cufft() {
    local dirs=(/usr/local/cuda*)
    if [[ -e ${dirs[0]} ]] && unshare -m true 2>/dev/null; then
        local mounts=""
        for d in "${dirs[@]}"; do
            [[ -d $d && ! -L $d ]] && mounts+="mount -t tmpfs none '$d' && "
        done
        unshare -m sh -c "${mounts}exec \"\$@\"" sh env -u TESSERA_CUFFT_LIBRARY "$@"
    else
        env TESSERA_CUFFT_LIBRARY=/nonexistent/libcufft.so.12 "$@"
    fi
}
devices=$(no_cufft tessera-cli devices 2>&1) || fail "tessera-cli devices without cuFFT: $devices"
echo "$devices" | sed 's/^/  /'
grep -q "FFT method unavailable" <<<"$devices" || fail "tessera-cli devices does not say the FFT method is unavailable"
no_cufft tessera-cli apply "$sample" -o "$tmp/nofft.png" --filter box --device auto >/dev/null ||
    fail "tessera-cli apply without cuFFT"
[[ -s $tmp/nofft.png ]] || fail "no output written without cuFFT"
no_cufft env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= tessera --version >/dev/null ||
    fail "tessera --version without cuFFT"

step "tessera --version with no display"
env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= tessera --version

step "the Python package: byte-compiled by its postinst; import tessera (as root) and filter"
pydir=/usr/lib/python3/dist-packages/tessera
[[ -f $pydir/__init__.py ]] || fail "the Python package is not installed"
compgen -G "$pydir/__pycache__/__init__.cpython-*.pyc" >/dev/null || fail "the postinst did not byte-compile the package"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    (cd / && env -u TESSERA_LIBRARY -u PYTHONPATH /usr/bin/python3 - "$lib") <<'PY' || fail "import tessera from the package"
import os, sys
import numpy as np
import tessera
assert os.path.realpath(tessera.LIBRARY_PATH) == os.path.realpath(sys.argv[1]), tessera.LIBRARY_PATH
image = np.zeros((9, 11), np.uint8)
image[4, 5] = 90
out = tessera.apply(image, "box", size=3, device="cpu")
assert out.shape == image.shape and out.dtype == np.uint8 and out[4, 5] == 10 and out[0, 0] == 0, out
print("  tessera", tessera.__version__, "from", tessera.LIBRARY_PATH, "-", len(tessera.filters()), "filters")
PY
else
    fail "/usr/bin/python3 has no NumPy, though python3-tessera depends on python3-numpy"
fi

step "examples/c (pkg-config) and examples/cpp (find_package) against the installed libtessera-dev"
cp -r "$root/examples" "$tmp/examples"
make -s -C "$tmp/examples/c" >"$tmp/make.txt" 2>&1 || fail "examples/c: $(cat "$tmp/make.txt")"
"$tmp/examples/c/tessera-c-example" "$tmp/ramp.png" | sed 's/^/  /' || fail "examples/c ran with an error"
[[ -s $tmp/ramp.png ]] || fail "examples/c wrote no image"
cmake -S "$tmp/examples/cpp" -B "$tmp/cpp-build" -G Ninja >"$tmp/cmake.txt" 2>&1 || fail "examples/cpp: $(cat "$tmp/cmake.txt")"
cmake --build "$tmp/cpp-build" >"$tmp/cmake.txt" 2>&1 || fail "examples/cpp: $(cat "$tmp/cmake.txt")"
"$tmp/cpp-build/tessera-cpp-example" "$tmp/impulse.tif" | sed 's/^/  /' || fail "examples/cpp ran with an error"
[[ -s $tmp/impulse.tif ]] || fail "examples/cpp wrote no image"

step "the manual: Help > User Guide's pages, links resolving inside share/tessera/manual"
python3 "$root/docs/tools/check_links.py" --html "$share/tessera/manual" || fail "the installed manual has broken links"

step "man pages"
for page in tessera tessera-cli tessera-bench; do
    file=$share/man/man1/$page.1.gz
    [[ -f $file ]] || fail "missing man page $page.1.gz"
    lines=$(MANPAGER=cat MANWIDTH=80 man -l "$file" 2>&1 | wc -l) || fail "man -l $page"
    ((lines > 10)) || fail "man -l $page rendered only $lines lines"
    echo "  $page(1): $lines lines"
done

step "apt-get purge ${packages[*]}: nothing may be left"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${packages[@]}" >"$tmp/apt.txt" 2>&1 ||
    fail "apt-get purge: $(tail -n 20 "$tmp/apt.txt")"
installed=0
snapshot >"$tmp/after.txt"
if ! diff "$tmp/before.txt" "$tmp/after.txt" >"$tmp/left.txt"; then
    sed 's/^/  /' "$tmp/left.txt" | head -n 40
    fail "the purge did not restore the file system (< missing now, > left behind)"
fi
if (cd / && env -u PYTHONPATH /usr/bin/python3 -c 'import tessera' 2>/dev/null); then
    fail "import tessera still succeeds after the purge"
fi

step "passed"
