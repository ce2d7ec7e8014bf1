#ifndef AMPPROF_ANALYZERS_FACTS_LIBRARY_CALLS_H_
#define AMPPROF_ANALYZERS_FACTS_LIBRARY_CALLS_H_

// Tying library calls from cuBLASLt / cuBLAS / cuDNN logs (collectors/liblogs) to the kernels they
// launched, so that analyzers can read a GEMM's m/n/k or a convolution's groups next to its kernel.
//
// The logs and the trace share no id. What they share:
//   * the process: each call carries its pid (cuBLASLt's line prefix, the others' Process= field);
//   * perhaps the thread: cuBLAS and cuDNN log the OS thread id (cuDNN's main thread has Thread ==
//     Process, so it is gettid()); cuBLASLt logs none. Whether CUPTI's threadId is the same number is
//     not established (pytorch/pytorch#159771 reports Kineto's CUPTI thread ids matching neither gettid
//     nor pthread_self), so a call's thread is used only when the trace has a thread with that id;
//   * the order: a call is logged before the launch it makes, on the calling thread.
// The stream is logged as a cudaStream_t handle, which the trace does not record (CUPTI gives stream
// ids), so it cannot be used.
//
// So calls are matched in order to the kernels of their family (GEMM calls to GEMM kernels, cuDNN
// convolutions and executions to convolution kernels; helpers such as split-K reductions and layout
// transposes are not the call's main kernel), within the call's thread when the trace has that thread,
// else within the process in launch order. A kernel whose name says a precision that contradicts the
// call's operand types is skipped (at most kMaxSkippedKernels in a row), which keeps the match aligned
// when a kernel of the family came from elsewhere (Triton, CUTLASS from another library). The match
// assumes the logs and the trace cover the same span of the process: a trace that starts late (a
// capture window) against a log from process start shifts every match, which the counts show
// (unmatched calls and unclaimed kernels both high).
//
//   const LibraryCallAttachment attached = AttachLibraryCalls(input, log);   // one log, for its counts
//   for (const AttachedCall& a : attached.matches)
//     if (const auto& gemm = log.calls[a.call].gemm) ... input.ClassOf(a.kernel) ...

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "collectors/liblogs/library_call.h"
#include "src/model/ids.h"

namespace ampprof::analyzers {

class AnalysisInput;

// A kernel whose precision contradicts the call is passed over at most this many times in a row before
// the call is declared unmatched: more would let one missing kernel drag every later call off its own.
inline constexpr size_t kMaxSkippedKernels = 4;

struct AttachedCall {
  model::KernelRow kernel;
  uint32_t call = 0;  // index into LibraryLog::calls
};

struct LibraryCallAttachment {
  std::vector<AttachedCall> matches;  // in call order
  size_t calls = 0;                   // calls of this trace's processes that launch a family's kernel
  size_t unmatched_calls = 0;         // of those, calls no kernel was found for
  size_t other_process_calls = 0;     // calls of processes this trace does not hold
  size_t thread_fallbacks = 0;        // calls whose thread the trace lacks, matched process-wide
  size_t skipped_kernels = 0;         // family kernels passed over for a contradicting precision
};

LibraryCallAttachment AttachLibraryCalls(const AnalysisInput& input, const liblogs::LibraryLog& log);

// The calls of a trace's library logs attached to its kernels, one call per kernel: what findings read
// as a GEMM's m/n/k and compute type or a convolution's groups when the trace has no shapes of its own
// (AnalysisInput::library_calls()). Logs are attached one by one, in the order given; a kernel two logs
// claim keeps the first log's call. cuBLAS runs its GEMMs through cuBLASLt, so with both logs one GEMM
// kernel is claimed by cublasGemmEx and by the cublasLtMatmul inside it: the pipeline gives cuBLASLt's
// log first, whose compute type is the one the kernel ran with (COMPUTE_32F_FAST_TF32 where the handle's
// math mode allowed TF32, when cuBLAS's own line says CUBLAS_COMPUTE_32F).
class LibraryCallFacts {
 public:
  LibraryCallFacts() = default;
  LibraryCallFacts(const AnalysisInput& input, std::span<const liblogs::LibraryLog> logs);

  // The call that launched `kernel`, or null when no log's call was attached to it.
  const liblogs::LibraryCall* CallOf(model::KernelRow kernel) const;
  // Whether any call was attached.
  bool empty() const { return calls_.empty(); }
  // Per log, in the order given: what was attached.
  const std::vector<LibraryCallAttachment>& attachments() const { return attachments_; }

 private:
  std::vector<liblogs::LibraryCall> calls_;               // the attached calls only
  std::vector<std::pair<uint32_t, uint32_t>> by_kernel_;  // (kernel row, index into calls_), sorted
  std::vector<LibraryCallAttachment> attachments_;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_LIBRARY_CALLS_H_
