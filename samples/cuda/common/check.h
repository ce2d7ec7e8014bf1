// Error handling for the samples: every CUDA, cuBLAS and cuDNN call is checked, and a failure prints one
// line naming the program, the call and the library's own message, then exits with status 1. The samples
// are short-lived benchmark programs, so exiting is the whole recovery; nothing is cleaned up by hand.
#pragma once

#include <string>
#include <string_view>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

namespace ampsample {

// The name every message starts with ("tiny_mlp: ..."); set once from argv[0] by Flags::Parse.
void SetProgramName(std::string_view name);
const std::string& ProgramName();

// Prints "<program>: <message>" to stderr and exits with status 1.
[[noreturn]] void Fail(std::string_view message);

void CheckCuda(cudaError_t status, const char* call);
void CheckCublas(cublasStatus_t status, const char* call);
void CheckCudnn(cudnnStatus_t status, const char* call);

// Exits with one line ("no usable CUDA GPU: ...") unless a CUDA device can be used, and makes device 0
// current. Called before anything else touches the GPU, so a machine without one gets a message, not a
// crash in the first allocation.
void RequireGpu();

}  // namespace ampsample

#define SAMPLE_CUDA(call) ::ampsample::CheckCuda((call), #call)
#define SAMPLE_CUBLAS(call) ::ampsample::CheckCublas((call), #call)
#define SAMPLE_CUDNN(call) ::ampsample::CheckCudnn((call), #call)
// After a kernel launch: launch errors (bad configuration, no kernel image for this GPU) surface here.
#define SAMPLE_LAUNCHED(kernel) ::ampsample::CheckCuda(cudaGetLastError(), kernel)
