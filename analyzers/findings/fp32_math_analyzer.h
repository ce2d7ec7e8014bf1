#ifndef AMPPROF_ANALYZERS_FINDINGS_FP32_MATH_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_FP32_MATH_ANALYZER_H_

// tensor_cores.fp32_math: GEMM and convolution time that still runs on CUDA cores (SIMT FFMA/HFMA) in
// a mixed-precision run (precision.h decides, from the trace) on a GPU with Tensor Cores: ops outside
// autocast, .float() casts, custom ops, or shapes/dtypes for which the library has no Tensor-Core kernel.
// Grouped/depthwise convolutions are left to conv.grouped_fallback; FP64 math is deliberate. An FP32 run
// is amp.opportunity's. The saving is the CUDA-core time at the expected Tensor-Core speed-up
// (throughput.h), a range.
// Kernels whose math unit the name does not give are never counted as CUDA-core time.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeFp32Math(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FP32_MATH_ANALYZER_H_
