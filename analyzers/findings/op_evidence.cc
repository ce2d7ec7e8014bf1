#include "analyzers/findings/op_evidence.h"

#include <algorithm>
#include <limits>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

bool IsConvolution(std::string_view name) { return name.find("conv") != std::string_view::npos; }

void AddUnaligned(int64_t dim, int64_t multiple, std::vector<int64_t>& out) {
  if (dim > 0 && dim % multiple != 0 && std::find(out.begin(), out.end(), dim) == out.end()) out.push_back(dim);
}

}  // namespace

std::string StatementLiteral(std::string_view text) {
  std::string literal;
  literal.reserve(text.size());
  for (const char c : text) {
    literal += c;
    if (c == '{' || c == '}') literal += c;
  }
  return literal;
}

std::vector<int64_t> UnalignedGemmDims(const OpDescription& op, int64_t multiple) {
  std::vector<int64_t> dims;
  if (multiple <= 1) return dims;
  if (IsConvolution(op.name)) {
    // Input [N, C, H, W] and weight [K, C, R, S]: the GEMM cuDNN runs is over the channels.
    std::vector<const OpInput*> tensors;
    for (const OpInput& input : op.inputs) {
      if (input.dims.size() >= 3) tensors.push_back(&input);
    }
    if (!tensors.empty()) AddUnaligned(tensors[0]->dims[1], multiple, dims);
    if (tensors.size() > 1) AddUnaligned(tensors[1]->dims[0], multiple, dims);
    return dims;
  }
  for (const OpInput& input : op.inputs) {
    const size_t rank = input.dims.size();
    if (rank < 2) continue;
    AddUnaligned(input.dims[rank - 2], multiple, dims);
    AddUnaligned(input.dims[rank - 1], multiple, dims);
  }
  return dims;
}

int64_t RoundUpTo(int64_t dim, int64_t multiple) {
  // Dimensions come from logs and traces as written; one near INT64_MAX must not overflow the sum.
  if (multiple <= 0 || dim > std::numeric_limits<int64_t>::max() - (multiple - 1)) return dim;
  return (dim + multiple - 1) / multiple * multiple;
}

std::vector<Evidence> OpEvidence(const AnalysisInput& input, const DeviceAccount& gpu, const OpTally& tally,
                                 size_t count) {
  const std::string per(PerStepWords(input.account()));
  std::vector<Evidence> evidence;
  for (const OpTime& op : tally.ByTime()) {
    if (evidence.size() == count) break;
    evidence.push_back({"op", Statement(StatementLiteral(OpLabel(input.ops(), op)) + ": {time} " + per +
                                            ", {kernels:kernel}",
                                        {Duration("time", gpu.PerStep(op.ns)), Count("kernels", op.kernels)})});
  }
  return evidence;
}

}  // namespace ampprof::analyzers
