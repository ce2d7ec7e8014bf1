#ifndef AMPPROF_ANALYZERS_FINDINGS_HOST_BOUND_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_HOST_BOUND_ANALYZER_H_

// gpu.host_bound: the GPU idles because the host is busy with other work than launching (data loading, evaluation, logging, pageable copies), and what that work was.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeHostBound(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_HOST_BOUND_ANALYZER_H_
