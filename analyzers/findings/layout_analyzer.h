#ifndef AMPPROF_ANALYZERS_FINDINGS_LAYOUT_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_LAYOUT_ANALYZER_H_

// layout.nchw_nhwc: cuDNN's Tensor-Core convolutions want NHWC (channels_last); given NCHW tensors,
// cuDNN wraps them in nchwToNhwc / nhwcToNchw conversion kernels (every namespace and variant: ops,
// engines_precompiled, engines_runtime_compiled, fusion, folded, 3-to-4). Those kernels move data and
// compute nothing (seed 001: a single Conv2d slower in AMP than in FP32).

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeLayout(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_LAYOUT_ANALYZER_H_
