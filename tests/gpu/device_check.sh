#!/usr/bin/env bash
# The whole GPU check in one command, for the device machine (docs/validation/README.md says what it
# must show). Expects build/device-bundle from tests/gpu/stage_device_bundle.sh, carried with the working
# tree. Writes everything worth keeping under $OUT (at most 8 files come back, so the traces travel as
# one archive): the log, the samples' results, the traces.
set -uo pipefail
out=${OUT:-/tmp/ampprof-device-out}
mkdir -p "$out"
bundle=build/device-bundle
work=$(mktemp -d)
log="$out/device_check.log"
exec > >(tee "$log") 2>&1

# ampprof's own libraries for ampprof only; the workloads it starts inherit the variable, which is
# harmless for them (nothing in CUDA, Python or PyTorch loads fmt/spdlog/simdjson from the system).
export LD_LIBRARY_PATH="$PWD/$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ampprof="$PWD/$bundle/bin/ampprof"

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())' || true
"$ampprof" version

echo "== a CUDA sample under ampprof run"
"$ampprof" run -o "$work/tiny_fp16" -- "$bundle/samples/tiny_mlp" --precision fp16 --steps 50
echo "exit status $?"

echo "== a PyTorch script under ampprof run"
"$ampprof" run -o "$work/torch_tiny" -- python3 samples/pytorch/tiny_mlp.py --amp on --steps 50
echo "exit status $?"

echo "== overhead per launch: empty kernels, untraced then traced (5 runs each, each prints its median)"
for i in 1 2 3 4 5; do "$bundle/samples/launch_overhead" --launches 20000 --batches 30; done
for i in 1 2 3 4 5; do
  "$ampprof" run --no-report --force -o "$work/overhead" -- "$bundle/samples/launch_overhead" --launches 20000 --batches 30
done
"$ampprof" analyze "$work/overhead" | head -30

echo "== every sample against samples/answers.json"
python3 tests/gpu/run_samples.py --answers samples/answers.json --findings-docs docs/findings \
  --ampprof "$ampprof" --cuda-samples "$bundle/samples" --pytorch-samples samples/pytorch \
  --work "$work/samples" > "$out/run_samples.txt" 2>&1
echo "run_samples exit status $?"
tail -40 "$out/run_samples.txt"

echo "== traces"
tar -C "$work" -czf "$out/traces.tar.gz" . && ls -la "$out"
