#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A real Slurm cluster of one node, started for this test alone (munged, slurmctld, slurmd under
# a temporary folder, on free ports, no systemd), running packaging/slurm/tessera-batch.sbatch:
#   1. 200 images, a 4-task array into one output folder: every output once, byte for byte what
#      one tessera-cli batch of the same list writes; the merged report lists every file once;
#   2. the same list under a slower chain with one task cancelled midway (scancel once some of
#      its outputs exist), that task submitted again: nothing lost or duplicated, no temporary
#      left, the files written before the cancel untouched (inode and mtime), the merged report
#      complete.
# Every daemon and job it started is stopped on exit. Needs root and Debian's slurmctld, slurmd,
# slurm-client and munge; without them it exits 77 (skipped).
# Usage: tests/cluster/slurm_test.sh [BUILD_DIR]   (default build/dev)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-build/dev}
[[ $build = /* ]] || build=$root/$build
cli=$build/app/tessera-cli
sbatch_script=$root/packaging/slurm/tessera-batch.sbatch
started=$SECONDS

say() { echo "slurm-test: $*"; }
skip() { say "SKIPPED: $*"; exit 77; }
fail() {
    say "FAILED: $*" >&2
    exit 1
}

[[ $(id -u) -eq 0 ]] || skip "needs root (slurmd runs jobs as their users)"
for tool in munged slurmctld slurmd sbatch squeue sinfo scancel; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool not found (packaging/install-deps.sh installs slurmctld slurmd slurm-client munge)"
done
[[ -x $cli ]] || fail "$cli not found: build first"

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
    [[ -f $tmp/munge/munged.pid ]] && kill "$(cat "$tmp/munge/munged.pid")" 2>/dev/null || true
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
wait_gone() {  # waits until job $1 has left the queue
    for _ in $(seq 600); do
        [[ -z $(squeue -h -j "$1" 2>/dev/null) ]] && return 0
        sleep 0.2
    done
    fail "job $1 still queued after 120 s"
}

# --- 1. A 4-task array against one process.
t=$SECONDS
"$cli" batch --files-from "$tmp/list.txt" -o "$tmp/reference" "${fast[@]}" --device auto --jobs 2 >"$tmp/reference.txt"
say "one process: $(cat "$tmp/reference.txt") ($((SECONDS - t)) s)"
t=$SECONDS
TESSERA_OUTPUT=$tmp/out1 timeout 300 sbatch --wait --quiet --array=1-4 -o "$tmp/logs/run1-%A_%a.out" \
    "$sbatch_script" "${fast[@]}" || fail "the array ended with status $?"
say "4-task array done in $((SECONDS - t)) s"
[[ $(outputs "$tmp/out1" | wc -l) -eq 200 ]] || fail "$(outputs "$tmp/out1" | wc -l) files in the output folder, not 200"
[[ $(outputs "$tmp/out1") = $(outputs "$tmp/reference") ]] || fail "the array's file names differ from one process's"
while read -r name; do
    cmp -s "$tmp/out1/$name" "$tmp/reference/$name" || fail "$name differs from one process's"
done < <(outputs "$tmp/reference")
reports=("$tmp"/out1.reports/shard-*.json)
((${#reports[@]} == 4)) || fail "${#reports[@]} reports, not 4"
"$cli" batch-report merge -o "$tmp/merged1.json" "${reports[@]}" >"$tmp/merge1.txt" || fail "merge: $(cat "$tmp/merge1.txt")"
grep -q '200 file(s), 200 written, 0 skipped, 0 failed, 0 cancelled, 0 missing' "$tmp/merge1.txt" \
    || fail "merged report: $(cat "$tmp/merge1.txt")"
[[ $(grep -c '"position":' "$tmp/merged1.json") -eq 200 && $(positions_of "$tmp/merged1.json") -eq 0 ]] \
    || fail "the merged report does not list 200 files once each"
say "run 1: 200 outputs, each once, identical to one process; $(cat "$tmp/merge1.txt")"

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
say "task 2 cancelled with $written of its 50 outputs written (array ran $((SECONDS - t)) s)"
((written >= 3 && written < 50)) || fail "task 2 was not cancelled midway ($written of 50 written)"
[[ -z $(find "$tmp/out2" -name '.*') ]] || fail "temporaries left after the cancel: $(find "$tmp/out2" -name '.*')"
grep -q '"was_cancelled": true' "$tmp"/out2.reports/shard-2-of-4.*.json || fail "the cancelled task's report does not say so"
find "$tmp/out2" -mindepth 1 -printf '%f %i %T@\n' | sort >"$tmp/before.txt"

t=$SECONDS
TESSERA_OUTPUT=$tmp/out2 TESSERA_SHARDS=4 timeout 300 sbatch --wait --quiet --array=2 \
    -o "$tmp/logs/rerun-%A_%a.out" "$sbatch_script" "${slow[@]}" || fail "the resubmitted task ended with status $?"
say "task 2 resubmitted and done in $((SECONDS - t)) s: $(grep -h 'file(s)' "$tmp"/logs/rerun-*.out)"
[[ $(outputs "$tmp/out2" | wc -l) -eq 200 ]] || fail "$(outputs "$tmp/out2" | wc -l) files after the rerun, not 200"
[[ $(outputs "$tmp/out2") = $(outputs "$tmp/reference") ]] || fail "file names after the rerun differ from one process's"
find "$tmp/out2" -mindepth 1 -printf '%f %i %T@\n' | sort >"$tmp/after.txt"
unchanged=$(comm -12 "$tmp/before.txt" "$tmp/after.txt" | wc -l)
((unchanged == $(wc -l <"$tmp/before.txt"))) || fail "files written before the cancel were rewritten: $(comm -23 "$tmp/before.txt" "$tmp/after.txt" | head -3)"
"$cli" batch-report merge -o "$tmp/merged2.json" "$tmp"/out2.reports/*.json >"$tmp/merge2.txt" || fail "merge: $(cat "$tmp/merge2.txt")"
grep -q '200 file(s), 200 written, 0 skipped, 0 failed, 0 cancelled, 0 missing' "$tmp/merge2.txt" \
    || fail "merged report after the rerun: $(cat "$tmp/merge2.txt")"
[[ $(grep -c '"position":' "$tmp/merged2.json") -eq 200 && $(positions_of "$tmp/merged2.json") -eq 0 ]] \
    || fail "the merged report after the rerun does not list 200 files once each"
say "run 2: $unchanged files written before the cancel untouched, 200 outputs each once; $(cat "$tmp/merge2.txt")"
say "PASSED"
