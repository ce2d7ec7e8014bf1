#ifndef AMPPROF_ANALYZERS_FINDINGS_AUTOCAST_COVERAGE_H_
#define AMPPROF_ANALYZERS_FINDINGS_AUTOCAST_COVERAGE_H_

// Whether autocast covers the ops behind CUDA-core (or TF32) matrix kernels, from PyTorch's cast lists
// (analyzers/facts/autocast_lists.h), phrased per op for tensor_cores.fp32_math and amp.opportunity:
//
//   "aten::mm [512, 1000], [1000, 1000] (FP32): on autocast's lower-precision list, yet it ran in FP32
//    while other GEMMs and convolutions of this run ran in FP16/BF16: it ran outside an enabled autocast
//    region"
//   "aten::cumsum [64, 1000] (FP32): autocast keeps it in FP32 by design"
//
// "Outside the autocast region" is said only when the trace shows it: the op is on the list, its inputs
// were FP32 (autocast casts every FP32 input of such an op while it is enabled), and other matrix work of
// the run ran in reduced precision. In an FP32 run the line says autocast would run the op in FP16/BF16;
// without input types, that the trace does not show whether autocast covered it.

#include <cstddef>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/op_tally.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

struct AutocastContext {
  // Other GEMM/convolution/attention work of the run ran in FP16/BF16/FP8 (PrecisionEvidence).
  bool reduced_precision_math = false;
};

// Up to `count` evidence lines labelled "autocast", one per op of `tally` by time (ops the trace does not
// name are left out).
std::vector<Evidence> AutocastCoverage(const AnalysisInput& input, const OpTally& tally, size_t count,
                                       const AutocastContext& context);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_AUTOCAST_COVERAGE_H_
