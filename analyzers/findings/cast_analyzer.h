#ifndef AMPPROF_ANALYZERS_FINDINGS_CAST_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_CAST_ANALYZER_H_

// amp.cast_overhead: kernels that convert tensors between FP32 and FP16/BF16/FP8
// (KernelCategory::kCast of a low-precision type): autocast's float16_copy_kernel_cuda /
// bfloat16_copy_kernel_cuda and their way back (…tofloat32_copy_kernel_cuda),
// float8_copy_kernel_cuda, and older PyTorch's casting direct_copy kernels. They compute nothing;
// every one reads and writes a whole tensor. Their count, time and share of kernel time; not bytes:
// kernel records carry no tensor sizes. Other dtype conversions (indices to INT64, FP64) are not
// autocast's and are not counted.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeCasts(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_CAST_ANALYZER_H_
