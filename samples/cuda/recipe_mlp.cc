// Seed 002 (PyTorch's AMP recipe): 3 x Linear(4096, 4096) with ReLU, batch 512. Big enough to keep the
// GPU busy with GEMMs whose dimensions are multiples of 8: FP16/BF16 Tensor-Core GEMMs make the step
// 2-3x faster than FP32 on Volta and later. The control sample: mixed precision working as intended.
#include "samples/cuda/mlp/mlp_sample.h"

int main(int argc, char** argv) {
  ampsample::MlpSample sample;
  sample.summary = "recipe_mlp: seed 002, 3 x Linear(4096, 4096) with ReLU at batch 512; mixed precision 2-3x faster";
  sample.shape = {.layers = 3, .features = 4096, .batch = 512, .relu = true};
  sample.steps = 150;
  sample.warmup = 10;
  return ampsample::RunMlpSample(sample, argc, argv);
}
