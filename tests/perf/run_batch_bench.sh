#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The batch measurement of the batch issue, run on the GPU machine:
#   tests/perf/run_batch_bench.sh CLI OUTDIR [COUNT] [JOBS]
# CLI is a tessera-cli (or a wrapper that starts the bundled one). Writes COUNT PNG images
# (2000 x 1500 and 3000 x 2000) with make_batch_images.py, then filters them with the dense 15 x 15
# kernel in custom15.txt on the CPU path and on 1, 2 and 4 GPUs (as many as there are), PNG in and
# out. Each run's JSON report (files per second, peak resident memory, per-file device and time)
# and its summary line land in OUTDIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=$1
out=$2
count=${3:-200}
jobs=${4:-32}
input=$(mktemp -d /tmp/tessera-batch-in.XXXX)
python3 "$here/make_batch_images.py" "$input" "$count" 4
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c "^GPU" || true)
devices=(cpu)
((gpus >= 1)) && devices+=(gpu:0)
((gpus >= 2)) && devices+=(gpu:0,1)
((gpus >= 4)) && devices+=(gpu:0,1,2,3)
for dev in "${devices[@]}"; do
  result=$(mktemp -d /tmp/tessera-batch-out.XXXX)
  name=${dev//[:,]/-}
  "$cli" batch "$input" -o "$result" --kernel @"$here/custom15.txt" --device "$dev" --jobs "$jobs" \
    --report "$out/batch-$name.json" > "$out/batch-$name.txt" 2>&1 || true
  echo "$dev: $(tail -1 "$out/batch-$name.txt")"
  rm -rf "$result"
done
rm -rf "$input"
