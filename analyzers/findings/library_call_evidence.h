#ifndef AMPPROF_ANALYZERS_FINDINGS_LIBRARY_CALL_EVIDENCE_H_
#define AMPPROF_ANALYZERS_FINDINGS_LIBRARY_CALL_EVIDENCE_H_

// What findings say from the library logs of `run --library-logs` (AnalysisInput::library_calls()): the
// cuBLASLt/cuBLAS GEMMs and cuDNN convolutions behind a finding's kernels, as the libraries logged them
// (m/n/k, operand and compute types, transposes; tensor shapes, groups, math type), with the framework op
// that made the call when the trace has one. This is the evidence a trace without shapes of its own (an
// .ampt without --torch-ops, an nsys export without NVTX ops) lacks, and it is the library's own view even
// when the trace has shapes: the GEMM cuBLAS ran, not the op's arguments.
//
//   LibraryCallTally calls(input);
//   ... calls.Add(kernel, ns) for the finding's kernels ...
//   for (const CallTime& call : calls.ByTime()) ... DescribeGemmCall(*call.call) ...

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"
#include "collectors/liblogs/library_call.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// The kernels of one kind of library call: one function with one set of arguments (dims, types,
// groups), from one op.
struct CallTime {
  const liblogs::LibraryCall* call = nullptr;  // the first such call, for its arguments
  std::string op;                              // the framework op's name ("aten::mm"), "" without one
  uint64_t kernels = 0;
  base::DurationNs ns = 0;
};

class LibraryCallTally {
 public:
  explicit LibraryCallTally(const AnalysisInput& input) : input_(input) {}

  // `kernel` counts when a library call is attached to it; returns whether one was.
  bool Add(model::KernelRow kernel, base::DurationNs ns);
  // By time, most first (ties by description, so the order is stable).
  std::vector<CallTime> ByTime() const;
  bool empty() const { return calls_.empty(); }

 private:
  const AnalysisInput& input_;
  std::map<std::tuple<std::string, std::string>, CallTime> calls_;  // by (op, description)
};

// "cublasLtMatmul m=1000 n=1000 k=1000, FP32 operands, compute CUBLAS_COMPUTE_32F_FAST_TF32"; with
// ", A transposed", ", batch of 96" where the call says so.
std::string DescribeGemmCall(const liblogs::LibraryCall& call);
// "cudnnConvolutionForward x [32, 896, 1, 832] w [1792, 28, 1, 19], 32 groups of 28 input channels
// (896 in, 1792 out), FP16 NCHW, compute CUDNN_DATA_FLOAT, math CUDNN_TENSOR_OP_MATH".
std::string DescribeConvolutionCall(const liblogs::LibraryCall& call);
// Either, by what the call is; the function name alone for a call the log gave no arguments of
// (cudnnBackendExecute).
std::string DescribeCall(const liblogs::LibraryCall& call);
// The compute type as the library spells it: CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_32F_FAST_TF32,
// CUDNN_DATA_FLOAT; "" when the log did not say.
std::string ComputeTypeSpelling(liblogs::Library library, liblogs::ComputeType type);
// "FP32", "FP16", "BF16", "FP8 E4M3", ...
std::string LibraryTypeName(liblogs::DataType type);

// "m = 2, n = 3" for a GEMM's dimensions that are not multiples of `multiple`; "" when all are.
std::string UnalignedGemmCallDims(const liblogs::GemmCall& gemm, int64_t multiple);

// Up to `count` evidence lines labelled "library call", the tally's calls by time:
// "aten::mm: cublasGemmEx m=2 n=3 k=4, FP16 operands, compute CUBLAS_COMPUTE_32F; NOTE: 1.2 ms per step,
// 40 kernels", where NOTE is `note(call)` (left out when ""). Per step of `gpu`'s account.
std::vector<Evidence> LibraryCallEvidence(const AnalysisInput& input, const DeviceAccount& gpu,
                                          const LibraryCallTally& tally, size_t count,
                                          const std::function<std::string(const liblogs::LibraryCall&)>& note = {});

// What a GEMM call says about the math path its kernel took, for the findings about CUDA-core and TF32
// math: "the call did not allow TF32" (cuBLASLt, FP32 operands, compute CUBLAS_COMPUTE_32F: cuBLAS's own
// compute type does not say, its handle's math mode decides), "m = 2 is not a multiple of 8" (FP16/BF16
// operands); "" when it says nothing more.
std::string MathPathNote(const liblogs::LibraryCall& call);

// Where the calls came from, for a finding's "source" evidence.
inline constexpr std::string_view kLibraryCallSource =
    "the cuBLASLt/cuBLAS/cuDNN API logs of run --library-logs, matched to the kernels by process, thread, order "
    "and kernel family";

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_LIBRARY_CALL_EVIDENCE_H_
