#include "samples/cuda/common/precision.h"

#include "samples/cuda/common/check.h"

namespace ampsample {

Precision ParsePrecision(const std::string& name) {
  if (name == "fp32") return Precision::kFp32;
  if (name == "fp16") return Precision::kFp16;
  if (name == "bf16") return Precision::kBf16;
  Fail("unknown precision '" + name + "'");
}

const char* PrecisionName(Precision precision) {
  switch (precision) {
    case Precision::kFp32: return "fp32";
    case Precision::kFp16: return "fp16";
    case Precision::kBf16: return "bf16";
  }
  return "unknown";
}

cudaDataType_t ActivationType(Precision precision) {
  switch (precision) {
    case Precision::kFp32: return CUDA_R_32F;
    case Precision::kFp16: return CUDA_R_16F;
    case Precision::kBf16: return CUDA_R_16BF;
  }
  return CUDA_R_32F;
}

cudnnDataType_t CudnnActivationType(Precision precision) {
  switch (precision) {
    case Precision::kFp32: return CUDNN_DATA_FLOAT;
    case Precision::kFp16: return CUDNN_DATA_HALF;
    case Precision::kBf16: return CUDNN_DATA_BFLOAT16;
  }
  return CUDNN_DATA_FLOAT;
}

size_t ActivationBytes(Precision precision) { return precision == Precision::kFp32 ? 4 : 2; }

}  // namespace ampsample
