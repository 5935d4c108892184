#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The wheel as a Python user meets it: built offline (the tessera_wheel target: pip wheel with no
# index and no build isolation), tagged py3-none-<platform>, installed with pip into a fresh plain
# venv of an interpreter that is not Debian's (the python3 on PATH, e.g. pyenv's) and into that
# interpreter itself, and used from both: import from the venv, the bundled library loaded, a
# filter applied and an image written, __version__ with the commit, the type marker present.
# NumPy is declared by the wheel, not carried: when the interpreter has none, the venv gets
# Debian's python3-numpy through a .pth naming a folder that holds only NumPy (same Python
# minor version required).
#   tests/packaging/wheel_test.sh BUILD_DIR
# Exit 77 (skipped): a sanitizer build, no pip, setuptools or wheel for the build interpreter, or no python3 on
# PATH other than Debian's.
set -euo pipefail

build=$(cd "${1:?usage: wheel_test.sh BUILD_DIR}" && pwd)
say() { echo "wheel-test: $*"; }
fail() { say "FAILED: $*" >&2; exit 1; }
skip() { say "SKIPPED: $*"; exit 77; }

grep -q '^TESSERA_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null &&
    skip "a sanitizer build: its library loads only after the sanitizer runtimes, which no user's Python has"
{ /usr/bin/python3 -c 'import setuptools, wheel' && /usr/bin/python3 -m pip --version; } >/dev/null 2>&1 ||
    skip "/usr/bin/python3 lacks pip, setuptools or wheel (packaging/install-deps.sh ci installs them)"
python=""
while read -r candidate; do
    base=$("$candidate" -c 'import sys; print(sys.base_prefix)' 2>/dev/null) || continue
    if [[ $base != /usr ]]; then
        python=$candidate
        break
    fi
done < <(which -a python3 2>/dev/null)
[[ -n $python ]] || skip "no python3 on PATH other than Debian's"
say "interpreter: $python ($("$python" -c 'import sys; print(sys.version.split()[0], sys.base_prefix)'))"

tmp=$(mktemp -d)
installed_global=0
cleanup() {
    if ((installed_global)); then
        "$python" -m pip uninstall -y -q tessera >/dev/null 2>&1 || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

say "building the wheel offline"
cmake --build "$build" --target tessera_wheel >"$tmp/build.txt" 2>&1 || fail "tessera_wheel: $(tail -n 20 "$tmp/build.txt")"
wheels=("$build"/python/dist/tessera-*.whl)
[[ ${#wheels[@]} -eq 1 && -f ${wheels[0]} ]] || fail "expected one wheel in $build/python/dist"
wheel=${wheels[0]}
name=$(basename "$wheel")
say "$name ($(du -h "$wheel" | cut -f1))"
[[ $name =~ ^tessera-[0-9]+\.[0-9]+\.[0-9]+(\+g[0-9a-f]{12}(\.dirty)?)?-py3-none-linux_[a-z0-9_]+\.whl$ ]] ||
    fail "the wheel is not named tessera-VERSION-py3-none-linux_ARCH.whl: $name"
listing=$(/usr/bin/python3 -m zipfile -l "$wheel")
for member in tessera/__init__.py tessera/_lib.py tessera/libtessera.so.0 tessera/py.typed; do
    grep -qE "^${member}[[:space:]]" <<<"$listing" || fail "the wheel lacks $member"
done
if grep -qiE 'numpy/|\.dist-info/.*numpy' <<<"$listing"; then
    fail "the wheel carries NumPy instead of declaring it"
fi
/usr/bin/python3 -m zipfile -e "$wheel" "$tmp/unpacked"
grep -q '^Requires-Dist: numpy' "$tmp"/unpacked/tessera-*.dist-info/METADATA || fail "the wheel does not declare NumPy"
grep -q '^Root-Is-Purelib: false' "$tmp"/unpacked/tessera-*.dist-info/WHEEL || fail "the wheel says it is pure Python"

say "a fresh plain venv (no system site packages)"
"$python" -m venv "$tmp/venv"
venv_python=$tmp/venv/bin/python
numpy_path=""
if ! "$venv_python" -c 'import numpy' 2>/dev/null; then
    [[ $("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])') == \
       $(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])') ]] ||
        skip "the venv has no NumPy and Debian's python3-numpy is for another Python version"
    numpy_path=$tmp/debian-numpy
    mkdir -p "$numpy_path"
    ln -s /usr/lib/python3/dist-packages/numpy "$numpy_path/numpy"
    for info in /usr/lib/python3/dist-packages/numpy-*-info; do ln -s "$info" "$numpy_path/"; done
    site=$("$venv_python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    echo "$numpy_path" >"$site/debian-numpy.pth"
    say "NumPy from Debian's python3-numpy through $site/debian-numpy.pth (that folder holds only NumPy)"
fi
"$venv_python" -m pip install --no-index -q "$wheel" >"$tmp/pip.txt" 2>&1 || fail "pip install into the venv: $(cat "$tmp/pip.txt")"

check() {
    (cd "$tmp" && env -u PYTHONPATH -u TESSERA_LIBRARY "$@" - "$tmp") <<'PY'
import os, sys
import numpy as np
import tessera
tmp = sys.argv[1]
package = os.path.dirname(os.path.realpath(tessera.__file__))
library = os.path.realpath(tessera.LIBRARY_PATH)
assert os.path.dirname(library) == package, (library, package)
assert os.path.exists(os.path.join(package, "py.typed"))
assert "+g" in tessera.__version__ or os.environ.get("TESSERA_NO_COMMIT"), tessera.__version__
image = np.zeros((9, 11), np.uint8)
image[4, 5] = 90
out = tessera.apply(image, "box", size=3, device="cpu")
assert out.shape == image.shape and out.dtype == np.uint8 and out[4, 5] == 10 and out[0, 0] == 0, out
tessera.write(os.path.join(tmp, "out.png"), out)
assert os.path.getsize(os.path.join(tmp, "out.png")) > 0
print(f"  {sys.executable}: tessera {tessera.__version__} from {package}, NumPy {np.__version__}, "
      f"{len(tessera.filters())} filters")
PY
}
check "$venv_python" || fail "using the wheel from the venv"

say "into the interpreter itself ($python -m pip install --no-deps)"
"$python" -m pip install --no-index --no-deps --root-user-action=ignore -q "$wheel" >"$tmp/pip.txt" 2>&1 || fail "pip install into $python: $(cat "$tmp/pip.txt")"
installed_global=1
if [[ -n $numpy_path ]]; then
    check env PYTHONPATH="$numpy_path" "$python" || fail "using the wheel from $python"
else
    check "$python" || fail "using the wheel from $python"
fi
"$python" -m pip uninstall -y -q --root-user-action=ignore tessera || fail "pip uninstall from $python"
installed_global=0
! (cd "$tmp" && "$python" -c 'import tessera' 2>/dev/null) || fail "tessera is still importable after pip uninstall"
say "passed"
