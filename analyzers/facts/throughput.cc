#include "analyzers/facts/throughput.h"

#include <algorithm>

#include "analyzers/facts/precision.h"

namespace ampprof::analyzers {
namespace {

// Dense peak TFLOPS from each part's NVIDIA datasheet (sparsity halved out); docs/throughput.md has the
// sources. One representative part per compute capability: the data-centre part people train on.
constexpr PeakThroughput kTable[] = {
    {7, 0, "Tesla V100 SXM2", 15.7, 0.0, 125.0},
    {7, 5, "Tesla T4", 8.1, 0.0, 65.0},
    {8, 0, "A100 SXM4", 19.5, 156.0, 312.0},
    {8, 6, "A10", 31.2, 62.5, 125.0},
    {8, 9, "L4", 30.3, 60.0, 121.0},
    {9, 0, "H100 SXM5", 67.0, 494.5, 989.5},
    {10, 0, "B200 (HGX, 1000 W)", 80.0, 1100.0, 2250.0},
};

// The realistic speed-up of FP32 CUDA-core GEMMs and convolutions on FP16/BF16 Tensor Cores: the low
// end of "significant (2-3X) speedup" that the PyTorch AMP recipe states for Volta, Turing and Ampere,
// which is a whole-model figure, so conservative for the kernels alone.
constexpr double kRealisticFromFp32 = 2.0;
// From TF32 the peak ratio is 2x; half of that gain is the realistic end.
constexpr double kRealisticShareOfTf32Gain = 0.5;

}  // namespace

std::optional<PeakThroughput> PeakThroughputOf(uint32_t major, uint32_t minor) {
  for (const PeakThroughput& row : kTable) {
    if (row.major == major && row.minor == minor) return row;
  }
  return std::nullopt;
}

namespace {

SpeedupRange WithRealistic(SpeedupRange range, MatrixPath path) {
  range.realistic = path == MatrixPath::kFp32CudaCores ? kRealisticFromFp32
                                                       : 1.0 + kRealisticShareOfTf32Gain * (range.peak - 1.0);
  range.realistic = std::min(range.realistic, range.peak);
  return range;
}

}  // namespace

SpeedupRange ConservativeSpeedup(MatrixPath path) {
  SpeedupRange range;
  range.known_part = false;
  range.peak = 1e9;
  for (const PeakThroughput& known : kTable) {
    if (path == MatrixPath::kFp32CudaCores) {
      range.peak = std::min(range.peak, known.fp16_tflops / known.fp32_tflops);
    } else if (known.tf32_tflops > 0) {
      range.peak = std::min(range.peak, known.fp16_tflops / known.tf32_tflops);
    }
  }
  return WithRealistic(range, path);
}

bool IsConsumerPart(std::string_view device_name) {
  return device_name.find("GeForce") != std::string_view::npos || device_name.find("TITAN") != std::string_view::npos;
}

std::optional<SpeedupRange> ExpectedSpeedup(uint32_t major, uint32_t minor, MatrixPath path, bool consumer) {
  if (major < kFirstTensorCoreMajor) return std::nullopt;
  if (path == MatrixPath::kTf32TensorCores && major < kFirstTf32Major) return std::nullopt;
  const std::optional<PeakThroughput> row = PeakThroughputOf(major, minor);
  if (!row) return ConservativeSpeedup(path);
  const double fp16 = consumer ? row->fp16_tflops / 2 : row->fp16_tflops;
  SpeedupRange range;
  range.peak = std::max(1.0, path == MatrixPath::kFp32CudaCores ? fp16 / row->fp32_tflops : fp16 / row->tf32_tflops);
  range.consumer = consumer;
  return WithRealistic(range, path);
}

}  // namespace ampprof::analyzers
