#include "samples/cuda/common/kernels.h"

#include <algorithm>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "samples/cuda/common/check.h"

// Kernels are declared in namespace ampsample itself (not an anonymous one) so that traces show short
// names such as "ampsample::amp_update_scale_kernel(float*, int*, float const*, double, double, int)".
namespace ampsample {

constexpr int kThreads = 256;

inline unsigned BlocksFor(int64_t n) {
  // Grid-stride loops: enough blocks to fill any current GPU, never more than the work needs.
  return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((n + kThreads - 1) / kThreads, 8192)));
}

__device__ inline float ToFloat(float v) { return v; }
__device__ inline float ToFloat(__half v) { return __half2float(v); }
__device__ inline float ToFloat(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ inline T FromFloat(float v);
template <>
__device__ inline float FromFloat<float>(float v) { return v; }
template <>
__device__ inline __half FromFloat<__half>(float v) { return __float2half(v); }
template <>
__device__ inline __nv_bfloat16 FromFloat<__nv_bfloat16>(float v) { return __float2bfloat16(v); }

__device__ inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <typename T>
struct TypeTag {
  using type = T;
};

// Runs `launch(TypeTag<T>{})` with T the activation type of `precision`.
template <typename Launch>
void WithActivationType(Precision precision, Launch&& launch) {
  switch (precision) {
    case Precision::kFp32: launch(TypeTag<float>{}); break;
    case Precision::kFp16: launch(TypeTag<__half>{}); break;
    case Precision::kBf16: launch(TypeTag<__nv_bfloat16>{}); break;
  }
}

// ---- Set-up ----

template <typename T>
__global__ void fill_uniform_kernel(T* data, int64_t n, float bound, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    const float unit = static_cast<float>(SplitMix64(seed * 0x100000001B3ull + static_cast<uint64_t>(i)) >> 40) *
                       (1.0f / 16777216.0f);
    data[i] = FromFloat<T>((2.0f * unit - 1.0f) * bound);
  }
}

void LaunchFillUniform(float* data, int64_t n, float bound, uint64_t seed, cudaStream_t stream) {
  fill_uniform_kernel<<<BlocksFor(n), kThreads, 0, stream>>>(data, n, bound, seed);
  SAMPLE_LAUNCHED("fill_uniform_kernel");
}

void LaunchFillUniformActivation(void* data, int64_t n, float bound, uint64_t seed, Precision precision,
                                 cudaStream_t stream) {
  WithActivationType(precision, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_uniform_kernel<<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<T*>(data), n, bound, seed);
  });
  SAMPLE_LAUNCHED("fill_uniform_kernel");
}

// ---- Casts: the names of ATen's autocast copy kernels ----

__global__ void float16_copy_kernel_cuda(const float* source, __half* destination, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    destination[i] = __float2half(source[i]);
  }
}

__global__ void bfloat16_copy_kernel_cuda(const float* source, __nv_bfloat16* destination, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    destination[i] = __float2bfloat16(source[i]);
  }
}

__global__ void float16tofloat32_copy_kernel_cuda(const __half* source, float* destination, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    destination[i] = __half2float(source[i]);
  }
}

__global__ void bfloat16tofloat32_copy_kernel_cuda(const __nv_bfloat16* source, float* destination, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    destination[i] = __bfloat162float(source[i]);
  }
}

void LaunchCastFromFloat(const float* source, void* destination, int64_t n, Precision precision, cudaStream_t stream) {
  if (precision == Precision::kFp16) {
    float16_copy_kernel_cuda<<<BlocksFor(n), kThreads, 0, stream>>>(source, static_cast<__half*>(destination), n);
  } else if (precision == Precision::kBf16) {
    bfloat16_copy_kernel_cuda<<<BlocksFor(n), kThreads, 0, stream>>>(source, static_cast<__nv_bfloat16*>(destination), n);
  } else {
    Fail("LaunchCastFromFloat: an FP32 run has nothing to cast");
  }
  SAMPLE_LAUNCHED("float16/bfloat16_copy_kernel_cuda");
}

void LaunchCastToFloat(const void* source, float* destination, int64_t n, Precision precision, cudaStream_t stream) {
  if (precision == Precision::kFp16) {
    float16tofloat32_copy_kernel_cuda<<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<const __half*>(source),
                                                                             destination, n);
  } else if (precision == Precision::kBf16) {
    bfloat16tofloat32_copy_kernel_cuda<<<BlocksFor(n), kThreads, 0, stream>>>(
        static_cast<const __nv_bfloat16*>(source), destination, n);
  } else {
    Fail("LaunchCastToFloat: an FP32 run has nothing to cast");
  }
  SAMPLE_LAUNCHED("float16/bfloat16tofloat32_copy_kernel_cuda");
}

// ---- Layers ----

template <typename T>
__global__ void bias_activation_kernel(T* y, const T* bias, int64_t rows, int64_t cols, bool relu) {
  const int64_t n = rows * cols;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    float v = ToFloat(y[i]) + ToFloat(bias[i % cols]);
    if (relu) v = fmaxf(v, 0.0f);
    y[i] = FromFloat<T>(v);
  }
}

void LaunchBiasActivation(void* y, const void* bias, int64_t rows, int64_t cols, bool relu, Precision precision,
                          cudaStream_t stream) {
  WithActivationType(precision, [&](auto tag) {
    using T = typename decltype(tag)::type;
    bias_activation_kernel<<<BlocksFor(rows * cols), kThreads, 0, stream>>>(static_cast<T*>(y),
                                                                            static_cast<const T*>(bias), rows, cols, relu);
  });
  SAMPLE_LAUNCHED("bias_activation_kernel");
}

template <typename T>
__global__ void relu_kernel(T* y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    y[i] = FromFloat<T>(fmaxf(ToFloat(y[i]), 0.0f));
  }
}

void LaunchRelu(void* y, int64_t n, Precision precision, cudaStream_t stream) {
  WithActivationType(precision, [&](auto tag) {
    using T = typename decltype(tag)::type;
    relu_kernel<<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<T*>(y), n);
  });
  SAMPLE_LAUNCHED("relu_kernel");
}

template <typename T>
__global__ void relu_backward_kernel(T* dy, const T* y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    if (!(ToFloat(y[i]) > 0.0f)) dy[i] = FromFloat<T>(0.0f);
  }
}

void LaunchReluBackward(void* dy, const void* y, int64_t n, Precision precision, cudaStream_t stream) {
  WithActivationType(precision, [&](auto tag) {
    using T = typename decltype(tag)::type;
    relu_backward_kernel<<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<T*>(dy), static_cast<const T*>(y), n);
  });
  SAMPLE_LAUNCHED("relu_backward_kernel");
}

// One thread per column: consecutive threads read consecutive addresses of each row.
template <typename T>
__global__ void bias_grad_kernel(const T* dy, float* dbias, int64_t rows, int64_t cols) {
  for (int64_t col = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; col < cols; col += int64_t{gridDim.x} * blockDim.x) {
    float sum = 0.0f;
    for (int64_t row = 0; row < rows; ++row) sum += ToFloat(dy[row * cols + col]);
    dbias[col] = sum;
  }
}

void LaunchBiasGrad(const void* dy, float* dbias, int64_t rows, int64_t cols, Precision precision, cudaStream_t stream) {
  WithActivationType(precision, [&](auto tag) {
    using T = typename decltype(tag)::type;
    bias_grad_kernel<<<BlocksFor(cols), kThreads, 0, stream>>>(static_cast<const T*>(dy), dbias, rows, cols);
  });
  SAMPLE_LAUNCHED("bias_grad_kernel");
}

// ---- Loss ----

template <typename T>
__global__ void mse_loss_kernel(const T* y, const float* target, int64_t n, float* loss) {
  __shared__ float partial[kThreads / 32];
  float sum = 0.0f;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    const float diff = ToFloat(y[i]) - target[i];
    sum += diff * diff;
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float block = 0.0f;
    for (int w = 0; w < kThreads / 32; ++w) block += partial[w];
    atomicAdd(loss, block / static_cast<float>(n));
  }
}

void LaunchMseLoss(const void* y, const float* target, int64_t n, float* loss, Precision precision,
                   cudaStream_t stream) {
  SAMPLE_CUDA(cudaMemsetAsync(loss, 0, sizeof(float), stream));
  WithActivationType(precision, [&](auto tag) {
    using T = typename decltype(tag)::type;
    mse_loss_kernel<<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<const T*>(y), target, n, loss);
  });
  SAMPLE_LAUNCHED("mse_loss_kernel");
}

template <typename T>
__global__ void mse_loss_backward_kernel(const T* y, const float* target, int64_t n, const float* scale, T* dy) {
  const float factor = 2.0f / static_cast<float>(n) * (scale != nullptr ? *scale : 1.0f);
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{gridDim.x} * blockDim.x) {
    dy[i] = FromFloat<T>((ToFloat(y[i]) - target[i]) * factor);
  }
}

void LaunchMseLossBackward(const void* y, const float* target, int64_t n, const float* scale, void* dy,
                           Precision precision, cudaStream_t stream) {
  WithActivationType(precision, [&](auto tag) {
    using T = typename decltype(tag)::type;
    mse_loss_backward_kernel<<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<const T*>(y), target, n, scale,
                                                                    static_cast<T*>(dy));
  });
  SAMPLE_LAUNCHED("mse_loss_backward_kernel");
}

__global__ void scale_loss_kernel(const float* loss, const float* scale, float* scaled) { *scaled = *loss * *scale; }

void LaunchScaleLoss(const float* loss, const float* scale, float* scaled, cudaStream_t stream) {
  scale_loss_kernel<<<1, 1, 0, stream>>>(loss, scale, scaled);
  SAMPLE_LAUNCHED("scale_loss_kernel");
}

// ---- Optimizer: a multi-tensor-apply kernel, blockIdx.y picks the tensor ----

struct SgdFunctor {
  float lr;
  __device__ void operator()(float& param, float grad) const { param -= lr * grad; }
};

template <typename Functor>
__global__ void multi_tensor_apply_kernel(ParamList list, Functor functor) {
  const int tensor = static_cast<int>(blockIdx.y);
  float* params = list.params[tensor];
  const float* grads = list.grads[tensor];
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < list.size[tensor];
       i += int64_t{gridDim.x} * blockDim.x) {
    functor(params[i], grads[i]);
  }
}

void LaunchSgd(const ParamList& list, float lr, cudaStream_t stream) {
  int64_t largest = 0;
  for (int i = 0; i < list.count; ++i) largest = std::max(largest, list.size[i]);
  const dim3 grid(std::min(BlocksFor(largest), 1024u), static_cast<unsigned>(list.count));
  multi_tensor_apply_kernel<<<grid, kThreads, 0, stream>>>(list, SgdFunctor{lr});
  SAMPLE_LAUNCHED("multi_tensor_apply_kernel<SgdFunctor>");
}

// ---- GradScaler: the algorithms of ATen's AmpKernels.cu ----

// Checks the scaled gradient for inf/NaN before unscaling it, as ATen does.
__global__ void _amp_foreach_non_finite_check_and_unscale_kernel(TensorList grads, float* found_inf, const float* scale) {
  const float inv_scale = 1.0f / *scale;
  const int tensor = static_cast<int>(blockIdx.y);
  float* grad = grads.data[tensor];
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < grads.size[tensor];
       i += int64_t{gridDim.x} * blockDim.x) {
    const float value = grad[i];
    if (!isfinite(value)) *found_inf = 1.0f;
    grad[i] = inv_scale == 1.0f ? value : value * inv_scale;
  }
}

void LaunchUnscaleAndCheck(const TensorList& grads, float* found_inf, const float* scale, cudaStream_t stream) {
  int64_t largest = 0;
  for (int i = 0; i < grads.count; ++i) largest = std::max(largest, grads.size[i]);
  const dim3 grid(std::min(BlocksFor(largest), 1024u), static_cast<unsigned>(grads.count));
  _amp_foreach_non_finite_check_and_unscale_kernel<<<grid, kThreads, 0, stream>>>(grads, found_inf, scale);
  SAMPLE_LAUNCHED("_amp_foreach_non_finite_check_and_unscale_kernel");
}

__global__ void amp_update_scale_kernel(float* scale, int* growth_tracker, const float* found_inf, double growth_factor,
                                        double backoff_factor, int growth_interval) {
  if (*found_inf != 0.0f) {
    *scale = static_cast<float>(*scale * backoff_factor);
    *growth_tracker = 0;
    return;
  }
  const int successful = *growth_tracker + 1;
  if (successful == growth_interval) {
    const float grown = static_cast<float>(*scale * growth_factor);
    if (isfinite(grown)) *scale = grown;
    *growth_tracker = 0;
  } else {
    *growth_tracker = successful;
  }
}

void LaunchUpdateScale(float* scale, int* growth_tracker, const float* found_inf, double growth_factor,
                       double backoff_factor, int growth_interval, cudaStream_t stream) {
  amp_update_scale_kernel<<<1, 1, 0, stream>>>(scale, growth_tracker, found_inf, growth_factor, backoff_factor,
                                               growth_interval);
  SAMPLE_LAUNCHED("amp_update_scale_kernel");
}

}  // namespace ampsample
