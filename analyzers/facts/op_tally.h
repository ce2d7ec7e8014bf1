#ifndef AMPPROF_ANALYZERS_FACTS_OP_TALLY_H_
#define AMPPROF_ANALYZERS_FACTS_OP_TALLY_H_

// Kernel time summed by the framework op that launched it (op_attribution.h): what a finding names when
// it says which ops its kernels came from, and what the op table lists. Kernels of autograd's backward
// pass are kept apart by the forward op they are the backward of.
//
//   OpTally tally(input);
//   for (KernelRow kernel : ...) tally.Add(kernel, duration);
//   for (const OpTime& op : tally.ByTime()) ... OpLabel(input.ops(), op) ...

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/facts/op_attribution.h"
#include "src/base/time.h"
#include "src/model/ids.h"

namespace ampprof::analyzers {

class AnalysisInput;

inline constexpr uint32_t kNoForwardOp = UINT32_MAX;

struct OpTime {
  uint32_t description = 0;          // index into OpAttribution::descriptions()
  uint32_t forward = kNoForwardOp;   // for kernels of the backward pass: the forward op's description
  model::RangeRow sample;            // one of the op ranges, for what a caller wants to look up
  uint64_t calls = 0;                // op ranges that launched the kernels (consecutive launches of one call count once)
  uint64_t kernels = 0;
  base::DurationNs ns = 0;           // the kernels' own durations
  base::DurationNs tensor_core_ns = 0;  // of that, GEMM/convolution/attention kernels on Tensor Cores (TF32 included)
  base::DurationNs cuda_core_ns = 0;    // ... and on CUDA cores
};

class OpTally {
 public:
  explicit OpTally(const AnalysisInput& input) : input_(input) {}

  void Add(model::KernelRow kernel, base::DurationNs ns);
  // By time, most first (ties by description, so the order is stable).
  std::vector<OpTime> ByTime() const;
  uint64_t unattributed_kernels() const { return unattributed_kernels_; }
  base::DurationNs unattributed_ns() const { return unattributed_ns_; }
  base::DurationNs attributed_ns() const { return attributed_ns_; }

 private:
  const AnalysisInput& input_;
  std::map<std::pair<uint32_t, uint32_t>, OpTime> ops_;
  std::map<std::pair<uint32_t, uint32_t>, model::RangeRow> last_call_;
  uint64_t unattributed_kernels_ = 0;
  base::DurationNs unattributed_ns_ = 0;
  base::DurationNs attributed_ns_ = 0;
};

// "aten::bmm [96, 3137, 64], [96, 64, 3137]"; for the backward pass,
// "aten::mm, backward of aten::addmm [32, 2048], [2048, 512]".
std::string OpLabel(const OpAttribution& ops, const OpTime& op);
// "FP32", "FP16", "BF16", ... for PyTorch's type names ("float", "c10::Half"); the name itself otherwise.
std::string TorchTypeName(std::string_view type);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_OP_TALLY_H_
