// The command line and training loop shared by the convolution samples: a stack of convolutions with a
// ReLU between consecutive ones, MSE loss against a random target, SGD, and in mixed precision the
// autocast casts (weights and the FP32 input every step) and GradScaler.
#pragma once

#include <cstdint>
#include <string>

namespace ampsample {

struct ConvSample {
  enum class Network {
    kSingleConv,    // conv_layout: Conv2d(in, out, kernel, stride, padding = kernel / 2), seed 001
    kGroupedStack,  // grouped_conv: Conv2d(c, c, 3, groups) -> ReLU -> depthwise Conv2d(c, c, 3, groups = c)
  };
  std::string summary;  // first line of --help
  Network network = Network::kSingleConv;
  std::string precision = "fp16";
  std::string layout = "nchw";
  int64_t steps = 100;
  int64_t warmup = 10;
  int64_t batches = 2;  // distinct input/target batches the loop cycles through
  int64_t batch = 64;
  int64_t size = 224;   // input height and width
  // kSingleConv
  int64_t in_channels = 3;
  int64_t out_channels = 64;
  int64_t kernel = 3;
  int64_t stride = 2;
  // kGroupedStack
  int64_t channels = 256;
  int64_t groups = 4;
};

// Parses the flags over the defaults in `sample`, trains, prints the configuration, the step time and
// the final loss; returns the exit status.
int RunConvSample(ConvSample sample, int argc, char** argv);

}  // namespace ampsample
