#ifndef AMPPROF_COLLECTORS_LIBLOGS_LIBRARY_CALL_H_
#define AMPPROF_COLLECTORS_LIBLOGS_LIBRARY_CALL_H_

// What cuBLASLt, cuBLAS and cuDNN say about the calls that launched kernels, read from their API logs
// (`ampprof run --library-logs`): the evidence kernel names cannot give, such as a GEMM's m/n/k and
// operand types, a convolution's layout and groups. Plain structs, one per library call; the parsers
// (cublaslt_log.h, cublas_log.h, cudnn_log.h) fill them, analyzers::AttachLibraryCalls ties them to
// kernels.
//
//   ASSIGN_OR_RETURN(LibraryLog log, ParseLibraryLogFile("logs/cublaslt.4242.log"));
//   for (const LibraryCall& call : log.calls)
//     if (call.gemm && call.gemm->k % 8 != 0) ...   // a GEMM that cannot use the aligned Tensor-Core path

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ampprof::liblogs {

enum class Library : uint8_t { kCublasLt, kCublas, kCudnn };
std::string_view LibraryName(Library library);

// Element types, folded across the libraries' spellings (R_16F, CUDA_R_16F, CUDNN_DATA_HALF).
enum class DataType : uint8_t {
  kUnknown,
  kFloat64,
  kFloat32,
  kFloat16,
  kBFloat16,
  kFp8E4M3,
  kFp8E5M2,
  kInt8,
  kInt32,
  kOther,  // named, but none of the above (complex, int4, ...)
};
std::string_view DataTypeName(DataType type);
// R_16F (cuBLASLt), CUDA_R_16F(2) (cuBLAS), CUDNN_DATA_HALF (2) (cuDNN): the library's spelling, with or
// without the numeric value that the logs append.
DataType ParseDataType(std::string_view text);

// How the products are accumulated (cuBLAS compute type, cuDNN convolution compute type).
enum class ComputeType : uint8_t {
  kUnknown,
  kFloat16,
  kFloat32,
  kFloat32FastTf32,   // FP32 data on Tensor Cores through TF32
  kFloat32FastFloat16,
  kFloat32FastBFloat16,
  kFloat32Pedantic,
  kFloat64,
  kInt32,
  kOther,
};
std::string_view ComputeTypeName(ComputeType type);
// COMPUTE_32F_FAST_TF32 (cuBLASLt), CUBLAS_COMPUTE_32F(68) (cuBLAS); a cuDNN data type
// (CUDNN_DATA_FLOAT) names the plain compute type of that precision.
ComputeType ParseComputeType(std::string_view text);

// A GEMM as cuBLAS sees it (column-major): D[m x n] = op(A)[m x k] * op(B)[k x n]. PyTorch calls cuBLAS on
// row-major tensors, so for `C = A @ B` in PyTorch, cuBLAS's m and n are PyTorch's n and m.
struct GemmCall {
  DataType a_type = DataType::kUnknown;
  DataType b_type = DataType::kUnknown;
  DataType c_type = DataType::kUnknown;
  DataType d_type = DataType::kUnknown;  // cuBLASLt only; cuBLAS writes C
  ComputeType compute_type = ComputeType::kUnknown;
  int64_t m = 0, n = 0, k = 0;
  bool transpose_a = false;
  bool transpose_b = false;
  int64_t batch_count = 1;
};

enum class Layout : uint8_t { kUnknown, kNchw, kNhwc };  // 4-d (and 5-d: NCDHW / NDHWC) tensors
std::string_view LayoutName(Layout layout);

struct TensorDescriptor {
  DataType type = DataType::kUnknown;
  std::vector<int64_t> dims;     // in NCHW order, as cuDNN always lists them
  std::vector<int64_t> strides;  // empty for legacy filter descriptors (their format says the layout)
  Layout format = Layout::kUnknown;  // a legacy filter descriptor's CUDNN_TENSOR_NCHW / NHWC
  int64_t uid = -1;                  // backend tensors only
  // NHWC when the channel stride is 1 and the others are packed around it; NCHW when packed in
  // dimension order; else unknown (a view, a broadcast, 1-channel tensors where both fit first).
  Layout layout() const;
};

enum class ConvolutionDirection : uint8_t { kForward, kBackwardData, kBackwardFilter };
std::string_view ConvolutionDirectionName(ConvolutionDirection direction);
enum class MathType : uint8_t { kUnknown, kDefault, kTensorOp, kTensorOpAllowConversion, kFma };
std::string_view MathTypeName(MathType math);

struct ConvolutionCall {
  ConvolutionDirection direction = ConvolutionDirection::kForward;
  TensorDescriptor x;  // input (dx for backward data)
  TensorDescriptor w;  // filter [K, C/G, R, S] (dw for backward filter)
  TensorDescriptor y;  // output (dy for the backward passes)
  ComputeType compute_type = ComputeType::kUnknown;
  MathType math_type = MathType::kUnknown;
  int64_t group_count = 0;  // as logged (legacy API); 0 when the log does not say
  // Groups as the log says, else input channels over filter channels (C / (C/G)); 0 when unknown.
  int64_t groups() const;
};

// One library call that launches kernels, in log order.
struct LibraryCall {
  Library library = Library::kCublasLt;
  std::string function;  // "cublasLtSSSMatmul", "cublasGemmEx", "cudnnConvolutionForward", ...
  uint32_t pid = 0;      // 0: not in the log
  uint64_t tid = 0;      // OS thread id; 0: not in the log (cuBLASLt lines carry none)
  std::optional<uint64_t> stream;  // the cudaStream_t handle's value (0 = the legacy default stream)
  size_t line = 0;       // 1-based line in the log where the call starts, for messages
  std::optional<GemmCall> gemm;
  std::optional<ConvolutionCall> convolution;
};

// A parsed log file. Lines the parser does not understand are counted, never fatal: the libraries'
// formats change between versions, and processes sharing a file can interleave lines.
struct LibraryLog {
  Library library = Library::kCublasLt;
  std::vector<LibraryCall> calls;
  std::vector<TensorDescriptor> backend_tensors;  // cuDNN backend tensors, last state of each uid
  size_t lines = 0;
  size_t unknown_lines = 0;
};

}  // namespace ampprof::liblogs

#endif  // AMPPROF_COLLECTORS_LIBLOGS_LIBRARY_CALL_H_
