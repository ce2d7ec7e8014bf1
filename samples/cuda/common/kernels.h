// The samples' own kernels, everything cuBLAS and cuDNN do not do: initialisation, bias and ReLU, the
// MSE loss, the casts autocast makes, the SGD update and GradScaler's kernels. Each launcher enqueues one
// kernel on `stream` and checks the launch. Pointers typed `void*` hold elements of the activation type
// of `precision` (float, __half or __nv_bfloat16).
//
// Kernel names (what a trace shows) live in namespace ampsample::. Where a kernel implements the same
// algorithm as an ATen CUDA function that ampprof recognises by name, it carries that function's name:
// float16_copy_kernel_cuda / bfloat16_copy_kernel_cuda and float16tofloat32_copy_kernel_cuda /
// bfloat16tofloat32_copy_kernel_cuda (autocast's casts), multi_tensor_apply_kernel<SgdFunctor> (the
// foreach SGD update), _amp_foreach_non_finite_check_and_unscale_kernel and amp_update_scale_kernel
// (GradScaler). samples/README.md says why, and what that does and does not check.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "samples/cuda/common/precision.h"
#include "samples/cuda/common/tensor_list.h"

namespace ampsample {

// Set-up only: uniform values in [-bound, bound) from a counter-based hash (deterministic per seed).
void LaunchFillUniform(float* data, int64_t n, float bound, uint64_t seed, cudaStream_t stream);
// Set-up only: the same in the activation type.
void LaunchFillUniformActivation(void* data, int64_t n, float bound, uint64_t seed, Precision precision,
                                 cudaStream_t stream);

// FP32 -> FP16/BF16 copy (autocast's cast of weights and inputs); `precision` must be mixed.
void LaunchCastFromFloat(const float* source, void* destination, int64_t n, Precision precision, cudaStream_t stream);
// FP16/BF16 -> FP32 copy (the backward of that cast: a weight gradient back to the FP32 master's type).
void LaunchCastToFloat(const void* source, float* destination, int64_t n, Precision precision, cudaStream_t stream);

// y[row][col] += bias[col], then y = max(y, 0) when `relu`: the Linear layer's bias (and the ReLU after
// it) on a row-major [rows x cols] activation.
void LaunchBiasActivation(void* y, const void* bias, int64_t rows, int64_t cols, bool relu, Precision precision,
                          cudaStream_t stream);
// y = max(y, 0) in place: a ReLU with no bias before it (between convolutions).
void LaunchRelu(void* y, int64_t n, Precision precision, cudaStream_t stream);
// dy = 0 where the ReLU's output y was 0 (in place).
void LaunchReluBackward(void* dy, const void* y, int64_t n, Precision precision, cudaStream_t stream);
// dbias[col] = sum over rows of dy[row][col], in FP32.
void LaunchBiasGrad(const void* dy, float* dbias, int64_t rows, int64_t cols, Precision precision, cudaStream_t stream);

// *loss = mean((y - target)^2), computed in FP32 whatever y's type (autocast runs mse_loss in FP32).
void LaunchMseLoss(const void* y, const float* target, int64_t n, float* loss, Precision precision,
                   cudaStream_t stream);
// dy = 2 (y - target) / n * (*scale): the loss gradient, multiplied by the loss scale when `scale` is
// not null (the backward of scaler.scale(loss)).
void LaunchMseLossBackward(const void* y, const float* target, int64_t n, const float* scale, void* dy,
                           Precision precision, cudaStream_t stream);
// *scaled = *loss * *scale: scaler.scale(loss), one element.
void LaunchScaleLoss(const float* loss, const float* scale, float* scaled, cudaStream_t stream);

// params[i] -= lr * grads[i] for every tensor of the list, in one launch (foreach SGD, no momentum).
void LaunchSgd(const ParamList& list, float lr, cudaStream_t stream);

// GradScaler.unscale_: grads *= 1 / *scale in place, *found_inf = 1 if any gradient is inf or NaN.
void LaunchUnscaleAndCheck(const TensorList& grads, float* found_inf, const float* scale, cudaStream_t stream);
// GradScaler.update: back off on inf/NaN, grow after `growth_interval` clean steps (one thread).
void LaunchUpdateScale(float* scale, int* growth_tracker, const float* found_inf, double growth_factor,
                       double backoff_factor, int growth_interval, cudaStream_t stream);

}  // namespace ampsample
