// Loss scaling as torch.cuda.amp.GradScaler does it with its defaults (init_scale 2^16, growth 2,
// backoff 0.5, growth_interval 2000), kernel for kernel and with the same host synchronisation:
//
//   scaler.scale(loss)        ScaleLoss: one-element multiply; the loss gradient is scaled too
//   scaler.step(optimizer)    UnscaleAndCheck: found_inf = 0 (memset), one unscale + inf/NaN check
//                             launch over all gradients, then found_inf copied to pinned host memory
//                             (4 bytes, device to host) and cudaStreamSynchronize: found_inf.item();
//                             the caller runs the optimizer only when it returns false
//   scaler.update()           Update: amp_update_scale_kernel<<<1, 1>>>
//
// The synchronisation is the pattern's cost: every step the host waits for the GPU to drain before it
// can decide whether to step, and the GPU then waits for the host to launch the next step.
#pragma once

#include <cuda_runtime.h>

#include "samples/cuda/common/device_buffer.h"
#include "samples/cuda/common/tensor_list.h"

namespace ampsample {

class GradScaler {
 public:
  explicit GradScaler(cudaStream_t stream);
  GradScaler(const GradScaler&) = delete;
  GradScaler& operator=(const GradScaler&) = delete;
  ~GradScaler();

  // The current scale, on the device: the loss-gradient kernel multiplies by it.
  const float* scale() const { return scale_.floats(); }

  void ScaleLoss(const float* loss, float* scaled_loss) const;
  // Unscales `grads` in place and reads found_inf on the host; true when the step must be skipped.
  bool UnscaleAndCheck(const TensorList& grads);
  void Update();

  float ScaleOnHost() const;  // for the summary line; synchronises

 private:
  cudaStream_t stream_;
  DeviceBuffer scale_;
  DeviceBuffer growth_tracker_;
  DeviceBuffer found_inf_;
  float* found_inf_host_ = nullptr;  // pinned, as recent PyTorch's .item() copies into
};

}  // namespace ampsample
