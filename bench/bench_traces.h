#ifndef AMPPROF_BENCH_BENCH_TRACES_H_
#define AMPPROF_BENCH_BENCH_TRACES_H_

// What the benchmarks share: the synthetic traces they read (generated once into $AMPPROF_BENCH_DIR,
// default /tmp/ampprof-bench, and reused) and the per-iteration peak memory measurement.

#include <cstdint>
#include <string>
#include <string_view>

namespace ampprof::bench {

// Path of the synthetic AMP loop with at least `kernels` kernels in `format` ("ampt", "kineto" for
// PyTorch profiler JSON, "nsys" for an Nsight Systems SQLite export); the same trace in every format.
std::string SyntheticTrace(int64_t kernels, std::string_view format = "ampt");

// Peak resident memory of one iteration: call Start() before it and PeakBytes() after. The kernel's
// high-water mark (VmHWM) is reset through /proc/self/clear_refs, so the figure is that iteration's alone.
class PeakMemory {
 public:
  void Start();
  int64_t PeakBytes() const;  // above the resident size at Start()

 private:
  int64_t baseline_ = 0;
};

}  // namespace ampprof::bench

#endif  // AMPPROF_BENCH_BENCH_TRACES_H_
