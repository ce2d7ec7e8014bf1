#ifndef AMPPROF_ANALYZERS_FINDINGS_LAUNCH_BOUND_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_LAUNCH_BOUND_ANALYZER_H_

// gpu.launch_bound: the GPU idles between kernels because the host cannot launch them fast enough (launch waits in the step account).

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeLaunchBound(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_LAUNCH_BOUND_ANALYZER_H_
