#ifndef AMPPROF_ANALYZERS_FINDINGS_OP_EVIDENCE_H_
#define AMPPROF_ANALYZERS_FINDINGS_OP_EVIDENCE_H_

// What findings say about the framework ops behind their kernels (analyzers/facts/op_attribution.h):
// the ops that launched them, by time, and for GEMMs the input dimensions that keep them off the
// aligned Tensor-Core kernels.
//
//   OpTally tally(input);  ... tally.Add(kernel, ns) for the finding's kernels ...
//   for (Evidence& e : OpEvidence(input, tally, 3)) finding.evidence.push_back(std::move(e));

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/facts/op_tally.h"
#include "analyzers/facts/step_account.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

// Text from a trace inside a Statement: braces doubled, so that an op name is never read as a placeholder.
std::string StatementLiteral(std::string_view text);

// The dimensions of an op's inputs that its GEMM runs over and that are not multiples of `multiple`, in
// input order, each once: the last two of every input of two or more dimensions (a matrix or a batch of
// them: mm, bmm, matmul, linear's input and weight); for a convolution, the channels of its input and
// weight instead. Empty without shapes.
std::vector<int64_t> UnalignedGemmDims(const OpDescription& op, int64_t multiple);

// `dim` rounded up to a multiple of `multiple`; `dim` itself where that would overflow (a hostile log).
int64_t RoundUpTo(int64_t dim, int64_t multiple);

// Up to `count` evidence lines "op": "aten::bmm [96, 3137, 64], [96, 64, 3137]: 1.2 ms per step, 40
// kernels", the ops of the tally by time (per step of `gpu`'s account, as the findings' other times);
// none when no kernel was attributed.
std::vector<Evidence> OpEvidence(const AnalysisInput& input, const DeviceAccount& gpu, const OpTally& tally,
                                 size_t count);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_OP_EVIDENCE_H_
