#ifndef AMPPROF_ANALYZERS_FINDINGS_FP32_MATH_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_FP32_MATH_ANALYZER_H_

// tensor_cores.fp32_math: GEMM and convolution time that still runs on CUDA cores (SIMT FFMA/HFMA)
// on a GPU with Tensor Cores.
// - In a mixed-precision run (precision.h decides, from the trace) it is a warning: ops outside
//   autocast, .float() casts, custom ops, or shapes/dtypes for which the library has no Tensor-Core
//   kernel. Grouped/depthwise convolutions are left to conv.grouped_fallback, FP64 math is
//   deliberate.
// - In an FP32 run on Ampere or newer (compute capability recorded in the trace) it is an info:
// TF32
//   would put FP32 matmuls (and convolutions) on Tensor Cores. Only for the kind of kernel (GEMM or
//   convolution) that runs no TF32 kernel anywhere in the trace: where some already do, TF32 is on
//   and the SIMT kernels are the library's choice for their shapes.
// Kernels whose math unit the name does not give are never counted as CUDA-core time.

#include <vector>

#include "analyzers/findings/registry.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeFp32Math(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FP32_MATH_ANALYZER_H_
