#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs GPU tests one by one under compute-sanitizer and writes one summary line per test.
#
#   tests/sanitizers/compute-sanitizer.sh TOOL GTEST_FILTER OUTDIR [SECONDS_PER_TEST]
#
# TOOL is memcheck, racecheck, initcheck or synccheck. The test program is $TEST_PROGRAM
# (default build/dev/tests/tessera_gpu_tests); $RUNNER, when set, is put in front of it (for
# example a bundle's run script). Each test's full log goes to OUTDIR/TOOL/NAME.log and its line
# to OUTDIR/TOOL/summary.txt: the test's result and the tool's error summary. Images in the kernel
# grids are reduced (TESSERA_TEST_REDUCED=1) unless the caller sets that variable itself.
# The exit status is 1 when any test failed, ran out of time or the tool reported an error.
set -uo pipefail

tool=${1:?tool}
filter=${2:?gtest filter}
outdir=${3:?output folder}
per_test=${4:-300}
program=${TEST_PROGRAM:-build/dev/tests/tessera_gpu_tests}
sanitizer=${COMPUTE_SANITIZER:-compute-sanitizer}
if ! command -v "$sanitizer" >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/compute-sanitizer ]]; then
    sanitizer=/usr/local/cuda/bin/compute-sanitizer
fi
export TESSERA_TEST_REDUCED=${TESSERA_TEST_REDUCED:-1}
read -r -a runner <<<"${RUNNER:-}"

mkdir -p "$outdir/$tool"
summary=$outdir/$tool/summary.txt
: >"$summary"

# gtest prints suites flush left ending in '.', and tests indented below them.
mapfile -t tests < <("${runner[@]}" "$program" --gtest_list_tests "--gtest_filter=$filter" |
    awk '/^[^ ]/ { suite = $1; next } /^  / { print suite $1 }')
if [[ ${#tests[@]} -eq 0 ]]; then
    echo "no test matches $filter" >&2
    exit 1
fi

tool_options=()
case $tool in
racecheck) tool_options=(--racecheck-report all) ;;
memcheck) tool_options=(--leak-check full) ;;
esac

status=0
for name in "${tests[@]}"; do
    log=$outdir/$tool/${name//\//_}.log
    start=$SECONDS
    timeout --signal=INT --kill-after=20 "$per_test" \
        "$sanitizer" --tool "$tool" "${tool_options[@]}" --target-processes all --report-api-errors no \
        "${runner[@]}" "$program" "--gtest_filter=$name" >"$log" 2>&1
    rc=$?
    took=$((SECONDS - start))
    verdict=$(grep -Eo '(ERROR|RACECHECK|LEAK) SUMMARY: .*' "$log" | tail -1)
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then
        result="TIMEOUT after ${took} s"
        status=1
    elif grep -q '^\[  PASSED  \] 1 test' "$log"; then
        result="passed in ${took} s"
    elif grep -q '^\[  SKIPPED \] 1 test' "$log"; then
        result="skipped"
    else
        result="FAILED (exit $rc) in ${took} s"
        status=1
    fi
    if [[ -n $verdict && ! $verdict =~ ' 0 errors' && ! $verdict =~ ' 0 hazards' ]]; then
        status=1
    fi
    printf '%-60s %-24s %s\n' "$name" "$result" "${verdict:-no summary}" | tee -a "$summary"
done
exit $status
