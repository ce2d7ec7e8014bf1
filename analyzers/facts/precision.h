#ifndef AMPPROF_ANALYZERS_FACTS_PRECISION_H_
#define AMPPROF_ANALYZERS_FACTS_PRECISION_H_

// What a trace says about the precision the workload ran in, from its kernels alone: GEMM and
// convolution time by math unit and type, reduced-precision attention, GradScaler kernels and dtype
// casts. Analyzers that judge a run differently in mixed precision than in FP32 (and a future
// FP32-vs-AMP comparison) ask this instead of deciding for themselves.
//
//   const PrecisionEvidence run = DescribePrecision(input);              // the whole trace (one process)
//   if (run.MixedPrecision()) { ... }
//   const PrecisionEvidence gpu = DescribePrecision(input, device);      // one device's share of it
//
// "Low precision" means FP16, BF16 or FP8. INT8 Tensor-Core kernels are quantisation, not mixed
// precision, and count in none of the low-precision fields. Kernels whose math unit or type the
// name does not give stay in the unknown buckets: nothing here guesses.

#include <cstdint>
#include <string>

#include "analyzers/facts/analysis_input.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// Volta (sm_70) was the first architecture with Tensor Cores; Ampere (sm_80) the first with TF32.
inline constexpr uint32_t kFirstTensorCoreMajor = 7;
inline constexpr uint32_t kFirstTf32Major = 8;

bool IsLowPrecision(DataType dtype);  // FP16, BF16 or FP8

// GEMM or convolution time by the unit that did the math and its type.
struct MatrixTime {
  base::DurationNs low_precision_tensor_core_ns = 0;  // Tensor Cores, FP16/BF16/FP8
  base::DurationNs tf32_ns = 0;                       // Tensor Cores, TF32
  base::DurationNs other_tensor_core_ns = 0;  // Tensor Cores, INT8 or a type the name does not give
  base::DurationNs fp32_cuda_core_ns = 0;     // CUDA cores (SIMT), FP32
  base::DurationNs low_precision_cuda_core_ns =
      0;                                    // CUDA cores, FP16/BF16 (HFMA, direct grouped kernels)
  base::DurationNs other_cuda_core_ns = 0;  // CUDA cores, FP64 or a type the name does not give
  base::DurationNs unknown_unit_ns = 0;     // the name does not say which unit
  base::DurationNs helper_ns = 0;  // split-K reductions, offset tables, im2col: no math unit
  // FP16/BF16/FP8 work on any unit (the two fields above, plus e.g. xmma depthwise kernels whose
  // name gives the type but not the unit).
  base::DurationNs low_precision_ns = 0;
  uint64_t low_precision_kernels = 0;

  base::DurationNs total_ns() const;
  MatrixTime& operator+=(const MatrixTime& other);
};

struct PrecisionEvidence {
  base::DurationNs kernel_ns = 0;  // every kernel
  MatrixTime gemm;
  MatrixTime convolution;
  base::DurationNs low_precision_attention_ns = 0;  // fused attention kernels in FP16/BF16
  uint64_t tensor_core_kernels =
      0;  // launches on Tensor Cores of any type (GEMM, convolution, attention)
  uint64_t scaler_kernels = 0;       // GradScaler unscale/inf-check and scale-update launches
  uint64_t low_precision_casts = 0;  // cast kernels between FP32 and FP16/BF16/FP8

  MatrixTime matrix() const;  // GEMMs and convolutions together

  // A mixed-precision (or reduced-precision) run: FP16/BF16/FP8 GEMM, convolution or attention
  // work, GradScaler kernels, or casts to and from FP16/BF16/FP8. Any one of them is enough: an
  // FP32 run has none of them, whatever its size.
  bool MixedPrecision() const;
  // The run did its math in reduced precision: FP16/BF16/FP8 GEMM, convolution or attention work, or
  // GradScaler ran. Casts alone do not count (an FP32 run casts inputs or a half-precision embedding table
  // too). It divides the runs between amp.opportunity (not tried) and tensor_cores.fp32_math (tried,
  // with matrix work left on CUDA cores), so that the same kernels are never priced by both.
  bool TriedReducedPrecisionMath() const;

  void Add(const KernelClass& kernel, base::DurationNs duration);
};

// The whole trace: one process, every device.
PrecisionEvidence DescribePrecision(const AnalysisInput& input);
// One device's kernels.
PrecisionEvidence DescribePrecision(const AnalysisInput& input, const model::Device& device);

enum class TensorCoreSupport { kYes, kNo, kUnknown };

// Whether `device` has Tensor Cores: from its compute capability when the trace records it, else
// yes when Tensor-Core kernels ran on it (`evidence` is that device's), else unknown.
TensorCoreSupport TensorCoresOf(const model::Device& device, const PrecisionEvidence& evidence);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_PRECISION_H_
