#ifndef AMPPROF_ANALYZERS_FINDINGS_AMP_OPPORTUNITY_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_AMP_OPPORTUNITY_ANALYZER_H_

// amp.opportunity: an FP32 run whose GEMM and convolution time autocast would move to FP16/BF16 Tensor Cores, with the expected saving as a range.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeAmpOpportunity(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_AMP_OPPORTUNITY_ANALYZER_H_
