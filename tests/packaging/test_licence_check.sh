#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# packaging/licence-check.sh on small fake builds: C programs compiled here, installed by a
# cmake_install.cmake written like CMake's, and a notices file of their own.
#   a program on libc and libm only           passes, and its table lists libm as a direct link
#   --check against the table just written    passes; after an edit of the table it fails
#   a program linking a GPL-only library      fails, naming the program, library and licence
#   a program linking libtiff (which loads    passes: a GPL library loaded by a system library is
#     GPL-2+ jbigkit on Debian)               listed as indirect, not refused
#   a program linking exiv2                   fails as a library no program may load
#   bad input (no markers, a missing program) exit 2
# Exit 77 (skipped) without a C compiler or dpkg.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
script=$root/packaging/licence-check.sh
command -v cc >/dev/null && command -v dpkg >/dev/null || { echo "no cc or dpkg: skipped"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# The first existing file among the loader's folders for a library name.
find_library() {
    local dir
    for dir in /usr/lib/"$(cc -dumpmachine)" /lib/"$(cc -dumpmachine)" /usr/lib /lib; do
        [[ -e $dir/$1 ]] && { echo "$dir/$1"; return 0; }
    done
    return 1
}

# build NAME SOURCE [LIBRARY...]: compiles $tmp/NAME/NAME, forcing a NEEDED entry for each library.
build_program() {
    local name=$1 source=$2; shift 2
    mkdir -p "$tmp/bin"
    printf '%s\n' "$source" >"$tmp/bin/$name.c"
    cc -o "$tmp/bin/$name" "$tmp/bin/$name.c" -Wl,--no-as-needed "$@" || { fail "cc $name"; return 1; }
}

# fake_build DIR PROGRAM...: a build folder whose install rules install these programs.
fake_build() {
    local dir=$1 program; shift
    mkdir -p "$dir/sub"
    echo 'include("'"$dir"'/sub/cmake_install.cmake")' >"$dir/cmake_install.cmake"
    : >"$dir/sub/cmake_install.cmake"
    for program in "$@"; do
        echo '  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/bin" TYPE EXECUTABLE FILES "'"$program"'")' \
            >>"$dir/sub/cmake_install.cmake"
    done
}

notices() {
    printf '# Notices\n\nHandwritten text.\n\n<!-- BEGIN GENERATED LIBRARY TABLE -->\n<!-- END GENERATED LIBRARY TABLE -->\n\nAfter.\n' >"$1"
}

# run_check EXPECTED_RC LABEL ARGS...: runs the script, keeps its output in $out.
run_check() {
    local expected=$1 label=$2; shift 2
    out=$("$script" "$@" 2>&1)
    local rc=$?
    if ((rc != expected)); then
        fail "$label: exit $rc, expected $expected"
        echo "$out"
    fi
}

expect_line() {  # LABEL REGEX
    grep -Eq -- "$2" <<<"$out" || { fail "$1: no line matching '$2' in:"; echo "$out"; }
}

# 1. libc and libm only.
build_program plain '#include <math.h>
#include <stdio.h>
int main(int argc, char **argv) { (void)argv; printf("%f\n", sqrt((double)argc)); return 0; }' -lm
fake_build "$tmp/b1" "$tmp/bin/plain"
notices "$tmp/n1.md"
run_check 0 "plain program" "$tmp/b1" --notices "$tmp/n1.md"
expect_line "plain program" '^licence-check: passed$'
expect_line "plain program" '^licence-check: plain: [0-9]+ libraries loaded, [0-9]+ linked directly$'
grep -Eq '^\| `libm\.so\.6` \| libc6 \| [^|]*LGPL[^|]* \| plain \| - \|$' "$tmp/n1.md" ||
    { fail "the table has no direct libm row:"; cat "$tmp/n1.md"; }
grep -q '^Handwritten text\.$' "$tmp/n1.md" && grep -q '^After\.$' "$tmp/n1.md" ||
    fail "the text around the markers was not kept"

# 2. --check: the table just written matches; an edited one does not.
run_check 0 "--check, unchanged" --check "$tmp/b1" --notices "$tmp/n1.md"
sed -i 's/| plain | - |$/| someone | - |/' "$tmp/n1.md"
run_check 1 "--check, edited" --check "$tmp/b1" --notices "$tmp/n1.md"
expect_line "--check, edited" 'FAIL: .*n1\.md: the library table differs'
expect_line "--check, edited" '^\+\| `libm\.so\.6` .*\| plain \|'

# 3. A direct link to a GPL-only library (jbigkit is GPL-2+, readline GPL-3+ in Debian 12).
gpl_library=
for candidate in libjbig.so.0 libreadline.so.8; do
    if gpl_library=$(find_library "$candidate"); then break; fi
done
if [[ -n $gpl_library ]]; then
    soname=$(basename "$gpl_library")
    build_program gpl 'int main(void) { return 0; }' "$gpl_library"
    fake_build "$tmp/b3" "$tmp/bin/plain" "$tmp/bin/gpl"
    notices "$tmp/n3.md"
    run_check 1 "GPL-only direct link" "$tmp/b3" --notices "$tmp/n3.md"
    expect_line "GPL-only direct link" "^licence-check: FAIL: gpl: ${soname//./\\.}: linked directly, and its package [^ ]+ is under GPL-[23]\+? only"
    if grep -q 'FAIL: plain:' <<<"$out"; then fail "the plain program was blamed: $out"; fi
    expect_line "GPL-only direct link" '^licence-check: 1 problem\(s\)$'
else
    echo "no GPL-only library installed (libjbig0, libreadline8): that case is not run"
fi

# 4. The same kind of library loaded through a system library only: listed, not refused.
if tiff=$(find_library libtiff.so.6) && [[ $(ldd "$tiff") == *libjbig.so.0* ]]; then
    build_program tiffuser 'int main(void) { return 0; }' "$tiff"
    fake_build "$tmp/b4" "$tmp/bin/tiffuser"
    notices "$tmp/n4.md"
    run_check 0 "GPL library under libtiff" "$tmp/b4" --notices "$tmp/n4.md"
    grep -Eq '^\| `libjbig\.so\.0` \| libjbig0 \| GPL-2\+ \| - \| tiffuser \|$' "$tmp/n4.md" ||
        { fail "jbigkit is not listed as loaded indirectly:"; cat "$tmp/n4.md"; }
    grep -Eq '^\| `libtiff\.so\.6` \| libtiff6 \| [^|]+ \| tiffuser \| - \|$' "$tmp/n4.md" ||
        fail "libtiff is not listed as a direct link"
else
    echo "no libtiff.so.6 loading jbigkit: the indirect case is not run"
fi

# 5. exiv2 may not be loaded at all.
if exiv2=$(find_library libexiv2.so.27); then
    build_program meta 'int main(void) { return 0; }' "$exiv2"
    fake_build "$tmp/b5" "$tmp/bin/meta"
    notices "$tmp/n5.md"
    run_check 1 "exiv2" "$tmp/b5" --notices "$tmp/n5.md"
    expect_line "exiv2" '^licence-check: FAIL: meta: libexiv2\.so\.27: links exiv2, which no shipped program may load'
else
    echo "no libexiv2.so.27 installed: the exiv2 case is not run"
fi

# 6. Bad input.
printf '# no markers\n' >"$tmp/bad.md"
run_check 2 "notices without markers" "$tmp/b1" --notices "$tmp/bad.md"
expect_line "notices without markers" 'has no .*BEGIN GENERATED LIBRARY TABLE'
fake_build "$tmp/b6" "$tmp/bin/not-built"
run_check 2 "a program not built" "$tmp/b6" --notices "$tmp/n1.md"
expect_line "a program not built" 'not-built is installed by the build but not built'
mkdir -p "$tmp/empty"
run_check 2 "no install rules" "$tmp/empty" --notices "$tmp/n1.md"
run_check 2 "no build folder" "$tmp/nowhere" --notices "$tmp/n1.md"

if ((failures)); then
    echo "$failures failure(s)"
    exit 1
fi
echo "licence check self-test passed"
