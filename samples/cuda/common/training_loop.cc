#include "samples/cuda/common/training_loop.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

#include <nvtx3/nvToolsExt.h>

#include "samples/cuda/common/check.h"

namespace ampsample {
namespace {

// A step's NVTX range through the C API (nvtxRangePushA), not nvtx3::scoped_range: CUPTI records the
// C API's ranges but not the C++ API's in the global domain (nvtxDomainRangePushEx with no domain;
// NVIDIA/NVTX#65 reports the same of nvprof and nvvp), and on the H100 (docs/validation/h100.md,
// check 2) none of this loop's scoped_range ranges arrived, where PyTorch's nvtxRangePushA ranges did.
class StepRange {
 public:
  explicit StepRange(const char* name) { nvtxRangePushA(name); }
  ~StepRange() { nvtxRangePop(); }
  StepRange(const StepRange&) = delete;
  StepRange& operator=(const StepRange&) = delete;
};

}  // namespace

StepTimes RunTrainingLoop(cudaStream_t stream, const LoopOptions& options, const std::function<void(int64_t)>& step) {
  for (int64_t i = 0; i < options.warmup; ++i) {
    const StepRange range("warmup_step");
    step(i);
  }
  // One event per step boundary; recording them costs a few hundred nanoseconds of host time.
  std::vector<cudaEvent_t> boundaries(static_cast<size_t>(options.steps) + 1);
  for (cudaEvent_t& event : boundaries) SAMPLE_CUDA(cudaEventCreate(&event));
  SAMPLE_CUDA(cudaStreamSynchronize(stream));

  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < options.steps; ++i) {
    SAMPLE_CUDA(cudaEventRecord(boundaries[static_cast<size_t>(i)], stream));
    const StepRange range("train_step");
    step(options.warmup + i);
  }
  SAMPLE_CUDA(cudaEventRecord(boundaries.back(), stream));
  SAMPLE_CUDA(cudaStreamSynchronize(stream));
  const auto end = std::chrono::steady_clock::now();

  StepTimes times;
  times.wall_ms = std::chrono::duration<double, std::milli>(end - start).count();
  for (size_t i = 0; i + 1 < boundaries.size(); ++i) {
    float ms = 0;
    SAMPLE_CUDA(cudaEventElapsedTime(&ms, boundaries[i], boundaries[i + 1]));
    times.step_ms.push_back(ms);
  }
  for (cudaEvent_t event : boundaries) SAMPLE_CUDA(cudaEventDestroy(event));
  return times;
}

void PrintStepTimes(const StepTimes& times, const LoopOptions& options) {
  if (times.step_ms.empty()) return;
  std::vector<float> sorted = times.step_ms;
  std::sort(sorted.begin(), sorted.end());
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  std::printf("step time: median %.4f ms, mean %.4f ms, min %.4f ms, max %.4f ms (CUDA events, %lld steps after %lld "
              "warm-up steps)\n",
              sorted[sorted.size() / 2], mean, sorted.front(), sorted.back(), static_cast<long long>(options.steps),
              static_cast<long long>(options.warmup));
  std::printf("wall clock: %.4f ms per step (host clock over the timed steps, GPU synchronised before and after)\n",
              times.wall_ms / static_cast<double>(options.steps));
}

}  // namespace ampsample
