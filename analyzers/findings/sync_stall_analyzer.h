#ifndef AMPPROF_ANALYZERS_FINDINGS_SYNC_STALL_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_SYNC_STALL_ANALYZER_H_

// gpu.sync_stall: host synchronisations drain the GPU's queue and it idles while the host refills it.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeSyncStall(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_SYNC_STALL_ANALYZER_H_
