#include "collectors/liblogs/library_call.h"

#include <array>
#include <utility>

namespace ampprof::liblogs {
namespace {

// "CUDA_R_16F(2)" -> "CUDA_R_16F"; "CUDNN_DATA_HALF (2)" -> "CUDNN_DATA_HALF": the logs append the enum's
// numeric value.
std::string_view WithoutValue(std::string_view text) {
  const size_t paren = text.find('(');
  if (paren != std::string_view::npos) text = text.substr(0, paren);
  while (!text.empty() && (text.back() == ' ' || text.back() == ';')) text.remove_suffix(1);
  return text;
}

std::string_view WithoutPrefix(std::string_view text, std::string_view prefix) {
  return text.starts_with(prefix) ? text.substr(prefix.size()) : text;
}

// cuBLAS / cuBLASLt spelling without the CUDA_ prefix: R_16F, R_16BF, R_8F_E4M3, ...
constexpr std::array<std::pair<std::string_view, DataType>, 10> kCudaDataTypes = {{
    {"R_64F", DataType::kFloat64},
    {"R_32F", DataType::kFloat32},
    {"R_16F", DataType::kFloat16},
    {"R_16BF", DataType::kBFloat16},
    {"R_8F_E4M3", DataType::kFp8E4M3},
    {"R_8F_E5M2", DataType::kFp8E5M2},
    {"R_8I", DataType::kInt8},
    {"R_32I", DataType::kInt32},
    {"R_8U", DataType::kOther},
    {"C_32F", DataType::kOther},
}};

// cuDNN's cudnnDataType_t without the CUDNN_DATA_ prefix (cudnn_graph_v9.h).
constexpr std::array<std::pair<std::string_view, DataType>, 8> kCudnnDataTypes = {{
    {"DOUBLE", DataType::kFloat64},
    {"FLOAT", DataType::kFloat32},
    {"HALF", DataType::kFloat16},
    {"BFLOAT16", DataType::kBFloat16},
    {"FP8_E4M3", DataType::kFp8E4M3},
    {"FP8_E5M2", DataType::kFp8E5M2},
    {"INT8", DataType::kInt8},
    {"INT32", DataType::kInt32},
}};

// cublasComputeType_t without CUBLAS_COMPUTE_ (cuBLAS) or COMPUTE_ (cuBLASLt's log).
constexpr std::array<std::pair<std::string_view, ComputeType>, 11> kComputeTypes = {{
    {"16F", ComputeType::kFloat16},
    {"16F_PEDANTIC", ComputeType::kFloat16},
    {"32F", ComputeType::kFloat32},
    {"32F_PEDANTIC", ComputeType::kFloat32Pedantic},
    {"32F_FAST_TF32", ComputeType::kFloat32FastTf32},
    {"32F_FAST_16F", ComputeType::kFloat32FastFloat16},
    {"32F_FAST_16BF", ComputeType::kFloat32FastBFloat16},
    {"64F", ComputeType::kFloat64},
    {"64F_PEDANTIC", ComputeType::kFloat64},
    {"32I", ComputeType::kInt32},
    {"32I_PEDANTIC", ComputeType::kInt32},
}};

template <typename T, size_t N>
std::optional<T> Lookup(const std::array<std::pair<std::string_view, T>, N>& table, std::string_view key) {
  for (const auto& [name, value] : table) {
    if (name == key) return value;
  }
  return std::nullopt;
}

// Whether `order` (dimension indices, slowest first) lists a packed layout of `dims` with `strides`.
bool PackedInOrder(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                   std::initializer_list<size_t> order) {
  int64_t expected = 1;
  for (auto it = std::rbegin(order); it != std::rend(order); ++it) {
    if (dims[*it] != 1 && strides[*it] != expected) return false;
    expected *= dims[*it];
  }
  return true;
}

}  // namespace

std::string_view LibraryName(Library library) {
  switch (library) {
    case Library::kCublasLt: return "cuBLASLt";
    case Library::kCublas: return "cuBLAS";
    case Library::kCudnn: return "cuDNN";
  }
  return "unknown";
}

std::string_view DataTypeName(DataType type) {
  switch (type) {
    case DataType::kUnknown: return "unknown";
    case DataType::kFloat64: return "fp64";
    case DataType::kFloat32: return "fp32";
    case DataType::kFloat16: return "fp16";
    case DataType::kBFloat16: return "bf16";
    case DataType::kFp8E4M3: return "fp8_e4m3";
    case DataType::kFp8E5M2: return "fp8_e5m2";
    case DataType::kInt8: return "int8";
    case DataType::kInt32: return "int32";
    case DataType::kOther: return "other";
  }
  return "unknown";
}

DataType ParseDataType(std::string_view text) {
  text = WithoutValue(text);
  if (text.empty()) return DataType::kUnknown;
  if (text.starts_with("CUDNN_DATA_")) {
    return Lookup(kCudnnDataTypes, text.substr(11)).value_or(DataType::kOther);
  }
  return Lookup(kCudaDataTypes, WithoutPrefix(text, "CUDA_")).value_or(DataType::kOther);
}

std::string_view ComputeTypeName(ComputeType type) {
  switch (type) {
    case ComputeType::kUnknown: return "unknown";
    case ComputeType::kFloat16: return "fp16";
    case ComputeType::kFloat32: return "fp32";
    case ComputeType::kFloat32FastTf32: return "fp32 (fast tf32)";
    case ComputeType::kFloat32FastFloat16: return "fp32 (fast fp16)";
    case ComputeType::kFloat32FastBFloat16: return "fp32 (fast bf16)";
    case ComputeType::kFloat32Pedantic: return "fp32 (pedantic)";
    case ComputeType::kFloat64: return "fp64";
    case ComputeType::kInt32: return "int32";
    case ComputeType::kOther: return "other";
  }
  return "unknown";
}

ComputeType ParseComputeType(std::string_view text) {
  text = WithoutValue(text);
  if (text.empty()) return ComputeType::kUnknown;
  if (text.starts_with("CUDNN_DATA_") || text.starts_with("CUDA_R_")) {
    // A data type standing for a compute type: cuDNN's convolution compute type, pre-11 cublasGemmEx.
    switch (ParseDataType(text)) {
      case DataType::kFloat16: return ComputeType::kFloat16;
      case DataType::kFloat32: return ComputeType::kFloat32;
      case DataType::kFloat64: return ComputeType::kFloat64;
      case DataType::kInt32: return ComputeType::kInt32;
      default: return ComputeType::kOther;
    }
  }
  text = WithoutPrefix(WithoutPrefix(text, "CUBLAS_"), "COMPUTE_");
  return Lookup(kComputeTypes, text).value_or(ComputeType::kOther);
}

std::string_view LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kUnknown: return "unknown";
    case Layout::kNchw: return "NCHW";
    case Layout::kNhwc: return "NHWC";
  }
  return "unknown";
}

Layout TensorDescriptor::layout() const {
  if (strides.empty()) return format;
  if (dims.size() != strides.size() || (dims.size() != 4 && dims.size() != 5)) return Layout::kUnknown;
  const bool nchw = dims.size() == 4 ? PackedInOrder(dims, strides, {0, 1, 2, 3})
                                     : PackedInOrder(dims, strides, {0, 1, 2, 3, 4});
  const bool nhwc = dims.size() == 4 ? PackedInOrder(dims, strides, {0, 2, 3, 1})
                                     : PackedInOrder(dims, strides, {0, 2, 3, 4, 1});
  if (nchw == nhwc) return Layout::kUnknown;  // neither, or both (one channel, or 1x1 spatial)
  return nchw ? Layout::kNchw : Layout::kNhwc;
}

std::string_view ConvolutionDirectionName(ConvolutionDirection direction) {
  switch (direction) {
    case ConvolutionDirection::kForward: return "forward";
    case ConvolutionDirection::kBackwardData: return "backward data";
    case ConvolutionDirection::kBackwardFilter: return "backward filter";
  }
  return "unknown";
}

std::string_view MathTypeName(MathType math) {
  switch (math) {
    case MathType::kUnknown: return "unknown";
    case MathType::kDefault: return "default";
    case MathType::kTensorOp: return "tensor op";
    case MathType::kTensorOpAllowConversion: return "tensor op (allow conversion)";
    case MathType::kFma: return "fma";
  }
  return "unknown";
}

int64_t ConvolutionCall::groups() const {
  if (group_count > 0) return group_count;
  // W is [K, C/G, R, S]: G = C / (C/G), when both channel counts are known and divide.
  if (x.dims.size() < 2 || w.dims.size() < 2 || w.dims[1] <= 0 || x.dims[1] % w.dims[1] != 0) return 0;
  return x.dims[1] / w.dims[1];
}

}  // namespace ampprof::liblogs
