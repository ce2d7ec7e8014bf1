#ifndef AMPPROF_ANALYZERS_FINDINGS_WARMUP_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_WARMUP_ANALYZER_H_

// bench.warmup_in_window: the traced window starts with warm-up steps (lazy CUDA and module
// initialisation, cuDNN autotuning, caching-allocator growth) that are much slower than the steady state,
// so a timing over the whole window misjudges the step time, and an FP32/AMP comparison with it.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeWarmup(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_WARMUP_ANALYZER_H_
