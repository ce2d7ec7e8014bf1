// Seed 001 ("when the model is just 1 conv layer, mixed precision training is slower"): Conv2d(3, 64,
// kernel 3, stride 2, padding 1, no bias) on 64 x 3 x 224 x 224. In NCHW, cuDNN's FP16 Tensor-Core
// kernels want NHWC, so it wraps them in nchwToNhwc / nhwcToNchw conversions that cost more than FP16
// saves; --layout nhwc (channels_last) gives cuDNN its own layout and the conversions go away.
#include "samples/cuda/conv/conv_sample.h"

int main(int argc, char** argv) {
  ampsample::ConvSample sample;
  sample.summary =
      "conv_layout: seed 001, Conv2d(3, 64, 3, stride 2) at batch 64, 224 x 224; NCHW<->NHWC conversions in FP16 "
      "NCHW, none in NHWC";
  sample.network = ampsample::ConvSample::Network::kSingleConv;
  return ampsample::RunConvSample(sample, argc, argv);
}
