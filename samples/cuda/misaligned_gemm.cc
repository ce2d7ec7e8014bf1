// The recipe's "try 513" exercise taken further: batch 513 and 4100 features (a multiple of 4 but not
// of 8). FP16/BF16 rows of 4100 elements start 8-byte aligned, not 16, so cuBLAS cannot use its
// 16-byte-aligned Tensor-Core kernels: it picks narrower-aligned variants or CUDA-core ones.
#include "samples/cuda/mlp/mlp_sample.h"

int main(int argc, char** argv) {
  ampsample::MlpSample sample;
  sample.summary =
      "misaligned_gemm: 3 x Linear(4100, 4100) with ReLU at batch 513; GEMM dimensions not multiples of 8";
  sample.shape = {.layers = 3, .features = 4100, .batch = 513, .relu = true};
  sample.steps = 100;
  sample.warmup = 10;
  return ampsample::RunMlpSample(sample, argc, argv);
}
