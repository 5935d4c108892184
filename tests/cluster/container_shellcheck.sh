#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs shellcheck over the cluster's shell code, which no build step compiles:
#   - the shell sections (%setup, %post, %environment, %runscript, %startscript, %test) of each
#     Apptainer recipe in packaging/container/, as bash (-s bash) and as /bin/sh, which
#     Apptainer runs them with (-s sh); %post, %runscript and %test must be there. Each
#     section is checked in place, the rest of the recipe blanked out, so a finding's line is
#     the recipe's own line;
#   - packaging/slurm/* (the .sbatch scripts and tessera-submit) and tests/cluster/*.sh.
# Exit status: 0 clean, 1 a finding (printed) or a missing section, 77 skipped (no shellcheck).
# Usage: tests/cluster/container_shellcheck.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
say() { echo "shellcheck-test: $*"; }
command -v shellcheck >/dev/null || { say "SKIPPED: shellcheck not found (install shellcheck)"; exit 77; }
tmp=$(mktemp -d /tmp/tessera-shellcheck.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

failed=0
recipes=("$root"/packaging/container/*.def)
[[ -f ${recipes[0]} ]] || { say "FAILED: no recipe in packaging/container/"; exit 1; }
for recipe in "${recipes[@]}"; do
    name=$(basename "$recipe")
    for section in setup post environment runscript startscript test; do
        # The section's lines from its header to the next "%name" header; every other line blank.
        awk -v want="%$section" '
            /^%[a-z]+([ \t].*)?$/ { inside = ($1 == want); print ""; next }
            { print (inside ? $0 : "") }' "$recipe" >"$tmp/$name.$section.sh"
        if ! grep -q '[^[:space:]]' "$tmp/$name.$section.sh"; then
            case $section in
                post | runscript | test) say "FAILED: $name has no %$section section"; failed=1 ;;
            esac
            continue
        fi
        for dialect in bash sh; do
            if ! shellcheck -s "$dialect" "$tmp/$name.$section.sh" >"$tmp/out.txt" 2>&1; then
                say "FAILED: $name %$section as $dialect (lines are the recipe's):"
                sed "s|$tmp/$name.$section.sh|$name|g" "$tmp/out.txt"
                failed=1
            fi
        done
        say "$name %$section: $(grep -c '[^[:space:]]' "$tmp/$name.$section.sh") lines checked as bash and sh"
    done
done

scripts=("$root"/packaging/slurm/* "$root"/tests/cluster/*.sh)
if shellcheck -s bash "${scripts[@]}"; then
    say "${#scripts[@]} scripts clean: $(printf '%s\n' "${scripts[@]#"$root"/}" | tr '\n' ' ')"
else
    say "FAILED: findings in the scripts above"
    failed=1
fi
((failed == 0)) && say "PASSED"
exit "$failed"
