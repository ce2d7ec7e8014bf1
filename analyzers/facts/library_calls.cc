#include "analyzers/facts/library_calls.h"

#include "analyzers/facts/analysis_input.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

namespace ampprof::analyzers {
namespace {

enum class Family : uint8_t { kNone, kGemm, kConvolution };

Family FamilyOfCall(const liblogs::LibraryCall& call) {
  if (call.gemm) return Family::kGemm;
  if (call.library == liblogs::Library::kCudnn) return Family::kConvolution;  // convolutions and executions
  return Family::kNone;  // e.g. cublasLtMatrixTransform: launches kernels, but none we can tell apart
}

// The call's main kernel: a GEMM or convolution that does the math, not a helper (split-K reduction,
// offset tables, layout transposes), which launch alongside it.
Family FamilyOfKernel(const KernelClass& kernel) {
  if (kernel.math == MathUnit::kNotApplicable) return Family::kNone;
  if (kernel.category == KernelCategory::kGemm) return Family::kGemm;
  if (kernel.category == KernelCategory::kConvolution) return Family::kConvolution;
  return Family::kNone;
}

// The precision a GEMM call's kernel name would show, if the call says.
std::optional<DataType> ExpectedKernelType(const liblogs::LibraryCall& call) {
  if (!call.gemm) return std::nullopt;
  switch (call.gemm->a_type) {
    case liblogs::DataType::kFloat16: return DataType::kFp16;
    case liblogs::DataType::kBFloat16: return DataType::kBf16;
    case liblogs::DataType::kFloat32: return DataType::kFp32;
    case liblogs::DataType::kFloat64: return DataType::kFp64;
    case liblogs::DataType::kFp8E4M3:
    case liblogs::DataType::kFp8E5M2: return DataType::kFp8;
    case liblogs::DataType::kInt8: return DataType::kInt8;
    default: return std::nullopt;
  }
}

bool Contradicts(const std::optional<DataType>& expected, DataType kernel) {
  if (!expected || kernel == DataType::kUnknown) return false;
  // FP32 data runs on kernels named for FP32 or for TF32, as the compute type allows.
  const auto fold = [](DataType type) { return type == DataType::kTf32 ? DataType::kFp32 : type; };
  return fold(*expected) != fold(kernel);
}

// One sequence of candidate kernels (a thread's, or a whole process's) and how far matching got in it.
struct Sequence {
  std::vector<model::KernelRow> kernels;  // by launch-call start
  size_t next = 0;
};

}  // namespace

LibraryCallAttachment AttachLibraryCalls(const AnalysisInput& input, const liblogs::LibraryLog& log) {
  const model::TraceModel& model = input.model;
  // Candidate kernels per family, per (pid, tid) and per pid, in launch order.
  using Launch = std::tuple<base::TimeNs, uint32_t, model::KernelRow>;
  std::map<std::tuple<Family, uint32_t, uint64_t>, std::vector<Launch>> by_thread;
  std::map<std::pair<Family, uint32_t>, std::vector<Launch>> by_process;
  for (uint32_t i = 0; i < model.kernels().size(); ++i) {
    const model::KernelRow kernel(i);
    const Family family = FamilyOfKernel(input.ClassOf(kernel));
    const model::ApiCallRow launch = model.kernels().launch[kernel];
    if (family == Family::kNone || !launch.valid()) continue;
    const model::Thread& thread = model.threads()[model.api_calls().thread[launch].value];
    const Launch entry{model.api_calls().start[launch], i, kernel};
    by_thread[{family, thread.pid, thread.tid}].push_back(entry);
    by_process[{family, thread.pid}].push_back(entry);
  }
  auto to_sequence = [](std::vector<Launch>& launches) {
    std::sort(launches.begin(), launches.end());
    Sequence sequence;
    for (const Launch& launch : launches) sequence.kernels.push_back(std::get<2>(launch));
    return sequence;
  };
  std::map<std::tuple<Family, uint32_t, uint64_t>, Sequence> thread_sequences;
  std::map<std::pair<Family, uint32_t>, Sequence> process_sequences;
  for (auto& [key, launches] : by_thread) thread_sequences.emplace(key, to_sequence(launches));
  for (auto& [key, launches] : by_process) process_sequences.emplace(key, to_sequence(launches));

  std::vector<bool> claimed(model.kernels().size(), false);
  LibraryCallAttachment attachment;
  const bool one_process = model.processes().size() == 1;
  for (uint32_t index = 0; index < log.calls.size(); ++index) {
    const liblogs::LibraryCall& call = log.calls[index];
    const Family family = FamilyOfCall(call);
    if (family == Family::kNone) continue;
    // A call without a pid belongs to the trace's process when there is only one.
    uint32_t pid = call.pid;
    if (pid == 0 && one_process) pid = model.processes().front().pid;
    const bool known_process = std::any_of(model.processes().begin(), model.processes().end(),
                                           [&](const model::Process& process) { return process.pid == pid; });
    if (!known_process) {
      ++attachment.other_process_calls;
      continue;
    }
    ++attachment.calls;
    Sequence* sequence = nullptr;
    if (call.tid != 0) {
      const auto thread = thread_sequences.find({family, pid, call.tid});
      if (thread != thread_sequences.end()) {
        sequence = &thread->second;
      } else {
        ++attachment.thread_fallbacks;
      }
    }
    if (sequence == nullptr) {
      const auto process = process_sequences.find({family, pid});
      if (process == process_sequences.end()) {
        ++attachment.unmatched_calls;
        continue;
      }
      sequence = &process->second;
    }
    const std::optional<DataType> expected = ExpectedKernelType(call);
    size_t at = sequence->next;
    size_t skipped = 0;
    std::optional<size_t> found;
    while (at < sequence->kernels.size() && skipped <= kMaxSkippedKernels) {
      const model::KernelRow kernel = sequence->kernels[at];
      if (claimed[kernel.value]) {
        ++at;  // taken through the other sequence (thread vs process) already
        continue;
      }
      if (!Contradicts(expected, input.ClassOf(kernel).dtype)) {
        found = at;
        break;
      }
      ++skipped;
      ++at;
    }
    if (!found) {
      ++attachment.unmatched_calls;  // the sequence stays where it was, for the next call
      continue;
    }
    attachment.skipped_kernels += skipped;
    const model::KernelRow kernel = sequence->kernels[*found];
    claimed[kernel.value] = true;
    sequence->next = *found + 1;
    attachment.matches.push_back({kernel, index});
  }
  return attachment;
}

LibraryCallFacts::LibraryCallFacts(const AnalysisInput& input, std::span<const liblogs::LibraryLog> logs) {
  std::vector<bool> taken(input.model.kernels().size(), false);
  for (const liblogs::LibraryLog& log : logs) {
    attachments_.push_back(AttachLibraryCalls(input, log));
    for (const AttachedCall& match : attachments_.back().matches) {
      if (taken[match.kernel.value]) continue;  // an earlier log's call, kept
      taken[match.kernel.value] = true;
      by_kernel_.emplace_back(match.kernel.value, static_cast<uint32_t>(calls_.size()));
      calls_.push_back(log.calls[match.call]);
    }
  }
  std::sort(by_kernel_.begin(), by_kernel_.end());
}

const liblogs::LibraryCall* LibraryCallFacts::CallOf(model::KernelRow kernel) const {
  const auto it = std::lower_bound(by_kernel_.begin(), by_kernel_.end(), std::make_pair(kernel.value, uint32_t{0}));
  if (it == by_kernel_.end() || it->first != kernel.value) return nullptr;
  return &calls_[it->second];
}

}  // namespace ampprof::analyzers
