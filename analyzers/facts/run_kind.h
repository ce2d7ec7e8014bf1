#ifndef AMPPROF_ANALYZERS_FACTS_RUN_KIND_H_
#define AMPPROF_ANALYZERS_FACTS_RUN_KIND_H_

// Training or inference, decided from the trace, so that every fix is phrased for the run it is about:
// an inference run gets no GradScaler, loss, backward-pass or optimizer advice.
//
// Training shows itself in any of: autograd's backward ops (AddmmBackward0, "autograd::engine::
// evaluate_function: ...", AccumulateGrad), optimizer ranges (Optimizer.step#..., the shim's
// optimizer.step) or kernels (multi-tensor-apply, fused Adam), GradScaler kernels, kernels whose names
// say backward (dgrad/wgrad convolutions, *_backward elementwise kernels, flash_bwd), ranges named
// "backward" (a ProfilerStep with a record_function("...backward") inside).
// Inference needs positive evidence too: framework op ranges that launched most kernels, and not one of
// the above. A trace of kernels alone with no training sign is unknown, and treated as training, the
// case ampprof is for (its fixes then read as they always have).
//
//   const RunKindFacts& run = input.run_kind();
//   if (run.kind == RunKind::kInference) ...   run.evidence: "479 framework ops, none of a backward pass"

#include <string>
#include <string_view>

namespace ampprof::analyzers {

class AnalysisInput;

enum class RunKind : uint8_t { kUnknown, kTraining, kInference };

std::string_view RunKindId(RunKind kind);  // "unknown", "training", "inference"

struct RunKindFacts {
  RunKind kind = RunKind::kUnknown;
  std::string evidence;  // what decided it, one phrase: "autograd backward ops, optimizer kernels"
};

RunKindFacts DecideRunKind(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_RUN_KIND_H_
