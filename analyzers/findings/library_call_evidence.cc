#include "analyzers/findings/library_call_evidence.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzers/findings/finding_support.h"
#include "analyzers/findings/op_evidence.h"

namespace ampprof::analyzers {
namespace {

std::string Dims(const std::vector<int64_t>& dims) { return fmt::format("[{}]", fmt::join(dims, ", ")); }

std::string_view CudnnDataTypeSpelling(liblogs::ComputeType type) {
  switch (type) {
    case liblogs::ComputeType::kFloat16: return "CUDNN_DATA_HALF";
    case liblogs::ComputeType::kFloat32: return "CUDNN_DATA_FLOAT";
    case liblogs::ComputeType::kFloat64: return "CUDNN_DATA_DOUBLE";
    case liblogs::ComputeType::kInt32: return "CUDNN_DATA_INT32";
    default: return "";
  }
}

std::string_view CublasComputeSuffix(liblogs::ComputeType type) {
  switch (type) {
    case liblogs::ComputeType::kFloat16: return "16F";
    case liblogs::ComputeType::kFloat32: return "32F";
    case liblogs::ComputeType::kFloat32FastTf32: return "32F_FAST_TF32";
    case liblogs::ComputeType::kFloat32FastFloat16: return "32F_FAST_16F";
    case liblogs::ComputeType::kFloat32FastBFloat16: return "32F_FAST_16BF";
    case liblogs::ComputeType::kFloat32Pedantic: return "32F_PEDANTIC";
    case liblogs::ComputeType::kFloat64: return "64F";
    case liblogs::ComputeType::kInt32: return "32I";
    default: return "";
  }
}

std::string_view CudnnMathSpelling(liblogs::MathType math) {
  switch (math) {
    case liblogs::MathType::kDefault: return "CUDNN_DEFAULT_MATH";
    case liblogs::MathType::kTensorOp: return "CUDNN_TENSOR_OP_MATH";
    case liblogs::MathType::kTensorOpAllowConversion: return "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION";
    case liblogs::MathType::kFma: return "CUDNN_FMA_MATH";
    case liblogs::MathType::kUnknown: return "";
  }
  return "";
}

// "FP16 operands" when A and B agree, "FP8 E4M3 x FP8 E5M2 operands" otherwise; with the output type
// when it differs.
std::string OperandTypes(const liblogs::GemmCall& gemm) {
  std::string text = gemm.a_type == gemm.b_type
                         ? LibraryTypeName(gemm.a_type)
                         : LibraryTypeName(gemm.a_type) + " x " + LibraryTypeName(gemm.b_type);
  text += " operands";
  const liblogs::DataType out = gemm.d_type != liblogs::DataType::kUnknown ? gemm.d_type : gemm.c_type;
  if (out != liblogs::DataType::kUnknown && out != gemm.a_type) text += ", " + LibraryTypeName(out) + " output";
  return text;
}

}  // namespace

std::string LibraryTypeName(liblogs::DataType type) {
  switch (type) {
    case liblogs::DataType::kFloat64: return "FP64";
    case liblogs::DataType::kFloat32: return "FP32";
    case liblogs::DataType::kFloat16: return "FP16";
    case liblogs::DataType::kBFloat16: return "BF16";
    case liblogs::DataType::kFp8E4M3: return "FP8 E4M3";
    case liblogs::DataType::kFp8E5M2: return "FP8 E5M2";
    case liblogs::DataType::kInt8: return "INT8";
    case liblogs::DataType::kInt32: return "INT32";
    case liblogs::DataType::kOther: return "other";
    case liblogs::DataType::kUnknown: return "unknown";
  }
  return "unknown";
}

std::string ComputeTypeSpelling(liblogs::Library library, liblogs::ComputeType type) {
  if (library == liblogs::Library::kCudnn) return std::string(CudnnDataTypeSpelling(type));
  const std::string_view suffix = CublasComputeSuffix(type);
  return suffix.empty() ? "" : "CUBLAS_COMPUTE_" + std::string(suffix);
}

std::string DescribeGemmCall(const liblogs::LibraryCall& call) {
  if (!call.gemm) return call.function;
  const liblogs::GemmCall& gemm = *call.gemm;
  std::string text = fmt::format("{} m={} n={} k={}, {}", call.function, gemm.m, gemm.n, gemm.k, OperandTypes(gemm));
  if (const std::string compute = ComputeTypeSpelling(call.library, gemm.compute_type); !compute.empty()) {
    text += ", compute " + compute;
  }
  if (gemm.transpose_a && gemm.transpose_b) {
    text += ", A and B transposed";
  } else if (gemm.transpose_a || gemm.transpose_b) {
    text += gemm.transpose_a ? ", A transposed" : ", B transposed";
  }
  if (gemm.batch_count > 1) text += fmt::format(", batch of {}", gemm.batch_count);
  return text;
}

std::string DescribeConvolutionCall(const liblogs::LibraryCall& call) {
  if (!call.convolution) return call.function;
  const liblogs::ConvolutionCall& conv = *call.convolution;
  std::string text = call.function;
  if (!conv.x.dims.empty()) text += " x " + Dims(conv.x.dims);
  if (!conv.w.dims.empty()) text += " w " + Dims(conv.w.dims);
  const int64_t groups = conv.groups();
  if (groups > 1 && conv.x.dims.size() >= 2 && conv.w.dims.size() >= 2) {
    // cuDNN lists x as [N, C, ...] and w as [K, C/G, ...], whatever the layout in memory.
    text += fmt::format(", {} groups of {} input channel{} ({} in, {} out)", groups, conv.w.dims[1],
                        conv.w.dims[1] == 1 ? "" : "s", conv.x.dims[1], conv.w.dims[0]);
  } else if (groups == 1) {
    text += ", 1 group";
  }
  text += ", " + LibraryTypeName(conv.x.type);
  const liblogs::Layout layout = conv.x.layout();
  if (layout != liblogs::Layout::kUnknown) text += " " + std::string(layout == liblogs::Layout::kNhwc ? "NHWC" : "NCHW");
  if (const std::string compute = ComputeTypeSpelling(call.library, conv.compute_type); !compute.empty()) {
    text += ", compute " + compute;
  }
  if (const std::string_view math = CudnnMathSpelling(conv.math_type); !math.empty()) {
    text += ", math " + std::string(math);
  }
  return text;
}

std::string DescribeCall(const liblogs::LibraryCall& call) {
  if (call.gemm) return DescribeGemmCall(call);
  if (call.convolution) return DescribeConvolutionCall(call);
  return call.function;
}

std::string UnalignedGemmCallDims(const liblogs::GemmCall& gemm, int64_t multiple) {
  std::vector<std::string> dims;
  if (multiple <= 1) return "";
  for (const auto& [name, dim] : {std::pair{"m", gemm.m}, std::pair{"n", gemm.n}, std::pair{"k", gemm.k}}) {
    if (dim > 0 && dim % multiple != 0) dims.push_back(fmt::format("{} = {}", name, dim));
  }
  return fmt::format("{}", fmt::join(dims, ", "));
}

std::string MathPathNote(const liblogs::LibraryCall& call) {
  if (!call.gemm) return "";
  const liblogs::GemmCall& gemm = *call.gemm;
  // cuBLASLt's compute type is the call's own; cuBLAS's CUBLAS_COMPUTE_32F still runs TF32 when the
  // handle's math mode (not logged) allows it, so only cuBLASLt's says TF32 was not allowed.
  if (gemm.a_type == liblogs::DataType::kFloat32 && call.library == liblogs::Library::kCublasLt &&
      (gemm.compute_type == liblogs::ComputeType::kFloat32 || gemm.compute_type == liblogs::ComputeType::kFloat32Pedantic)) {
    return "the call did not allow TF32";
  }
  const bool half = gemm.a_type == liblogs::DataType::kFloat16 || gemm.a_type == liblogs::DataType::kBFloat16;
  if (half) {
    const std::string dims = UnalignedGemmCallDims(gemm, 8);
    if (!dims.empty()) return dims + (dims.find(',') == std::string::npos ? " is" : " are") + " not a multiple of 8";
  }
  return "";
}

bool LibraryCallTally::Add(model::KernelRow kernel, base::DurationNs ns) {
  const liblogs::LibraryCall* call = input_.library_calls().CallOf(kernel);
  if (call == nullptr) return false;
  std::string op;
  if (const model::RangeRow range = input_.ops().OpOf(kernel); range.valid()) op = input_.ops().Describe(range).name;
  CallTime& entry = calls_[{op, DescribeCall(*call)}];
  if (entry.call == nullptr) {
    entry.call = call;
    entry.op = op;
  }
  ++entry.kernels;
  entry.ns += ns;
  return true;
}

std::vector<CallTime> LibraryCallTally::ByTime() const {
  std::vector<std::pair<const std::tuple<std::string, std::string>*, CallTime>> entries;
  for (const auto& [key, entry] : calls_) entries.emplace_back(&key, entry);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
  std::vector<CallTime> sorted;
  for (auto& entry : entries) sorted.push_back(std::move(entry.second));
  return sorted;
}

std::vector<Evidence> LibraryCallEvidence(const AnalysisInput& input, const DeviceAccount& gpu,
                                          const LibraryCallTally& tally, size_t count,
                                          const std::function<std::string(const liblogs::LibraryCall&)>& note) {
  const std::string per(PerStepWords(input.account()));
  std::vector<Evidence> evidence;
  for (const CallTime& call : tally.ByTime()) {
    if (evidence.size() == count) break;
    std::string text = (call.op.empty() ? "" : call.op + ": ") + DescribeCall(*call.call);
    if (note) {
      if (const std::string said = note(*call.call); !said.empty()) text += "; " + said;
    }
    evidence.push_back({"library call", Statement(StatementLiteral(text) + ": {time} " + per + ", {kernels:kernel}",
                                                  {Duration("time", gpu.PerStep(call.ns)),
                                                   Count("kernels", call.kernels)})});
  }
  return evidence;
}

}  // namespace ampprof::analyzers
