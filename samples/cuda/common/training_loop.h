// The timed training loop every sample runs, measured the way seed 000's thread ends up recommending:
// warm-up steps first (cuBLAS/cuDNN initialisation, lazy module loading, caches), then the timed steps
// bracketed by CUDA events on the training stream, the GPU synchronised before reading any time.
//
// Each step is one NVTX range in the default domain, named "train_step" (timed) or "warmup_step", as a
// user annotates a loop: ampprof takes a range that repeats and encloses most kernel launches for the
// training step (analyzers/steps.cc), so its steps are exactly the steps timed here, and warm-up stays
// out of them (keep --steps well above --warmup: the timed steps must enclose 60% of the launches).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

namespace ampsample {

struct LoopOptions {
  int64_t warmup = 10;
  int64_t steps = 100;
};

struct StepTimes {
  std::vector<float> step_ms;  // GPU time from one step's start event to the next's
  double wall_ms = 0;          // host clock over the timed steps, synchronised at both ends
};

// Runs options.warmup untimed steps and options.steps timed ones; `step(index)` enqueues one training
// step on `stream` (index counts from 0 over all steps, warm-up included).
StepTimes RunTrainingLoop(cudaStream_t stream, const LoopOptions& options, const std::function<void(int64_t)>& step);

// "step time: median 0.412 ms, ..." on stdout.
void PrintStepTimes(const StepTimes& times, const LoopOptions& options);

}  // namespace ampsample
