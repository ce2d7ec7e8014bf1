#ifndef AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_
#define AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_

// What every analysis of one trace reads: the model and the facts computed once from it (the class of
// each kernel signature, the op that launched each kernel, the training steps, the step account,
// training or inference, device memory), handed to the summary, the timeline, the comparison and every
// finding. Built once per trace; nothing downstream classifies kernels, attributes them to ops, finds
// steps or splits time again.
//
//   const AnalysisInput input(model);
//   input.ClassOf(kernel).category ...   input.ops().OpOf(kernel) ...   input.steps() ...
//   input.account().Primary() ...   input.run_kind().kind ...   input.memory() ...
//   input.library_calls().CallOf(kernel) ...   // with the logs of run --library-logs

#include <optional>
#include <span>
#include <vector>

#include "analyzers/facts/device_memory.h"
#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/facts/library_calls.h"
#include "analyzers/facts/op_attribution.h"
#include "analyzers/facts/run_kind.h"
#include "analyzers/facts/step_account.h"
#include "analyzers/facts/steps.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

class AnalysisInput {
 public:
  // Classifies the kernels, finds the steps and builds the account; attaches the calls of the library
  // logs of `run --library-logs` (cuBLASLt first: library_calls.h) to their kernels.
  explicit AnalysisInput(const model::TraceModel& trace, std::span<const liblogs::LibraryLog> library_logs = {});
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
  // The framework op that launched each kernel (op_attribution.h).
  const OpAttribution& ops() const { return ops_; }
  // Training or inference (run_kind.h).
  const RunKindFacts& run_kind() const { return run_kind_; }
  // Peak device memory per GPU (device_memory.h).
  const std::vector<DeviceMemory>& memory() const { return memory_; }
  const DeviceMemory* MemoryOf(model::DeviceRow device) const;
  // The library calls (m/n/k, types, groups) attached to kernels; empty without library logs.
  const LibraryCallFacts& library_calls() const { return library_calls_; }

 private:
  std::vector<KernelClass> signature_classes_;
  OpAttribution ops_;
  std::optional<Steps> steps_;
  StepAccount account_;
  RunKindFacts run_kind_;
  std::vector<DeviceMemory> memory_;
  LibraryCallFacts library_calls_;
};

// Classifies every kernel signature of `model` (each distinct name once).
std::vector<KernelClass> ClassifySignatures(const model::TraceModel& model);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_ANALYSIS_INPUT_H_
