#ifndef AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_
#define AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_

// What every analysis of one trace reads: the model and the facts computed once from it (the class of
// each kernel signature, the training steps, the step account), handed to the summary, the timeline,
// the comparison and every finding. Built once per trace; nothing downstream classifies kernels, finds
// steps or splits time again.
//
//   const AnalysisInput input(model);
//   input.ClassOf(kernel).category ...   input.steps() ...   input.account().Primary() ...

#include <optional>
#include <span>
#include <vector>

#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/facts/step_account.h"
#include "analyzers/facts/steps.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

class AnalysisInput {
 public:
  // Classifies the kernels, finds the steps and builds the account.
  explicit AnalysisInput(const model::TraceModel& trace);
  AnalysisInput(const AnalysisInput&) = delete;
  AnalysisInput& operator=(const AnalysisInput&) = delete;

  const model::TraceModel& model;

  const KernelClass& ClassOf(model::KernelRow kernel) const {
    return signature_classes_[model.kernels().signature[kernel].value];
  }
  std::span<const KernelClass> signature_classes() const { return signature_classes_; }
  // The trace's training steps (steps.h), or nullopt when it marks no loop.
  const std::optional<Steps>& steps() const { return steps_; }
  // Every measured step's time by bucket, per device (step_account.h).
  const StepAccount& account() const { return account_; }

 private:
  std::vector<KernelClass> signature_classes_;
  std::optional<Steps> steps_;
  StepAccount account_;
};

// Classifies every kernel signature of `model` (each distinct name once).
std::vector<KernelClass> ClassifySignatures(const model::TraceModel& model);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_
