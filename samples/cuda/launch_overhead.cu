// The collector's cost per kernel launch, measured the only way that matters to a launch-bound job: the
// host time of a loop of launches of an empty kernel, untraced and under `ampprof run` (and, for
// comparison, under other tools). Prints the median over batches of the host time per launch; the GPU
// is synchronised between batches, so each batch measures launches, not a full queue.
//
//   launch_overhead --launches 10000 --batches 30
//   ampprof run -o /tmp/t -- launch_overhead --launches 10000 --batches 30
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "samples/cuda/common/check.h"
#include "samples/cuda/common/flags.h"

namespace {

__global__ void EmptyKernel() {}

}  // namespace

int main(int argc, char** argv) {
  int64_t launches = 10000;
  int64_t batches = 30;
  ampsample::Flags flags("launch_overhead: host time per launch of an empty kernel, median over batches");
  flags.AddInt("launches", &launches, 1, "kernel launches per batch");
  flags.AddInt("batches", &batches, 3, "timed batches (one untimed warm-up batch comes first)");
  flags.Parse(argc, argv);
  ampsample::RequireGpu();

  std::vector<double> ns_per_launch;
  for (int64_t batch = 0; batch <= batches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < launches; ++i) EmptyKernel<<<1, 1>>>();
    const auto end = std::chrono::steady_clock::now();
    SAMPLE_LAUNCHED("EmptyKernel");
    SAMPLE_CUDA(cudaDeviceSynchronize());
    if (batch == 0) continue;  // module loading, first-launch costs
    ns_per_launch.push_back(std::chrono::duration<double, std::nano>(end - start).count() /
                            static_cast<double>(launches));
  }
  std::sort(ns_per_launch.begin(), ns_per_launch.end());
  const double median = ns_per_launch[ns_per_launch.size() / 2];
  std::printf("launch_overhead: %lld launches x %lld batches: median %.3f us per launch (min %.3f, max %.3f)\n",
              static_cast<long long>(launches), static_cast<long long>(batches), median / 1000.0,
              ns_per_launch.front() / 1000.0, ns_per_launch.back() / 1000.0);
  return 0;
}
