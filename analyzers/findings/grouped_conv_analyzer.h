#ifndef AMPPROF_ANALYZERS_FINDINGS_GROUPED_CONV_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_GROUPED_CONV_ANALYZER_H_

// conv.grouped_fallback: grouped and depthwise convolutions (groups != 1, KernelClass::grouped)
// that run on CUDA cores in a mixed-precision run: cuDNN's direct kernels
// (conv2d/dgrad2d/wgrad2d/convNd _grouped_direct_kernel) and PyTorch's own conv_depthwise2d
// kernels. They gain little or nothing from FP16/BF16 while the dense convolutions get faster, so
// they grow into the AMP step's largest cost (seed 001: "Grouped convolutions might not trigger the
// FP16 path and thus might not use TensorCores"). cuDNN's xmma depthwise kernels (NHWC, the
// channels_last path) are not a fallback; they are reported alongside, not counted. In an FP32 run
// grouped convolutions on CUDA cores are expected: no finding.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeGroupedConvolutions(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_GROUPED_CONV_ANALYZER_H_
