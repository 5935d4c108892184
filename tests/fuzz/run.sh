#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets with clang into BUILD_DIR (default build/fuzz), replays the seed
# corpus and the kept regressions, then fuzzes each target for FUZZ_SECONDS (default 30).
# Prints each target's executions and coverage, and exits non-zero on any finding.
# Usage: tests/fuzz/run.sh [BUILD_DIR]   (env: FUZZ_SECONDS, FUZZ_TARGETS, FUZZ_JOBS, FUZZ_PARALLEL, CXX,
#        FUZZ_SEED: libFuzzer's -seed; 0, the default, draws a new one each run)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-build/fuzz}
[[ $build = /* ]] || build=$root/$build
seconds=${FUZZ_SECONDS:-30}
seed=${FUZZ_SEED:-0}
cxx=${CXX:-clang++-14}
fuzz_dir=$root/tests/fuzz
started=$(date +%s)

command -v "$cxx" >/dev/null || { echo "fuzz: $cxx not found (packaging/install-deps.sh ci installs clang-14 and libfuzzer-14-dev)" >&2; exit 2; }

cmake -S "$fuzz_dir" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "${FUZZ_JOBS:-2}"

# Every fuzz_*.cpp of the folder, unless FUZZ_TARGETS names some.
default_targets=$(cd "$fuzz_dir" && ls fuzz_*.cpp | sed 's/\.cpp$//' | tr '\n' ' ')
targets=${FUZZ_TARGETS:-$default_targets}
work=$build/work
findings=$build/findings
mkdir -p "$work" "$findings"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# One target per core at a time (FUZZ_PARALLEL, default nproc): each libFuzzer run is one
# process on one core, so every target still gets its FUZZ_SECONDS of a whole core.
fuzz_one() {
    local t=$1 exe=$build/$1 seeds=$fuzz_dir/corpus/$1 regressions=$fuzz_dir/regressions/$1
    local log=$build/$1.log result=ok replay=()
    mkdir -p "$work/$t"
    rm -f "$log"
    [[ -d $seeds ]] && replay+=("$seeds")
    [[ -d $regressions ]] && replay+=("$regressions")
    if ((${#replay[@]})) && ! "$exe" -runs=0 -rss_limit_mb=2560 -timeout=10 "${replay[@]}" >"$build/$t.replay.log" 2>&1; then
        result=REPLAY-FAILED
    fi
    if [[ $result = ok ]] && ! "$exe" -seed="$seed" -max_total_time="$seconds" -rss_limit_mb=2560 -timeout=10 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$findings/$t-" \
            "$work/$t" "${replay[@]}" >"$log" 2>&1; then
        result=FINDING
    fi
    echo "$result" >"$build/$t.result"
}

parallel=${FUZZ_PARALLEL:-$(nproc 2>/dev/null || echo 2)}
running=0
for t in $targets; do
    rm -f "$build/$t.result"
    fuzz_one "$t" &
    running=$((running + 1))
    if ((running >= parallel)); then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

failed=()
printf '%-20s %12s %10s %8s %8s %6s\n' target executions exec/s cov ft result
for t in $targets; do
    log=$build/$t.log
    result=$(cat "$build/$t.result" 2>/dev/null || echo NO-RESULT)
    case $result in
        REPLAY-FAILED) tail -n 30 "$build/$t.replay.log" >&2 ;;
        FINDING) tail -n 40 "$log" >&2 ;;
    esac
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" 2>/dev/null | tail -1)
    last=$(grep -E '#[0-9]+.*cov: ' "$log" 2>/dev/null | tail -1 || true)
    cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
    printf '%-20s %12s %10s %8s %8s %6s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" "${ft:--}" "$result"
    [[ $result = ok ]] || failed+=("$t")
done
echo "fuzz: $(($(date +%s) - started)) s in all"
if ((${#failed[@]})); then
    echo "fuzz: findings in ${failed[*]}; inputs under $findings, logs under $build" >&2
    exit 1
fi
