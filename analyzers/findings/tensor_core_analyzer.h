#ifndef AMPPROF_ANALYZERS_FINDINGS_TENSOR_CORE_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_TENSOR_CORE_ANALYZER_H_

// tensor_cores.unavailable: a GPU without Tensor Cores (compute capability below 7.0) ran the work.
// Mixed precision then halves memory traffic and footprint but cannot move GEMMs and convolutions onto
// Tensor Cores, which is where AMP's speed-up comes from (seed 003: "on the 1080 Ti ... 2x slower").

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeTensorCoreAvailability(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_TENSOR_CORE_ANALYZER_H_
