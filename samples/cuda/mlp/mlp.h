// A stack of Linear layers (optionally with ReLU between them) trained with MSE loss, as in seeds 000,
// 002 and 003: row-major activations [batch x features] and weights [out x in] as PyTorch stores them,
// every matrix product a cublasGemmEx call shaped as PyTorch's own Linear forward and backward make it:
//   forward   Y  = X W^T      backward   dX = dY W,   dW = dY^T X,   db = column sums of dY
// In FP32 the GEMMs read and write FP32 (CUBLAS_COMPUTE_32F, default math: no TF32, as PyTorch's
// default). In FP16/BF16 the FP32 master weights and biases are copied to the low-precision type every
// step (autocast casts each parameter once per forward), activations and their gradients are FP16/BF16,
// GEMMs accumulate in FP32, and weight gradients are written in FP32 directly (C type 32F), ready for
// the unscale and the FP32 optimizer update.
#pragma once

#include <cstdint>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "samples/cuda/common/device_buffer.h"
#include "samples/cuda/common/precision.h"
#include "samples/cuda/common/tensor_list.h"

namespace ampsample {

struct MlpShape {
  int64_t layers = 3;
  int64_t features = 4096;  // every layer is Linear(features, features)
  int64_t batch = 512;
  bool relu = true;         // ReLU after every layer but the last
};

class Mlp {
 public:
  Mlp(const MlpShape& shape, Precision precision, cublasHandle_t cublas, cudaStream_t stream);

  // Copies the FP32 master weights to the low-precision type (mixed precision only).
  void CastWeights();
  // Runs the layers on `input` [batch x features] (FP32; cast first in mixed precision).
  void Forward(const float* input);
  const void* output() const { return activations_.back().get(); }
  // Where the loss gradient goes (activation type, [batch x features]) before Backward.
  void* output_grad() { return grad_a_.get(); }
  // Back-propagates output_grad(), writing the FP32 parameter gradients. Uses the activations of the
  // last Forward.
  void Backward();

  ParamList Parameters();
  TensorList Gradients();
  int64_t activation_elements() const { return shape_.batch * shape_.features; }

 private:
  void Gemm(cublasOperation_t op_a, cublasOperation_t op_b, int64_t m, int64_t n, int64_t k, const void* a,
            int64_t lda, const void* b, int64_t ldb, void* c, cudaDataType_t c_type, int64_t ldc);
  const void* WeightForMath(size_t layer) const;

  MlpShape shape_;
  Precision precision_;
  cublasHandle_t cublas_;
  cudaStream_t stream_;
  std::vector<DeviceBuffer> weights_, biases_;              // FP32 masters
  std::vector<DeviceBuffer> weight_copies_, bias_copies_;   // low precision, mixed precision only
  std::vector<DeviceBuffer> weight_grads_, bias_grads_;     // FP32
  DeviceBuffer input_copy_;                                 // the input in the activation type
  const void* input_ = nullptr;                             // what the first layer read
  std::vector<DeviceBuffer> activations_;                   // each layer's output
  DeviceBuffer grad_a_, grad_b_;                            // activation gradients, ping-pong
};

}  // namespace ampsample
