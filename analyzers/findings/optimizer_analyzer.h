#ifndef AMPPROF_ANALYZERS_FINDINGS_OPTIMIZER_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_OPTIMIZER_ANALYZER_H_

// amp.double_optimizer_step: the optimizer updates the weights twice per step, the bug of calling
// optimizer.step() after scaler.step(optimizer) (which already calls it). Seen two ways:
//   - Optimizer.step#X.step ranges (PyTorch profiler, NVTX): two in one step whose launched kernels are
//     the same sequence (two different optimizers, as in a GAN, launch different ones);
//   - without ranges: a step's optimizer kernels are one sequence run twice over (X X).

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeOptimizerSteps(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_OPTIMIZER_ANALYZER_H_
