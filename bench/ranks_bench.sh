#!/usr/bin/env bash
# The cross-rank report at scale: synthetic jobs of 8 to 1,024 ranks (ampprof-synth --ranks, one trace
# of KERNELS kernels per rank, rank 3 a straggler), each analysed in a fresh process with -j1 and -j2
# (wall time and peak RSS from /usr/bin/time), and the Dask path (python/ampprof/distributed.py on a
# LocalCluster of 2 workers, map + reduce) against `ampprof analyze -j2` for the largest job.
# Prints one TSV line per measurement; docs/performance.md quotes them.
#
#   bench/ranks_bench.sh BUILD_DIR [KERNELS] [RANKS...]
#   bench/ranks_bench.sh build-bench 20000 8 64 256 1024
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:?usage: bench/ranks_bench.sh BUILD_DIR [KERNELS] [RANKS...]}"
kernels="${2:-20000}"
shift $(( $# >= 2 ? 2 : 1 ))
ranks=("$@")
[[ ${#ranks[@]} -gt 0 ]] || ranks=(8 64 256 1024)
ampprof="$build/src/cli/ampprof"
synth="$build/collectors/synthetic/ampprof-synth"
work="${AMPPROF_BENCH_DIR:-/tmp/ampprof-bench}/ranks"
mkdir -p "$work"

# wall seconds and peak RSS (MiB) of one command, its output discarded
measure() {
  /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >/dev/null
  read -r wall rss_kib < "$work/time.txt"
  echo "$wall $((rss_kib / 1024))"
}

printf 'ranks\tkernels_per_rank\tmode\twall_s\tpeak_rss_mib\n'
for n in "${ranks[@]}"; do
  job="$work/job-$n-$kernels"
  if [[ ! -d "$job" ]]; then
    "$synth" --ranks "$n" --straggler 3 --straggler-slowdown 3 --kernels "$kernels" -o "$job"
  fi
  for j in 1 2; do
    read -r wall rss < <(measure "$ampprof" analyze "$job" -j "$j" --format json)
    printf '%s\t%s\tanalyze -j%s\t%s\t%s\n' "$n" "$kernels" "$j" "$wall" "$rss"
  done
done

largest="${ranks[-1]}"
job="$work/job-$largest-$kernels"
if /usr/bin/python3 -c 'import distributed' 2>/dev/null; then
  rm -rf "$work/summaries"
  start=$(date +%s.%N)
  PYTHONPATH=python /usr/bin/python3 -m ampprof.distributed "$job"/*.ampt --ampprof "$ampprof" --workers 2 \
    --summaries "$work/summaries" -- --format json >/dev/null
  end=$(date +%s.%N)
  printf '%s\t%s\tdask LocalCluster(2) map + reduce\t%.2f\t-\n' "$largest" "$kernels" "$(echo "$end - $start" | bc)"
  read -r wall rss < <(measure "$ampprof" analyze "$work/summaries" --format json)
  printf '%s\t%s\treduce from summaries alone\t%s\t%s\n' "$largest" "$kernels" "$wall" "$rss"
fi
