#ifndef AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_
#define AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_

// What every analysis of one trace reads: the model and the facts computed once from it (the class of
// each kernel signature, the training steps), handed to the summary, the timeline, the comparison and
// every finding.
//
//   const std::vector<KernelClass> classes = ClassifySignatures(model);
//   const AnalysisInput input{model, classes};
//   input.ClassOf(kernel).category ...   input.steps() ...

#include <optional>
#include <span>
#include <vector>

#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/facts/steps.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

struct AnalysisInput {
  const model::TraceModel& model;
  std::span<const KernelClass> signature_classes;  // ClassifyKernel of each kernel signature's name

  const KernelClass& ClassOf(model::KernelRow kernel) const {
    return signature_classes[model.kernels().signature[kernel].value];
  }

  // The trace's training steps (FindSteps), found on first use and shared by every analyzer that
  // reads this input: finding them scans all ranges and kernels.
  const std::optional<Steps>& steps() const;

  // steps()'s cache; callers leave it empty.
  mutable std::optional<std::optional<Steps>> found_steps = std::nullopt;
};

// Classifies every kernel signature of `model` (each distinct name once).
std::vector<KernelClass> ClassifySignatures(const model::TraceModel& model);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_
