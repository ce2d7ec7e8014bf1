#ifndef AMPPROF_ANALYZERS_FINDINGS_SCALER_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_SCALER_ANALYZER_H_

// amp.scaler_overhead: what torch.amp.GradScaler costs per step. Its unscale/inf-check kernels and its
// scale update run on the GPU; its found_inf.item() in scaler.step() is a 4-byte device-to-host copy plus
// a stream synchronise that blocks the host until the GPU has drained, once per optimizer and step.
// Fused optimizers (fused=True) take found_inf on the GPU and skip that sync.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeGradScaler(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_SCALER_ANALYZER_H_
