// Seed 000 ("Run slower when using autocast with small batch size"): 5 x Linear(128, 128), batch 20.
// Each kernel runs for a few microseconds, so the GPU waits for the host to launch the next one, and
// mixed precision adds launches (casts, GradScaler) and a host synchronisation per step (found_inf)
// while saving almost nothing: launch-bound, and slower in FP16/BF16 than in FP32.
#include "samples/cuda/mlp/mlp_sample.h"

int main(int argc, char** argv) {
  ampsample::MlpSample sample;
  sample.summary = "tiny_mlp: seed 000, 5 x Linear(128, 128) at batch 20; launch-bound, slower in mixed precision";
  sample.shape = {.layers = 5, .features = 128, .batch = 20, .relu = false};
  sample.steps = 1000;
  sample.warmup = 50;
  return ampsample::RunMlpSample(sample, argc, argv);
}
