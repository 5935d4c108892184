#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian package from a configured and built folder and checks it as a user would get
# it, without installing anything:
#   packaging/check-package.sh BUILD_DIR     (CI: build/dev)
# 1. desktop-file-validate and appstreamcli validate the desktop file and the metainfo;
# 2. cpack -G DEB builds the package; its Depends must not name cuFFT (found at run time);
# 3. lintian finds no error (accepted warnings are listed below);
# 4. the package is unpacked into a temporary root and run from there: versions, a filter
#    applied to an installed sample and read back, the window's --version without a display,
#    every man page rendered, the Python module imported and run on a NumPy image, and the HTML
#    manual present with every link resolving inside it.
# Any failure exits non-zero with the step that failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: check-package.sh BUILD_DIR}
build=$(cd "$build" && pwd)
app_id=io.github.tessera.Tessera

# Lintian: any error (E:) fails the check; warnings (W:) are shown. Debian 12's lintian reports
# none of either on this package. At --display-info it adds these, accepted:
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
step() { echo "check-package: $*"; }
fail() { echo "check-package: FAILED: $*" >&2; exit 1; }

step "desktop-file-validate"
out=$(desktop-file-validate "$root/packaging/$app_id.desktop" 2>&1) || fail "desktop-file-validate: $out"
[[ -z $out ]] || fail "desktop-file-validate reports: $out"

step "appstreamcli validate --no-net"
appstreamcli validate --no-net "$build/packaging/$app_id.metainfo.xml" || fail "appstreamcli validate"

step "cpack -G DEB"
rm -f "$build"/tessera_*.deb
(cd "$build" && cpack -G DEB >/dev/null) || fail "cpack -G DEB"
debs=("$build"/tessera_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "expected one tessera_*.deb in $build"
deb=${debs[0]}
step "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"
depends=$(dpkg-deb -f "$deb" Depends)
echo "  Depends: $depends"
if grep -qi cufft <<<"$depends"; then
    fail "the package depends on cuFFT, which Tessera finds at run time"
fi

step "lintian"
# (lintian warns about running as root, which CI containers do; that line is not a finding)
lintian_out=$(lintian --tag-display-limit 0 "$deb" 2>&1 | grep -v 'running with root privileges' || true)
[[ -z $lintian_out ]] || echo "$lintian_out"
if grep -q '^E:' <<<"$lintian_out"; then
    fail "lintian reports errors"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp/root"
bin=$tmp/root/usr/bin
share=$tmp/root/usr/share

step "installed files"
for f in bin/tessera bin/tessera-cli bin/tessera-bench \
         share/applications/$app_id.desktop share/metainfo/$app_id.metainfo.xml \
         share/icons/hicolor/scalable/apps/$app_id.svg share/icons/hicolor/16x16/apps/$app_id.png \
         share/icons/hicolor/512x512/apps/$app_id.png \
         share/doc/tessera/copyright share/doc/tessera/changelog.gz \
         share/bash-completion/completions/tessera-cli \
         share/tessera/presets/sharpen-5x5.json \
         share/tessera/manual/index.html share/tessera/manual/user-guide.html share/tessera/manual/manual.css; do
    [[ -e $tmp/root/usr/$f ]] || fail "missing /usr/$f"
done

step "tessera-cli --version, tessera-bench --version"
"$bin/tessera-cli" --version
"$bin/tessera-bench" --version

step "tessera-cli apply on an installed sample"
sample=$(find "$share/tessera/samples" -name '*.png' | sort | head -n 1)
[[ -n $sample ]] || fail "no sample image in the package"
"$bin/tessera-cli" apply "$sample" -o "$tmp/out.png" --filter gaussian --param sigma=2 --device auto
[[ -s $tmp/out.png ]] || fail "no output written"
# Read the result back: it decodes, with the sample's size.
size_of() { "$bin/tessera-cli" apply "$1" -o "$tmp/check.png" --filter identity --json | grep -E '"(width|height)"' | tr -d ' \n'; }
[[ $(size_of "$tmp/out.png") == "$(size_of "$sample")" ]] || fail "the output does not read back at the sample's size"
rm -f "$tmp/check.png"

step "without cuFFT: the programs start, say why the FFT method is missing, and filter"
# Every CUDA toolkit folder is covered by an empty tmpfs in a private mount namespace, so neither
# the loader's cache nor the toolkit's folders can give cuFFT: a user's machine without the
# toolkit. Where no namespace can be made (not root), the override points at a missing file.
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
devices=$(no_cufft "$bin/tessera-cli" devices 2>&1) || fail "tessera-cli devices without cuFFT: $devices"
echo "$devices" | sed 's/^/  /'
grep -q "FFT method unavailable" <<<"$devices" || fail "tessera-cli devices does not say the FFT method is unavailable"
no_cufft "$bin/tessera-cli" apply "$sample" -o "$tmp/nofft.png" --filter box --device auto >/dev/null ||
    fail "tessera-cli apply without cuFFT"
[[ -s $tmp/nofft.png ]] || fail "no output written without cuFFT"
no_cufft env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= "$bin/tessera" --version >/dev/null ||
    fail "tessera --version without cuFFT"

step "the Python package: import tessera and filter a NumPy image"
pydir=$tmp/root/usr/lib/python3/dist-packages
[[ -f $pydir/tessera/__init__.py && -f $pydir/tessera/libtessera_c.so ]] || fail "the Python package is not installed"
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    env -u TESSERA_C_LIBRARY PYTHONPATH="$pydir" /usr/bin/python3 - "$pydir" <<'PY' || fail "import tessera from the package"
import os, sys
import numpy as np
import tessera
assert os.path.realpath(tessera.LIBRARY_PATH).startswith(os.path.realpath(sys.argv[1])), tessera.LIBRARY_PATH
image = np.zeros((9, 11), np.uint8)
image[4, 5] = 90
out = tessera.apply(image, "box", size=3, device="cpu")
assert out.shape == image.shape and out.dtype == np.uint8 and out[4, 5] == 10 and out[0, 0] == 0, out
print("  tessera", tessera.__version__, "from", tessera.LIBRARY_PATH, "-", len(tessera.filters()), "filters")
PY
else
    echo "  skipped: no NumPy for /usr/bin/python3"
fi

step "tessera --version with no display"
env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= "$bin/tessera" --version

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

step "passed"
