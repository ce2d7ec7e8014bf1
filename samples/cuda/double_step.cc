// Seed 003 ("The performance gap between torch.cuda.amp and nvidia-apex"): the training step calls
// optimizer.step() again after scaler.step(optimizer) and scaler.update(), so the weights are updated
// twice per step (the accuracy loss in the thread) and the optimizer's GPU time doubles.
#include "samples/cuda/mlp/mlp_sample.h"

int main(int argc, char** argv) {
  ampsample::MlpSample sample;
  sample.summary = "double_step: seed 003, the optimizer update applied twice per training step";
  sample.shape = {.layers = 3, .features = 1024, .batch = 256, .relu = true};
  sample.steps = 100;
  sample.warmup = 10;
  sample.optimizer_updates = 2;
  return ampsample::RunMlpSample(sample, argc, argv);
}
