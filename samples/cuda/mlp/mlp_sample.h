// The command line and training loop shared by the MLP samples (tiny_mlp, recipe_mlp, misaligned_gemm,
// double_step): each main fills in its defaults (the seed's sizes) and what it reproduces.
#pragma once

#include <cstdint>
#include <string>

#include "samples/cuda/mlp/mlp.h"

namespace ampsample {

struct MlpSample {
  std::string summary;        // first line of --help
  MlpShape shape;
  int64_t steps = 100;
  int64_t warmup = 10;
  int64_t batches = 8;        // distinct input/target batches the loop cycles through
  std::string precision = "fp16";
  // Optimizer updates per training step: 2 reproduces seed 003's bug (optimizer.step() called again
  // after scaler.step(optimizer) and scaler.update()).
  int optimizer_updates = 1;
};

// Parses --precision, --steps, --warmup, --batch, --layers, --features, --batches over the defaults in
// `sample`, trains, prints the configuration, the step time and the final loss; returns the exit status.
int RunMlpSample(MlpSample sample, int argc, char** argv);

}  // namespace ampsample
