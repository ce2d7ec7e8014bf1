#include "samples/cuda/mlp/mlp.h"

#include <cmath>
#include <utility>

#include "samples/cuda/common/check.h"
#include "samples/cuda/common/kernels.h"

namespace ampsample {

Mlp::Mlp(const MlpShape& shape, Precision precision, cublasHandle_t cublas, cudaStream_t stream)
    : shape_(shape), precision_(precision), cublas_(cublas), stream_(stream) {
  if (shape_.layers * 2 > kMaxTensorsPerLaunch) {
    Fail("at most " + std::to_string(kMaxTensorsPerLaunch / 2) + " layers (one optimizer launch per step)");
  }
  const int64_t f = shape_.features;
  const size_t activation_bytes = static_cast<size_t>(shape_.batch * f) * ActivationBytes(precision_);
  const float bound = 1.0f / std::sqrt(static_cast<float>(f));  // nn.Linear's default initialisation
  for (int64_t layer = 0; layer < shape_.layers; ++layer) {
    weights_.emplace_back(static_cast<size_t>(f * f) * sizeof(float));
    biases_.emplace_back(static_cast<size_t>(f) * sizeof(float));
    weight_grads_.emplace_back(static_cast<size_t>(f * f) * sizeof(float));
    bias_grads_.emplace_back(static_cast<size_t>(f) * sizeof(float));
    LaunchFillUniform(weights_.back().floats(), f * f, bound, 2 * static_cast<uint64_t>(layer) + 1, stream_);
    LaunchFillUniform(biases_.back().floats(), f, bound, 2 * static_cast<uint64_t>(layer) + 2, stream_);
    if (IsMixed(precision_)) {
      weight_copies_.emplace_back(static_cast<size_t>(f * f) * ActivationBytes(precision_));
      bias_copies_.emplace_back(static_cast<size_t>(f) * ActivationBytes(precision_));
    }
    activations_.emplace_back(activation_bytes);
  }
  if (IsMixed(precision_)) input_copy_ = DeviceBuffer(activation_bytes);
  grad_a_ = DeviceBuffer(activation_bytes);
  grad_b_ = DeviceBuffer(activation_bytes);
}

void Mlp::CastWeights() {
  if (!IsMixed(precision_)) return;
  const int64_t f = shape_.features;
  for (size_t layer = 0; layer < weights_.size(); ++layer) {
    LaunchCastFromFloat(weights_[layer].floats(), weight_copies_[layer].get(), f * f, precision_, stream_);
    LaunchCastFromFloat(biases_[layer].floats(), bias_copies_[layer].get(), f, precision_, stream_);
  }
}

const void* Mlp::WeightForMath(size_t layer) const {
  return IsMixed(precision_) ? weight_copies_[layer].get() : weights_[layer].get();
}

void Mlp::Gemm(cublasOperation_t op_a, cublasOperation_t op_b, int64_t m, int64_t n, int64_t k, const void* a,
               int64_t lda, const void* b, int64_t ldb, void* c, cudaDataType_t c_type, int64_t ldc) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  const cudaDataType_t ab_type = ActivationType(precision_);
  SAMPLE_CUBLAS(cublasGemmEx(cublas_, op_a, op_b, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), &alpha,
                             a, ab_type, static_cast<int>(lda), b, ab_type, static_cast<int>(ldb), &beta, c, c_type,
                             static_cast<int>(ldc), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// cuBLAS is column-major: a row-major [rows x cols] matrix is its column-major transpose, so
// Y = X W^T (row-major) is Y^T = W X^T (column-major) with W read transposed.
void Mlp::Forward(const float* input) {
  const int64_t f = shape_.features;
  const int64_t batch = shape_.batch;
  if (IsMixed(precision_)) {
    LaunchCastFromFloat(input, input_copy_.get(), batch * f, precision_, stream_);
    input_ = input_copy_.get();
  } else {
    input_ = input;
  }
  const void* x = input_;
  for (size_t layer = 0; layer < activations_.size(); ++layer) {
    void* y = activations_[layer].get();
    Gemm(CUBLAS_OP_T, CUBLAS_OP_N, f, batch, f, WeightForMath(layer), f, x, f, y, ActivationType(precision_), f);
    const void* bias = IsMixed(precision_) ? bias_copies_[layer].get() : biases_[layer].get();
    const bool relu = shape_.relu && layer + 1 < activations_.size();
    LaunchBiasActivation(y, bias, batch, f, relu, precision_, stream_);
    x = y;
  }
}

void Mlp::Backward() {
  const int64_t f = shape_.features;
  const int64_t batch = shape_.batch;
  void* dy = grad_a_.get();
  for (size_t layer = activations_.size(); layer-- > 0;) {
    const bool relu = shape_.relu && layer + 1 < activations_.size();
    if (relu) LaunchReluBackward(dy, activations_[layer].get(), batch * f, precision_, stream_);
    const void* x = layer == 0 ? input_ : activations_[layer - 1].get();
    // dW^T = X^T dY (column-major), written in FP32.
    Gemm(CUBLAS_OP_N, CUBLAS_OP_T, f, f, batch, x, f, dy, f, weight_grads_[layer].get(), CUDA_R_32F, f);
    LaunchBiasGrad(dy, bias_grads_[layer].floats(), batch, f, precision_, stream_);
    if (layer == 0) break;  // the input needs no gradient
    // dX^T = W^T dY^T (column-major).
    void* dx = dy == grad_a_.get() ? grad_b_.get() : grad_a_.get();
    Gemm(CUBLAS_OP_N, CUBLAS_OP_N, f, batch, f, WeightForMath(layer), f, dy, f, dx, ActivationType(precision_), f);
    dy = dx;
  }
}

ParamList Mlp::Parameters() {
  ParamList list;
  for (size_t layer = 0; layer < weights_.size(); ++layer) {
    list.params[list.count] = weights_[layer].floats();
    list.grads[list.count] = weight_grads_[layer].floats();
    list.size[list.count++] = shape_.features * shape_.features;
    list.params[list.count] = biases_[layer].floats();
    list.grads[list.count] = bias_grads_[layer].floats();
    list.size[list.count++] = shape_.features;
  }
  return list;
}

TensorList Mlp::Gradients() {
  TensorList list;
  for (size_t layer = 0; layer < weights_.size(); ++layer) {
    list.data[list.count] = weight_grads_[layer].floats();
    list.size[list.count++] = shape_.features * shape_.features;
    list.data[list.count] = bias_grads_[layer].floats();
    list.size[list.count++] = shape_.features;
  }
  return list;
}

}  // namespace ampsample
