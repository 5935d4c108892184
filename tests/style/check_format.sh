#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every C++ and CUDA source tracked in the repository is as clang-format leaves it under the
# tree's .clang-format. Prints the files that are not and how to fix them; exit 77 (skipped)
# where clang-format 14 or git is missing.
#
#   tests/style/check_format.sh SOURCE_DIR
set -uo pipefail
src=${1:-.}
tool=$(command -v clang-format-14 || true)
if [[ -z $tool ]] || ! command -v git >/dev/null 2>&1 || ! git -C "$src" rev-parse >/dev/null 2>&1; then
    echo "check_format: clang-format-14 or a git checkout is missing; nothing checked"
    exit 77
fi
cd "$src"
# --dry-run --Werror names each file that would change; two at a time keeps it to a few seconds.
report=$(git ls-files -z '*.h' '*.cpp' '*.cu' '*.cuh' | xargs -0 -n 40 -P 2 "$tool" --dry-run --Werror 2>&1)
rc=$?
if ((rc != 0)); then
    echo "$report" | grep -E '^[^ ].*: (error|warning):' | cut -d: -f1 | sort -u | sed 's/^/check_format: not formatted: /'
    echo "check_format: run: git ls-files -z '*.h' '*.cpp' '*.cu' '*.cuh' | xargs -0 clang-format-14 -i"
    exit 1
fi
echo "check_format: $(git ls-files '*.h' '*.cpp' '*.cu' '*.cuh' | wc -l) files as .clang-format wants them"
