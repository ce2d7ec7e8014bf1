#include "collectors/liblogs/cublas_log.h"

#include <charconv>
#include <string>

#include "collectors/liblogs/api_log_blocks.h"

namespace ampprof::liblogs {
namespace {

int64_t IntegerOr(std::string_view text, int64_t fallback) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : fallback;
}

bool IsGemm(std::string_view function) {
  // cublasGemmEx, cublasSgemm_v2, cublasHgemmStridedBatched, cublasGemmBatchedEx, ... but not
  // cublasGetMathMode-style calls, which have no "gemm"/"Gemm" in them.
  return function.starts_with("cublas") &&
         (function.find("gemm") != std::string_view::npos || function.find("Gemm") != std::string_view::npos);
}

// cublasSgemm_v2 -> fp32; the typed GEMMs compute in their own precision.
DataType TypeOfTypedGemm(std::string_view function) {
  if (function.size() < 7 || function.substr(7, 4) != "gemm") return DataType::kUnknown;
  switch (function[6]) {
    case 'S': return DataType::kFloat32;
    case 'D': return DataType::kFloat64;
    case 'H': return DataType::kFloat16;
    default: return DataType::kUnknown;
  }
}

ComputeType ComputeOf(DataType type) {
  switch (type) {
    case DataType::kFloat32: return ComputeType::kFloat32;
    case DataType::kFloat64: return ComputeType::kFloat64;
    case DataType::kFloat16: return ComputeType::kFloat16;
    default: return ComputeType::kUnknown;
  }
}

bool Transposed(std::string_view operation) {
  return operation.starts_with("CUBLAS_OP_T") || operation.starts_with("CUBLAS_OP_C");
}

LibraryCall ToCall(const ApiBlock& block) {
  LibraryCall call;
  call.library = Library::kCublas;
  call.function = block.function;
  call.pid = block.pid;
  call.tid = block.tid;
  call.stream = block.stream;
  call.line = block.line;
  GemmCall gemm;
  gemm.m = IntegerOr(block.Value("m"), 0);
  gemm.n = IntegerOr(block.Value("n"), 0);
  gemm.k = IntegerOr(block.Value("k"), 0);
  gemm.transpose_a = Transposed(block.Value("transa"));
  gemm.transpose_b = Transposed(block.Value("transb"));
  gemm.batch_count = IntegerOr(block.Value("batchCount"), 1);
  const DataType typed = TypeOfTypedGemm(block.function);
  gemm.a_type = block.Find("Atype") >= 0 ? ParseDataType(block.Value("Atype")) : typed;
  gemm.b_type = block.Find("Btype") >= 0 ? ParseDataType(block.Value("Btype")) : typed;
  gemm.c_type = block.Find("Ctype") >= 0 ? ParseDataType(block.Value("Ctype")) : typed;
  gemm.compute_type =
      block.Find("computeType") >= 0 ? ParseComputeType(block.Value("computeType")) : ComputeOf(typed);
  call.gemm = gemm;
  return call;
}

class CublasLogParser : public BlockLogParser {
 public:
  CublasLogParser() : BlockLogParser(Library::kCublas) {}

 private:
  void Take(const ApiBlock& block) override {
    if (block.severity == 'I' && IsGemm(block.function)) log_.calls.push_back(ToCall(block));
  }
};

}  // namespace

std::unique_ptr<LogParser> NewCublasLogParser() { return std::make_unique<CublasLogParser>(); }

}  // namespace ampprof::liblogs
