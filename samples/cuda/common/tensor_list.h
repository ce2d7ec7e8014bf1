// Lists of FP32 tensors that one kernel launch processes together, as PyTorch's multi-tensor-apply
// (foreach) kernels do: the optimizer update and GradScaler's unscale each cost one launch per list,
// not one per parameter. Passed to kernels by value (a few hundred bytes of kernel parameters).
#pragma once

#include <cstdint>

namespace ampsample {

inline constexpr int kMaxTensorsPerLaunch = 24;

struct TensorList {
  float* data[kMaxTensorsPerLaunch] = {};
  int64_t size[kMaxTensorsPerLaunch] = {};
  int count = 0;
};

// Parameters and their gradients, tensor by tensor.
struct ParamList {
  float* params[kMaxTensorsPerLaunch] = {};
  const float* grads[kMaxTensorsPerLaunch] = {};
  int64_t size[kMaxTensorsPerLaunch] = {};
  int count = 0;
};

}  // namespace ampsample
