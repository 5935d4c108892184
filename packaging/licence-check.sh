#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The licences of what the shipped programs load:
#   packaging/licence-check.sh BUILD_DIR            write the library table into the notices
#   packaging/licence-check.sh --check BUILD_DIR    compare it with the committed one (CI)
#   (--notices FILE picks another notices file, for the self-test)
# The programs are those the build's install rules install (the .deb's programs and the Python
# module's C library). For each, `ldd` lists every library loaded and `readelf -d` the direct
# links (NEEDED); packaging/licence_table.py maps each library to its Debian package and licence
# and writes the table between the markers of packaging/THIRD-PARTY-NOTICES.md.
# Fails (exit 1, one line per problem) when a rule below is broken, or with --check when the
# table differs from the file; exit 2 for bad input.
set -euo pipefail

# ---- The rules ----------------------------------------------------------------------------
# Libraries no shipped program may load at all, directly or through another library:
#   NAME|REGEX on the library's file name (soname)|why
forbidden=(
    'exiv2|^libexiv2[.-]|Debian builds it under GPL-2+ only; linking it would put the programs under the GPL'
    'GDAL|^libgdal[.-]|unused by Tessera; it comes through OpenCV imgcodecs and brings poppler (GPL) with it'
    'GDCM|^libgdcm|unused by Tessera; DICOM support that comes through OpenCV imgcodecs'
    'poppler|^libpoppler[.-]|GPL-2 or GPL-3 only'
    'Qt Charts|^libQt6Charts[.]|GPL-3 only in the open-source release of Qt 6'
)
# A direct link (NEEDED) to a library whose package's main licence has no alternative other than
# these (licence short names of Debian's copyright files) fails...
copyleft_only='^A?GPL'
# ...unless the licence carries one of these linking exceptions.
linking_exceptions='GCC-Runtime-Library|GCC|Bison|Autoconf|Libtool|Classpath'
# --------------------------------------------------------------------------------------------

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '3,6p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "licence-check: $*" >&2; exit 2; }

check=()
notices=$root/packaging/THIRD-PARTY-NOTICES.md
build=
while (($#)); do
    case $1 in
        --check) check=(--check) ;;
        --notices) shift; (($#)) || usage; notices=$1 ;;
        -h|--help) usage ;;
        -*) die "unknown option $1" ;;
        *) [[ -z $build ]] || usage; build=$1 ;;
    esac
    shift
done
[[ -n $build ]] || usage
[[ -d $build ]] || die "no build folder $build"
[[ -f $notices ]] || die "no notices file $notices"
for tool in ldd readelf dpkg /usr/bin/python3; do
    command -v "$tool" >/dev/null || die "$tool is needed"
done

# The shipped programs: what the install rules of the build install as programs or shared
# libraries (cmake_install.cmake: file(INSTALL ... TYPE EXECUTABLE|SHARED_LIBRARY|MODULE FILES
# "path" ...), the paths on the same line or the next). A versioned library's name links are
# skipped; CPack's staging copy is not a build.
mapfile -t programs < <(
    find "$build" -name cmake_install.cmake -not -path '*/_CPack_Packages/*' -print0 |
        xargs -0 -r cat | tr '\n' ' ' |
        grep -o 'TYPE \(EXECUTABLE\|SHARED_LIBRARY\|MODULE\) FILES\( \+"[^"]*"\)*' |
        grep -o '"[^"]*"' | tr -d '"' | sort -u)
[[ ${#programs[@]} -gt 0 ]] || die "no installed programs found in $build (is it configured?)"

records=$(mktemp -d)
trap 'rm -rf "$records"' EXIT
: >"$records/programs"
for program in "${programs[@]}"; do
    [[ -L $program ]] && continue
    [[ -f $program ]] || die "$program is installed by the build but not built"
    name=$(basename "$program")
    [[ ! -e $records/$name.ldd ]] || die "two installed programs are named $name"
    ldd "$program" >"$records/$name.ldd" || die "ldd $program failed"
    readelf -d "$program" >"$records/$name.needed" || die "readelf -d $program failed"
    echo "$name" >>"$records/programs"
done

rules=()
for rule in "${forbidden[@]}"; do rules+=(--forbid "$rule"); done
rc=0
/usr/bin/python3 "$root/packaging/licence_table.py" --records "$records" --notices "$notices" \
    "${check[@]}" "${rules[@]}" --copyleft "$copyleft_only" --exceptions "$linking_exceptions" || rc=$?
exit "$rc"
