#ifndef AMPPROF_ANALYZERS_FINDINGS_COMM_EXPOSED_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_COMM_EXPOSED_ANALYZER_H_

// comm.exposed: communication kernels that no compute hides, and a rank that waits on its peers inside them.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeCommunication(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_COMM_EXPOSED_ANALYZER_H_
