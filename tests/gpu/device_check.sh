#!/usr/bin/env bash
# The GPU check, for the device machine (docs/validation/README.md says what it must show). Expects
# build/device-bundle from tests/gpu/stage_device_bundle.sh, carried with the working tree:
#
#   tests/gpu/device_check.sh [PHASE...]        (default: every phase, in this order)
#
# Phases: facts nvtx collector samples_cuda overhead samples_torch compare peer exits workers capture
# api_all.
# A device call may run 10 minutes, so every phase is bounded, and a phase that would start after
# AMPPROF_CHECK_BUDGET_S (default 540) seconds is skipped with a line saying so: a later call names the
# phases left. Everything worth keeping goes under $OUT (at most 8 files come back: the log, the samples'
# results, the facts of every trace as JSON, the traces as one archive).
set -uo pipefail
out=${OUT:-/tmp/ampprof-device-out}
mkdir -p "$out"
repo=$PWD
bundle=$repo/build/device-bundle
work=$(mktemp -d)
mkdir -p "$work"/{nvtx,collector,overhead,compare,peer,exits,capture,api_all}
budget=${AMPPROF_CHECK_BUDGET_S:-540}
exec > >(tee -a "$out/device_check.log") 2>&1

# ampprof's own libraries for ampprof only; the workloads it starts inherit the variable, which is
# harmless for them (nothing in CUDA, Python or PyTorch loads fmt/spdlog/simdjson from the system).
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONUNBUFFERED=1
ampprof="$bundle/bin/ampprof"
samples="$bundle/samples"
facts() { python3 "$repo/tests/gpu/trace_facts.py" --ampprof "$ampprof" "$@"; }

# The CUDA samples link cuDNN and cuBLAS; the machine has them in the toolkit or in PyTorch's wheels.
library_dir() {
  find /usr/local/cuda/ /usr/local/cuda*/ /opt /usr/lib/x86_64-linux-gnu -name "$1" 2>/dev/null | head -1 | xargs -r dirname
}
cuda_libs=$(for l in libcudnn.so.9 libcublas.so.13 libcublasLt.so.13; do library_dir "$l"; done | awk '!seen[$0]++' | paste -sd:)

ran_phase() {  # PHASE SECONDS: runs phase_PHASE under a time limit unless the budget is spent
  local name=$1 limit=$2
  if (( SECONDS + 20 > budget )); then
    echo "== $name: SKIPPED, ${SECONDS}s of the ${budget}s budget spent (run it in a later call)"
    return
  fi
  (( limit > budget - SECONDS )) && limit=$(( budget - SECONDS ))
  echo "== $name (limit ${limit}s, at ${SECONDS}s)"
  timeout -k 5 "$limit" bash -c "$(declare -f); phase_$name" || echo "== $name: ended with status $?"
}
export repo bundle work ampprof samples cuda_libs out

phase_facts() {
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv || true
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available(), torch.backends.cudnn.version())' || true
  "$ampprof" version
  echo "CUDA sample libraries from: $cuda_libs"
  echo "libcupti copies:"; find /usr/local/cuda*/ /opt -name 'libcupti.so*' 2>/dev/null | head
  command -v nsys || echo "no nsys on PATH"
}

phase_nvtx() {  # what CUPTI 13 needs to record NVTX, and who else holds CUPTI in a PyTorch process
  local cupti=/usr/local/cuda/lib64/libcupti.so.13 probe="$samples/nvtx_probe"
  export LD_LIBRARY_PATH="$cuda_libs:$LD_LIBRARY_PATH"
  "$probe"
  for options in "" "nvtx-first" "subscribe" "subscribe nvtx-domain" "nvtx-first subscribe nvtx-domain" \
                 "clock subscribe" "nvtx-first clock subscribe nvtx-domain"; do
    NVTX_INJECTION64_PATH=$cupti "$probe" $options
  done
  for options in "ex-null" "domain" "clock subscribe ex-null"; do
    NVTX_INJECTION64_PATH=$cupti "$probe" $options
  done
  # Under ampprof: a plain NVTX workload, then the probe as a second CUPTI client beside the collector.
  "$ampprof" run --no-report -o "$work/nvtx/plain" -- "$probe" no-client; echo "ampprof exited $?"
  facts "$work/nvtx/plain"
  "$ampprof" run --no-report -o "$work/nvtx/client" -- "$probe"; echo "ampprof exited $?"
  python3 - <<'PY'
import ctypes, torch
torch.zeros(1, device="cuda")
print("libcupti copies in a PyTorch process after CUDA started:",
      sorted({line.split()[-1] for line in open("/proc/self/maps") if "cupti" in line}))
lib = ctypes.CDLL("libcupti.so.13")
handle = ctypes.c_void_p()
callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p)(lambda *a: None)
print("cuptiSubscribe in a plain PyTorch process returned", lib.cuptiSubscribe(ctypes.byref(handle), callback, None))
PY
}

phase_collector() {  # checks 1-5: a CUDA sample and a PyTorch script, their traces' facts
  LD_LIBRARY_PATH="$cuda_libs:$LD_LIBRARY_PATH" "$ampprof" run -o "$work/collector/cuda_tiny_fp16" -- \
    "$samples/tiny_mlp" --precision fp16 --steps 50
  echo "exit status $?"
  "$ampprof" run --torch-ops -o "$work/collector/torch_tiny_amp_ops" -- \
    python3 "$repo/samples/pytorch/tiny_mlp.py" --amp on --steps 50
  echo "exit status $?"
  "$ampprof" analyze --verbose "$work/collector/torch_tiny_amp_ops" | head -80
  facts "$work/collector/cuda_tiny_fp16" "$work/collector/torch_tiny_amp_ops"
}

answered_samples() {  # NAME TIMEOUT: the runs of samples/answers.json whose names start with NAME.
  python3 "$repo/tests/gpu/run_samples.py" --answers "$repo/samples/answers.json" \
    --findings-docs "$repo/docs/findings" --ampprof "$ampprof" --cuda-samples "$samples" \
    --pytorch-samples "$repo/samples/pytorch" --work "$work/samples_$1" --only "^$1\\." \
    --cuda-library-path "$cuda_libs" --timeout "$2" | tee "$out/samples_$1.txt"
}
phase_samples_cuda() { answered_samples cuda 120; }
phase_samples_torch() { answered_samples pytorch 150; }

phase_overhead() {  # check 8: host time per launch and step times, untraced, ampprof, torch.profiler
  echo "-- empty kernels, untraced (each line: that run's median)"
  for i in 1 2 3 4 5; do "$samples/launch_overhead" --launches 20000 --batches 30; done
  echo "-- empty kernels, under ampprof run"
  for i in 1 2 3 4 5; do
    "$ampprof" run --no-report --force -o "$work/overhead/launch" -- "$samples/launch_overhead" --launches 20000 --batches 30
  done
  facts "$work/overhead/launch"
  for sample in tiny_mlp recipe_mlp; do
    for i in 1 2; do
      echo "-- $sample untraced"; python3 "$repo/samples/pytorch/$sample.py" --amp on --steps 200 | grep -E '^(step|wall)'
      echo "-- $sample ampprof"; "$ampprof" run --no-report --force -o "$work/overhead/$sample" -- \
        python3 "$repo/samples/pytorch/$sample.py" --amp on --steps 200 | grep -E '^(step|wall)'
      echo "-- $sample torch.profiler"; python3 "$repo/samples/pytorch/$sample.py" --amp on --steps 200 \
        --torch-profiler "$work/overhead/$sample.kineto.json" | grep -E '^(step|wall)'
    done
  done
}

phase_compare() {  # the shim's FP32 mode and the seeds' workloads under compare
  for spec in ${AMPPROF_COMPARE_SPECS:-tiny_mlp conv_layout grouped_conv}; do
    echo "-- compare $spec"
    "$ampprof" compare --force -o "$work/compare/$spec" -- python3 "$repo/samples/pytorch/$spec.py" --amp on --steps 100 | tail -45
  done
  facts "$work"/compare/*/*
}

phase_peer() {  # check: the same workload through torch.profiler and through ampprof
  mkdir -p "$work/peer"
  for sample in recipe_mlp conv_layout; do
    echo "-- $sample under torch.profiler"
    python3 "$repo/samples/pytorch/$sample.py" --amp on --steps 50 --torch-profiler "$work/peer/$sample.kineto.json" \
      | grep -E '^(step|wall)'
    echo "-- $sample under ampprof run"
    "$ampprof" run --force -o "$work/peer/$sample.ampprof" -- python3 "$repo/samples/pytorch/$sample.py" --amp on --steps 50 \
      | grep -E '^(step|wall)'
    facts "$work/peer/$sample.kineto.json" "$work/peer/$sample.ampprof"
  done
}

phase_exits() {  # check 7
  local live="$repo/tests/gpu/live_checks.py"
  for how in normal status3 exception os_exit; do
    "$ampprof" run --force -o "$work/exits/$how" -- python3 "$live" exit --how "$how" > "$work/exits_$how.txt" 2>&1
    echo "-- exit $how: ampprof exited $?"; tail -4 "$work/exits_$how.txt"
    facts "$work/exits/$how"
  done
  for interval in 0 1; do
    rm -f "$work/stamps"
    "$ampprof" run --force -o "$work/exits/kill_$interval" -- python3 "$live" loop --seconds 60 --interval $interval \
      --stamps "$work/stamps" > "$work/kill_$interval.txt" 2>&1 &
    sleep 12
    pkill -KILL -f "^python3 .*live_checks.py loop"
    local killed_ns; killed_ns=$(python3 -c 'import time; print(time.monotonic_ns())')
    wait
    echo "-- SIGKILL (interval $interval): killed at monotonic ${killed_ns} ns, last step stamp $(tail -1 "$work/stamps") ns"
    tail -3 "$work/kill_$interval.txt"
    facts "$work/exits/kill_$interval"
  done
  "$ampprof" run --force -o "$work/exits/sigint" -- python3 "$live" loop --seconds 60 --stamps "$work/stamps" > "$work/sigint.txt" 2>&1 &
  sleep 12; pkill -INT -f "^python3 .*live_checks.py loop"; wait
  echo "-- SIGINT: last step stamp $(tail -1 "$work/stamps") ns"; tail -3 "$work/sigint.txt"
  facts "$work/exits/sigint"
}

phase_workers() {  # check 7, the rest: DataLoader workers, torchrun ranks, torch.profiler inside ampprof run
  local live="$repo/tests/gpu/live_checks.py"
  "$ampprof" run --force -o "$work/exits/dataloader" -- python3 "$live" dataloader 2>&1 | tail -5
  ls "$work/exits/dataloader"
  "$ampprof" run --force -o "$work/exits/ranks" -- torchrun --standalone --nproc_per_node 2 "$live" ranks 2>&1 | tail -12
  ls "$work/exits/ranks"
  echo "-- torch.profiler inside ampprof run (two CUPTI clients in one process)"
  "$ampprof" run --force -o "$work/exits/torch_profiler" -- python3 "$repo/samples/pytorch/recipe_mlp.py" --amp on \
    --steps 20 --torch-profiler "$work/exits/torch_profiler.kineto.json" 2>&1 | tail -12
  echo "ampprof exited ${PIPESTATUS[0]}"; ls -la "$work/exits/torch_profiler.kineto.json"
  facts "$work/exits/torch_profiler"
}

phase_capture() {  # check 6
  local live="$repo/tests/gpu/live_checks.py"
  "$ampprof" run --force --capture-range cudaProfilerApi -o "$work/capture/api" -- python3 "$live" capture --steps 40 --start 10 --stop 19 | tail -5
  facts "$work/capture/api"
  "$ampprof" run --force --delay 4 --duration 3 -o "$work/capture/window" -- python3 "$live" loop --seconds 12 --stamps "$work/stamps_window" | tail -5
  facts "$work/capture/window"
}

phase_api_all() {  # which calls made the waits that match no recorded call (sync_unmatched_correlation)
  # With every runtime and driver call recorded, the waits' calls are in the trace: the count drops
  # to 0 if they are CUDA calls at all, and the names beyond the analysed set say which they are.
  LD_LIBRARY_PATH="$cuda_libs:$LD_LIBRARY_PATH" "$ampprof" run --api-calls all --no-report \
    -o "$work/api_all/cuda_recipe_fp32" -- "$samples/recipe_mlp" --precision fp32 --steps 20
  "$ampprof" run --api-calls all --no-report -o "$work/api_all/torch_recipe_amp" -- \
    python3 "$repo/samples/pytorch/recipe_mlp.py" --amp on --steps 20
  # The capture window with the whole kinds: do API calls arrive when the window opens late?
  "$ampprof" run --api-calls all --no-report --capture-range cudaProfilerApi -o "$work/api_all/capture" -- \
    python3 "$repo/tests/gpu/live_checks.py" capture --steps 40 --start 10 --stop 19
  for dir in "$work"/api_all/*/; do
    "$ampprof" export --format chrome -o "$dir/trace.json" "$dir" >/dev/null 2>&1 || continue
    python3 - "$dir/trace.json" <<'PY'
import collections, json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
calls = collections.Counter(e["name"] for e in events if e.get("cat") in ("cuda_runtime", "cuda_driver"))
print(sys.argv[1], dict(calls.most_common(40)))
PY
  done
  facts "$work"/api_all/*/
}

phases=("$@")
(( ${#phases[@]} )) || phases=(facts nvtx collector samples_cuda overhead samples_torch compare peer exits workers capture api_all)
declare -A limits=([facts]=30 [nvtx]=60 [collector]=90 [samples_cuda]=200 [overhead]=120 [samples_torch]=250 [compare]=240 \
                   [peer]=120 [exits]=150 [workers]=90 [capture]=60 [api_all]=120)
for phase in "${phases[@]}"; do ran_phase "$phase" "${limits[$phase]:-120}"; done

echo "== traces (${SECONDS}s)"
# The smallest traces first, up to about 55 MB, so that the archive's parts fit what comes back.
(cd "$work" && find . -type f \( -name '*.ampt' -o -name '*.json' -o -name '*.txt' \) -printf '%s %p\n' | sort -n \
  | awk '{ total += $1; if (total < 55e6) print $2 }' > "$work/.archived")
tar -C "$work" -czf "$out/traces.tar.gz" -T "$work/.archived" \
  && split -b 15M -d "$out/traces.tar.gz" "$out/traces.tar.gz." && rm "$out/traces.tar.gz"
echo "archived $(wc -l < "$work/.archived") of $(find "$work" -type f | wc -l) files"
ls -la "$out"
