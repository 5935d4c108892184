#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A real Slurm cluster of one node, started for this test alone (munged, slurmctld, slurmd under
# a temporary folder, on free ports, no systemd), running packaging/slurm/tessera-batch.sbatch,
# submitted with its merge job (tessera-merge.sbatch) by packaging/slurm/tessera-submit:
#   1. 200 images, a 4-task array into one output folder: every output once, byte for byte what
#      one tessera-cli batch of the same list writes; the merge job starts after every task and
#      its report lists every file once;
#   2. the same list under a slower chain with one task cancelled midway (scancel once some of
#      its outputs exist), that task submitted again with a merge job: nothing lost or
#      duplicated, no temporary left, the files written before the cancel untouched (inode and
#      mtime), the merged report complete;
#   3. one task under a 1-minute time limit, with a chain that would take longer and the
#      signal asked for 25 s before the limit (tests/cluster/time_limit_check.py): the task
#      stops before the limit, FAILED with exit code 143; its report lists every file, the
#      written ones as ok, the rest as cancelled; exactly those outputs exist, complete, with no
#      temporary left; the merge job ends FAILED (exit 1) with the same counts.
# Every daemon and job it started is stopped on exit. Needs root and Debian's slurmctld, slurmd,
# slurm-client and munge; without them it exits 77 (skipped).
# Usage: tests/cluster/slurm_test.sh [BUILD_DIR]   (default build/dev)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-build/dev}
[[ $build = /* ]] || build=$root/$build
cli=$build/app/tessera-cli
sbatch_script=$root/packaging/slurm/tessera-batch.sbatch
submit=$root/packaging/slurm/tessera-submit
started=$SECONDS

say() { echo "slurm-test: $*"; }
skip() { say "SKIPPED: $*"; exit 77; }
fail() {
    say "FAILED: $*" >&2
    exit 1
}

[[ $(id -u) -eq 0 ]] || skip "needs root (slurmd runs jobs as their users)"
for tool in munged slurmctld slurmd sbatch squeue sinfo scancel scontrol; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool not found (packaging/install-deps.sh ci installs slurmctld slurmd slurm-client munge)"
done
[[ -x $cli ]] || fail "$cli not found: build first"
command -v python3 >/dev/null || fail "python3 not found (it reads the reports)"

tmp=$(mktemp -d /tmp/tessera-slurm.XXXXXX)
chmod 755 "$tmp"
daemons=()
cleanup() {
    local rc=$?
    if [[ -f $tmp/slurm.conf ]] && command -v squeue >/dev/null; then
        # Jobs first, so that no job step outlives its slurmd.
        scancel --quiet --full "$(squeue -h -o %i 2>/dev/null | tr '\n' ' ')" >/dev/null 2>&1 || true
        for _ in $(seq 50); do
            [[ -z $(squeue -h 2>/dev/null) ]] && break
            sleep 0.2
        done
    fi
    for pid in "${daemons[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${daemons[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [[ -f $tmp/munge/munged.pid ]]; then
        kill "$(cat "$tmp/munge/munged.pid")" 2>/dev/null || true
    fi
    # Whatever still runs with this test's folder on its command line is one of its jobs' processes.
    for proc in /proc/[0-9]*; do
        if { tr '\0' ' ' <"$proc/cmdline"; } 2>/dev/null | grep -qF "$tmp"; then
            kill -9 "${proc#/proc/}" 2>/dev/null || true
        fi
    done
    if ((rc != 0)) && [[ $rc -ne 77 ]]; then
        for log in "$tmp"/slurmctld.log "$tmp"/slurmd.log "$tmp"/logs/*; do
            [[ -f $log ]] && { echo "--- $log"; tail -n 25 "$log"; }
        done
    fi
    rm -rf "$tmp"
    say "$((SECONDS - started)) s in all"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two free TCP ports for slurmctld and slurmd.
port_free() { ! (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ports=()
while ((${#ports[@]} < 2)); do
    p=$((20000 + RANDOM % 20000))
    port_free "$p" && port_free "$((p + 1))" && ports=("$p" "$((p + 1))")
done

# munge, on a private socket and key.
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/logs"
chmod 700 "$tmp/munge"
if command -v mungekey >/dev/null; then
    mungekey --create --keyfile="$tmp/munge/munge.key"
else
    dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$tmp/munge/munge.key"
fi
munged --force --socket="$tmp/munge/munge.socket" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" \
    || fail "munged did not start: $(tail -n 3 "$tmp/munge/munged.log" 2>/dev/null)"

host=$(hostname -s 2>/dev/null || hostname)
cpus=$(nproc)
((cpus >= 4)) || cpus=4  # four tasks at once even on a small machine (config_overrides)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=tessera-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=10
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
daemons+=($!)
for _ in $(seq 150); do
    [[ $(sinfo -h -o %T 2>/dev/null) = idle ]] && break
    sleep 0.2
done
[[ $(sinfo -h -o %T 2>/dev/null) = idle ]] || fail "the node did not come up idle: $(sinfo 2>&1 | tail -n 2)"
say "cluster up in $((SECONDS - started)) s (ports ${ports[*]}, $cpus CPUs)"

# 200 images: 512 x 512-ish grey PGMs named by their place in the list (img001 ... img200), the
# first 150 listed one by one (with blank lines and CRLF endings), the rest through a pattern.
mkdir -p "$tmp/in/more"
for i in $(seq -f %03g 200); do
    where=$tmp/in
    ((10#$i > 150)) && where=$tmp/in/more
    w=$((500 + 10#$i % 13))
    { printf 'P5\n%d 512\n255\n' "$w"; head -c $((w * 512)) /dev/urandom; } >"$where/img$i.pgm"
done
{
    for i in $(seq -f %03g 150); do
        printf '%s\r\n' "$tmp/in/img$i.pgm"
        ((10#$i % 50 == 0)) && printf '\n'
    done
    printf '%s\n' "$tmp/in/more/img*.pgm"
} >"$tmp/list.txt"
export TESSERA_LIST=$tmp/list.txt TESSERA_CLI=$cli
fast=(--filter gaussian --param sigma=1.5 --template '{index}-{stem}' --format png)

outputs() { find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort; }
positions_of() { grep -o '"position": [0-9]*' "$1" | sort | uniq -d | wc -l; }  # positions listed twice
wait_gone() {  # waits until job $1 has left the queue, at most $2 seconds (default 120)
    local limit=${2:-120}
    for _ in $(seq $((limit * 5))); do
        [[ -z $(squeue -h -j "$1" 2>/dev/null) ]] && return 0
        sleep 0.2
    done
    fail "job $1 still queued after $limit s"
}
# "STATE EXITCODE START END RUNTIME" of a job or array task as slurmctld has it (MinJobAge
# keeps ended jobs for 10 minutes); every task of an array, one a line, for an array's id.
job_states() {
    scontrol -o show job "$1" | awk '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
        print f["JobState"], f["ExitCode"], f["StartTime"], f["EndTime"], f["RunTime"] }'
}
epoch() { date -d "$1" +%s; }

# --- 1. A 4-task array against one process.
t=$SECONDS
"$cli" batch --files-from "$tmp/list.txt" -o "$tmp/reference" "${fast[@]}" --device auto --jobs 2 >"$tmp/reference.txt"
say "one process: $(cat "$tmp/reference.txt") ($((SECONDS - t)) s)"
t=$SECONDS
ids=$(TESSERA_OUTPUT=$tmp/out1 TESSERA_MERGED=$tmp/merged1.json TESSERA_MERGE_SBATCH="-o $tmp/logs/merge1-%j.out" \
    "$submit" --array=1-4 -o "$tmp/logs/run1-%A_%a.out" -- "${fast[@]}") || fail "tessera-submit: status $?"
read -r job merge <<<"$ids"
[[ $job =~ ^[0-9]+$ && $merge =~ ^[0-9]+$ ]] || fail "tessera-submit printed '$ids', not two job ids"
wait_gone "$merge"
say "4-task array and merge job done in $((SECONDS - t)) s"
job_states "$job" >"$tmp/states1.txt"
[[ $(grep -c '^COMPLETED 0:0 ' "$tmp/states1.txt") -eq 4 ]] || fail "array tasks: $(cat "$tmp/states1.txt")"
read -r state code merge_start _ <<<"$(job_states "$merge")"
[[ "$state $code" = "COMPLETED 0:0" ]] || fail "merge job: $state $code; log: $(cat "$tmp"/logs/merge1-*.out)"
last_end=$(awk '{print $4}' "$tmp/states1.txt" | sort | tail -n 1)
(($(epoch "$merge_start") >= $(epoch "$last_end"))) || fail "the merge job started at $merge_start, before the last task ended ($last_end)"
[[ $(outputs "$tmp/out1" | wc -l) -eq 200 ]] || fail "$(outputs "$tmp/out1" | wc -l) files in the output folder, not 200"
[[ $(outputs "$tmp/out1") = $(outputs "$tmp/reference") ]] || fail "the array's file names differ from one process's"
while read -r name; do
    cmp -s "$tmp/out1/$name" "$tmp/reference/$name" || fail "$name differs from one process's"
done < <(outputs "$tmp/reference")
reports=("$tmp"/out1.reports/shard-*.json)
((${#reports[@]} == 4)) || fail "${#reports[@]} reports, not 4"
grep -h 'merged into' "$tmp"/logs/merge1-*.out >"$tmp/merge1.txt" || fail "no merge line in the merge job's log"
grep -q '^4 report(s) merged into .*: 200 file(s), 200 written, 0 skipped, 0 failed, 0 cancelled, 0 missing$' \
    "$tmp/merge1.txt" || fail "merged report: $(cat "$tmp/merge1.txt")"
[[ $(grep -c '"position":' "$tmp/merged1.json") -eq 200 && $(positions_of "$tmp/merged1.json") -eq 0 ]] \
    || fail "the merged report does not list 200 files once each"
say "run 1: 200 outputs, each once, identical to one process; merge job after the tasks: $(cat "$tmp/merge1.txt")"

# --- 2. A slower chain (one file at a time), task 2 cancelled midway and submitted again.
slow=(--template '{index}-{stem}' --format png --jobs 1)
for _ in $(seq 12); do slow+=(--filter gaussian --param sigma=12); done
t=$SECONDS
job=$(TESSERA_OUTPUT=$tmp/out2 sbatch --parsable --array=1-4 -o "$tmp/logs/run2-%A_%a.out" "$sbatch_script" "${slow[@]}")
job=${job%%;*}
shard2() { outputs "$tmp/out2" 2>/dev/null | grep -E '^[0-9]{3}-img' | awk -F- '(($1 + 0) % 4) == 2' | wc -l; }
for _ in $(seq 600); do
    (($(shard2) >= 3)) && break
    sleep 0.1
done
scancel "${job}_2"
wait_gone "$job"
written=$(shard2)
read -r state code _ <<<"$(job_states "${job}_2")"
say "task 2 cancelled ($state $code) with $written of its 50 outputs written (array ran $((SECONDS - t)) s)"
[[ $state = CANCELLED ]] || fail "the cancelled task ended $state $code, not CANCELLED"
((written >= 3 && written < 50)) || fail "task 2 was not cancelled midway ($written of 50 written)"
[[ -z $(find "$tmp/out2" -name '.*') ]] || fail "temporaries left after the cancel: $(find "$tmp/out2" -name '.*')"
grep -q '"was_cancelled": true' "$tmp"/out2.reports/shard-2-of-4.*.json || fail "the cancelled task's report does not say so"
find "$tmp/out2" -mindepth 1 -printf '%f %i %T@\n' | sort >"$tmp/before.txt"

t=$SECONDS
ids=$(TESSERA_OUTPUT=$tmp/out2 TESSERA_SHARDS=4 TESSERA_MERGED=$tmp/merged2.json \
    TESSERA_MERGE_SBATCH="-o $tmp/logs/merge2-%j.out" "$submit" --array=2 -o "$tmp/logs/rerun-%A_%a.out" -- "${slow[@]}") \
    || fail "tessera-submit: status $?"
read -r job merge <<<"$ids"
wait_gone "$merge"
read -r state code _ <<<"$(job_states "$job")"
[[ "$state $code" = "COMPLETED 0:0" ]] || fail "the resubmitted task: $state $code"
say "task 2 resubmitted and done, with its merge job, in $((SECONDS - t)) s: $(grep -h 'file(s)' "$tmp"/logs/rerun-*.out)"
[[ $(outputs "$tmp/out2" | wc -l) -eq 200 ]] || fail "$(outputs "$tmp/out2" | wc -l) files after the rerun, not 200"
[[ $(outputs "$tmp/out2") = $(outputs "$tmp/reference") ]] || fail "file names after the rerun differ from one process's"
find "$tmp/out2" -mindepth 1 -printf '%f %i %T@\n' | sort >"$tmp/after.txt"
unchanged=$(comm -12 "$tmp/before.txt" "$tmp/after.txt" | wc -l)
((unchanged == $(wc -l <"$tmp/before.txt"))) || fail "files written before the cancel were rewritten: $(comm -23 "$tmp/before.txt" "$tmp/after.txt" | head -3)"
read -r state code _ <<<"$(job_states "$merge")"
grep -h 'merged into' "$tmp"/logs/merge2-*.out >"$tmp/merge2.txt" || fail "no merge line in the merge job's log"
[[ "$state $code" = "COMPLETED 0:0" ]] || fail "merge job: $state $code: $(cat "$tmp/merge2.txt")"
grep -q '^5 report(s) merged into .*: 200 file(s), 200 written, 0 skipped, 0 failed, 0 cancelled, 0 missing$' \
    "$tmp/merge2.txt" || fail "merged report after the rerun: $(cat "$tmp/merge2.txt")"
[[ $(grep -c '"position":' "$tmp/merged2.json") -eq 200 && $(positions_of "$tmp/merged2.json") -eq 0 ]] \
    || fail "the merged report after the rerun does not list 200 files once each"
say "run 2: $unchanged files written before the cancel untouched, 200 outputs each once; $(cat "$tmp/merge2.txt")"

# --- 3. A time limit: 120 images of 1024 x 1024 and a chain sized on this machine to about 0.8 s
# a file on one worker (over 1.5 minutes for the list), so the task is still running when the
# signal comes. Slurm checks time limits every 30 s and sends --signal's signal at the first
# check at most N + 30 s before the limit: with a 1-minute limit and N = 25, between 5 and 35 s
# after the start, and at least 25 s before the limit's own SIGTERM.
mkdir -p "$tmp/in3"
for i in $(seq -f %03g 120); do
    { printf 'P5\n1024 1024\n255\n'; head -c $((1024 * 1024)) /dev/urandom; } >"$tmp/in3/big$i.pgm"
done
printf '%s\n' "$tmp/in3/big*.pgm" >"$tmp/list3.txt"
calibration=()
for _ in $(seq 8); do calibration+=(--filter gaussian --param sigma=40); done
"$cli" batch "$tmp/in3/big001.pgm" "$tmp/in3/big002.pgm" -o "$tmp/calibration" "${calibration[@]}" --format png \
    --jobs 1 --device cpu >"$tmp/calibration.txt" 2>&1 || fail "calibration run: $(cat "$tmp/calibration.txt")"
ms=$(sed -n 's/.* in \([0-9]*\) ms .*/\1/p' "$tmp/calibration.txt")
[[ $ms =~ ^[0-9]+$ ]] || fail "no time in the calibration run's line: $(cat "$tmp/calibration.txt")"
per_filter=$(((ms + 15) / 16))  # ms a file per filter (2 files, 8 filters), at least 1
((per_filter > 0)) || per_filter=1
filters=$(((800 + per_filter - 1) / per_filter))
((filters > 64)) && filters=64  # tessera-cli's most
((120 * filters * per_filter >= 60000)) \
    || fail "this machine filters the 120 images through 64 filters in $((120 * 64 * per_filter / 1000)) s; the time-limit case needs 60 s"
limited=(--template '{index}-{stem}' --format png --jobs 1)
for _ in $(seq "$filters"); do limited+=(--filter gaussian --param sigma=40); done
t=$SECONDS
ids=$(TESSERA_LIST=$tmp/list3.txt TESSERA_OUTPUT=$tmp/out3 TESSERA_DEVICE=cpu TESSERA_MERGED=$tmp/merged3.json \
    TESSERA_MERGE_SBATCH="-o $tmp/logs/merge3-%j.out" "$submit" --array=1-1 --time=1 --signal=B:TERM@25 \
    -o "$tmp/logs/limit-%A_%a.out" -- "${limited[@]}") || fail "tessera-submit: status $?"
read -r job merge <<<"$ids"
wait_gone "$merge" 180
read -r state code _ _ runtime <<<"$(job_states "$job")"
say "time-limited task: $state $code after $runtime ($filters filters, about $per_filter ms each a file; $((SECONDS - t)) s with the merge job)"
[[ "$state $code" = "FAILED 143:0" ]] || fail "the time-limited task ended $state $code, not FAILED 143:0 (log: $(tail -n 5 "$tmp"/logs/limit-*.out))"
[[ $runtime =~ ^00:00:([0-5][0-9])$ ]] || fail "the time-limited task ran $runtime, not less than its 1-minute limit"
reports=("$tmp"/out3.reports/shard-1-of-1.*.json)
[[ -f ${reports[0]} ]] || fail "the time-limited task wrote no report"
[[ -z $(find "$tmp/out3" -name '.*') ]] || fail "temporaries left after the signal: $(find "$tmp/out3" -name '.*')"
python3 "$root/tests/cluster/time_limit_check.py" "${reports[0]}" "$tmp/out3" 120 >"$tmp/check3.txt" \
    || fail "the time-limited task's report and outputs: $(cat "$tmp/check3.txt")"
read -r written last_input last_output <<<"$(tail -n 1 "$tmp/check3.txt")"
# The last file written (with one worker, the one in hand when the signal came, unless it came
# between two files): byte for byte what a run of its own writes.
"$cli" batch "$last_input" -o "$tmp/reference3" --template '{stem}' "${limited[@]:2}" --device cpu >/dev/null 2>&1 \
    || fail "the reference run of $last_input failed"
cmp -s "$last_output" "$tmp/reference3/$(basename "${last_input%.*}").png" \
    || fail "$last_output, written after the signal, differs from a run of its own"
read -r state code _ <<<"$(job_states "$merge")"
grep -h 'merged into' "$tmp"/logs/merge3-*.out >"$tmp/merge3.txt" || fail "no merge line in the merge job's log"
[[ "$state $code" = "FAILED 1:0" ]] || fail "the merge job after the time limit ended $state $code, not FAILED 1:0"
grep -q "^1 report(s) merged into .*: 120 file(s), $written written, 0 skipped, 0 failed, $((120 - written)) cancelled, 0 missing\$" \
    "$tmp/merge3.txt" || fail "merged report after the time limit: $(cat "$tmp/merge3.txt")"
say "run 3: stopped by the signal before the limit with $written of 120 written, each complete, the rest listed as cancelled; merge job FAILED (1): $(cat "$tmp/merge3.txt")"
say "PASSED"
