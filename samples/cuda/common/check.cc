#include "samples/cuda/common/check.h"

#include <cstdio>
#include <cstdlib>

namespace ampsample {
namespace {

std::string& MutableProgramName() {
  static std::string name = "sample";
  return name;
}

}  // namespace

void SetProgramName(std::string_view name) {
  const size_t slash = name.rfind('/');
  MutableProgramName() = std::string(slash == std::string_view::npos ? name : name.substr(slash + 1));
}

const std::string& ProgramName() { return MutableProgramName(); }

void Fail(std::string_view message) {
  std::fprintf(stderr, "%s: %.*s\n", ProgramName().c_str(), static_cast<int>(message.size()), message.data());
  std::exit(1);
}

void CheckCuda(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  Fail(std::string(call) + " failed: " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

void CheckCublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  Fail(std::string(call) + " failed: " + cublasGetStatusName(status) + ": " + cublasGetStatusString(status));
}

void CheckCudnn(cudnnStatus_t status, const char* call) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  Fail(std::string(call) + " failed: " + cudnnGetErrorString(status));
}

void RequireGpu() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) {
    Fail(std::string("no usable CUDA GPU: ") + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")");
  }
  if (devices == 0) Fail("no usable CUDA GPU: the CUDA driver reports no devices");
  SAMPLE_CUDA(cudaSetDevice(0));
}

}  // namespace ampsample
