#ifndef AMPPROF_ANALYZERS_FACTS_THROUGHPUT_H_
#define AMPPROF_ANALYZERS_FACTS_THROUGHPUT_H_

// What moving GEMM and convolution time from FP32 to FP16/BF16 Tensor Cores can buy, per GPU
// architecture: the dense peak throughputs of one representative part per compute capability, from
// NVIDIA's datasheets (the table and its sources are in docs/throughput.md), and the speed-up on the
// eligible kernels as a range: a realistic one and the peak ratio. A range, never a promise: kernels
// rarely reach peak, and the rest of the step does not speed up at all.
//
//   const std::optional<SpeedupRange> speedup = ExpectedSpeedup(device, MatrixPath::kFp32CudaCores);
//   saving_low = eligible_ns * (1 - 1 / speedup->realistic);
//   saving_high = eligible_ns * (1 - 1 / speedup->peak);

#include <cstdint>
#include <optional>
#include <string_view>

namespace ampprof::analyzers {

struct PeakThroughput {
  uint32_t major = 0;
  uint32_t minor = 0;
  std::string_view part;    // the representative GPU: "Tesla V100 SXM2"
  double fp32_tflops = 0;   // CUDA cores (FFMA)
  double tf32_tflops = 0;   // Tensor Cores, dense; 0 before Ampere
  double fp16_tflops = 0;   // FP16/BF16 Tensor Cores with FP32 accumulation, dense
};

// The table's row for compute capability major.minor; nullopt for a GPU the table does not know (and
// for GPUs without Tensor Cores).
std::optional<PeakThroughput> PeakThroughputOf(uint32_t major, uint32_t minor);

// Where GEMM/convolution time runs today.
enum class MatrixPath : uint8_t { kFp32CudaCores, kTf32TensorCores };

struct SpeedupRange {
  double realistic = 1.0;  // the low end
  double peak = 1.0;       // the ratio of dense peaks: the high end
  bool known_part = true;  // false: the architecture is not in the table; the most conservative row is used
  bool consumer = false;   // the FP16 peak was halved for a consumer part
};

// Consumer parts (GeForce, TITAN) run FP16/BF16 Tensor-Core math with FP32 accumulation, which autocast
// uses, at half the rate of their data-centre siblings.
bool IsConsumerPart(std::string_view device_name);

// The speed-up of kernels on `path` moved to FP16/BF16 Tensor Cores on a GPU of compute capability
// major.minor (a consumer part: `consumer`, half the FP16 peak). Realistic: 2x from FP32 CUDA cores (the low end of the 2-3x the PyTorch AMP recipe
// states for Volta to Ampere), half the peak gain from TF32 (both run on Tensor Cores; FP16 halves the
// bytes and doubles the math rate). Capped by the peak ratio. nullopt before Volta (no Tensor Cores),
// and from TF32 before Ampere (no TF32).
std::optional<SpeedupRange> ExpectedSpeedup(uint32_t major, uint32_t minor, MatrixPath path, bool consumer = false);

// The same for a GPU with Tensor Cores whose architecture the trace does not state: the table's lowest
// ratios, so that the range errs on the small side.
SpeedupRange ConservativeSpeedup(MatrixPath path);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_THROUGHPUT_H_
