#!/usr/bin/env bash
# One large PyTorch profiler (Kineto) JSON trace, side by side in one run: a bare one-thread simdjson
# on-demand pass over the file (bench/simdjson_pass.cc: load it, touch every event, build nothing),
# `ampprof analyze` with -j1 (the one-thread import) and with -j2 (the event array split into blocks
# parsed on two threads, collectors/kineto/event_blocks.h), on the file and on its gzip copy. Each is
# run REPEAT times, interleaved, in fresh processes, with the files in the page cache (read before). Per run: wall time, user and
# system CPU time and peak RSS (/usr/bin/time), and for ampprof the import alone (its "read ... in"
# log line, which does not include building the model or the analysis) and, with -j2, what its
# parallel import logged: the CPU time of all its blocks and the reading thread's share of it, of
# reading and of making records in file order, and how long the reading thread waited for the other
# thread's last blocks. Prints one TSV
# line per run and the load average before and after; docs/performance.md quotes them.
#
#   bench/kineto_import_bench.sh BUILD_DIR [KERNELS] [REPEAT]
#   bench/kineto_import_bench.sh build-bench 1000000 3
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:?usage: bench/kineto_import_bench.sh BUILD_DIR [KERNELS] [REPEAT]}"
kernels="${2:-1000000}"
repeat="${3:-3}"
ampprof="$build/src/cli/ampprof"
synth="$build/collectors/synthetic/ampprof-synth"
pass="$build/bench/ampprof_simdjson_pass"
work="${AMPPROF_BENCH_DIR:-/tmp/ampprof-bench}"
mkdir -p "$work"
trace="$work/synthetic-$kernels.json"
[[ -f "$trace" ]] || "$synth" --kernels "$kernels" -o "$trace"
[[ -f "$trace.gz" ]] || gzip -k "$trace"
cat "$trace" "$trace.gz" > /dev/null

echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(basename "$trace"):" \
  "$(( $(stat -c %s "$trace") / 1048576 )) MiB; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'run\tmode\twall_s\tuser_s\tsys_s\tpeak_rss_mib\timport_s\n'
# One run of a command: its wall, user and system seconds and peak RSS, and the import time it logged.
measure() {
  local mode="$1" run="$2"
  shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$@" > /dev/null 2> "$work/stderr.txt"
  read -r wall user sys rss_kib < "$work/time.txt"
  local import
  import=$(sed -n 's/.* in \([0-9.]*\) s$/\1/p' "$work/stderr.txt" | head -1)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$mode" "$wall" "$user" "$sys" "$((rss_kib / 1024))" "${import:--}"
  grep -h 'parallel import' "$work/stderr.txt" | sed 's/^/#   /' || true
}
for run in $(seq 1 "$repeat"); do
  measure "simdjson on-demand pass, 1 thread" "$run" "$pass" "$trace"
  measure "ampprof analyze -j1" "$run" "$ampprof" --log-level info analyze "$trace" -j 1
  measure "ampprof analyze -j2" "$run" "$ampprof" --log-level info analyze "$trace" -j 2
  measure "ampprof analyze -j1, gzip" "$run" "$ampprof" --log-level info analyze "$trace.gz" -j 1
  measure "ampprof analyze -j2, gzip" "$run" "$ampprof" --log-level info analyze "$trace.gz" -j 2
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
