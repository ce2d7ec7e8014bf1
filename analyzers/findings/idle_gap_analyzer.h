#ifndef AMPPROF_ANALYZERS_FINDINGS_IDLE_GAP_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_IDLE_GAP_ANALYZER_H_

// gpu.launch_bound and gpu.sync_stall: the GPU idles between kernels because the host launches too
// slowly, or because host synchronisations drain its queue. Both read one classification of the idle
// gaps (idle_gaps.h) over the measured steps (warm-up left out) or, without steps, the whole trace.

#include <vector>

#include "analyzers/findings/registry.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeIdleGaps(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_IDLE_GAP_ANALYZER_H_
