// Seed 001's other answer ("grouped convolutions might not trigger the FP16 path and thus might not use
// TensorCores"): Conv2d(256, 256, 3, groups=4) -> ReLU -> depthwise Conv2d(256, 256, 3, groups=256) on
// 32 x 256 x 56 x 56. Under FP16/BF16 cuDNN may run grouped and depthwise convolutions with direct
// kernels on CUDA cores, where mixed precision gains little.
#include "samples/cuda/conv/conv_sample.h"

int main(int argc, char** argv) {
  ampsample::ConvSample sample;
  sample.summary =
      "grouped_conv: Conv2d(256, 256, 3, groups=4) -> ReLU -> depthwise Conv2d(256, 256, 3) at batch 32, 56 x 56";
  sample.network = ampsample::ConvSample::Network::kGroupedStack;
  sample.batch = 32;
  sample.size = 56;
  return ampsample::RunConvSample(sample, argc, argv);
}
