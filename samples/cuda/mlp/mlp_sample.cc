#include "samples/cuda/mlp/mlp_sample.h"

#include <cstdio>
#include <optional>
#include <vector>

#include <cublas_v2.h>

#include "samples/cuda/common/check.h"
#include "samples/cuda/common/flags.h"
#include "samples/cuda/common/grad_scaler.h"
#include "samples/cuda/common/kernels.h"
#include "samples/cuda/common/training_loop.h"

namespace ampsample {
namespace {

constexpr float kLearningRate = 0.001f;

void ParseFlags(MlpSample& sample, int argc, char** argv) {
  Flags flags(sample.summary);
  flags.AddChoice("precision", &sample.precision, {"fp32", "fp16", "bf16"},
                  "fp32, or mixed precision with FP16/BF16 weight copies and GradScaler");
  flags.AddInt("steps", &sample.steps, 1, "timed training steps");
  flags.AddInt("warmup", &sample.warmup, 0, "untimed steps before them");
  flags.AddInt("batch", &sample.shape.batch, 1, "rows per batch");
  flags.AddInt("layers", &sample.shape.layers, 1, "Linear layers");
  flags.AddInt("features", &sample.shape.features, 1, "in and out features of every Linear layer");
  flags.AddInt("batches", &sample.batches, 1, "distinct batches the loop cycles through");
  flags.Parse(argc, argv);
}

}  // namespace

int RunMlpSample(MlpSample sample, int argc, char** argv) {
  ParseFlags(sample, argc, argv);
  const Precision precision = ParsePrecision(sample.precision);
  RequireGpu();

  cudaStream_t stream = nullptr;
  SAMPLE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasHandle_t cublas = nullptr;
  SAMPLE_CUBLAS(cublasCreate(&cublas));
  SAMPLE_CUBLAS(cublasSetStream(cublas, stream));

  const MlpShape& shape = sample.shape;
  Mlp model(shape, precision, cublas, stream);
  const int64_t elements = model.activation_elements();
  std::vector<DeviceBuffer> inputs, targets;
  for (int64_t i = 0; i < sample.batches; ++i) {
    inputs.emplace_back(static_cast<size_t>(elements) * sizeof(float));
    targets.emplace_back(static_cast<size_t>(elements) * sizeof(float));
    // Uniform in [-sqrt(3), sqrt(3)): unit variance, like torch.randn's data in the seeds.
    LaunchFillUniform(inputs.back().floats(), elements, 1.7320508f, 1000 + 2 * static_cast<uint64_t>(i), stream);
    LaunchFillUniform(targets.back().floats(), elements, 1.7320508f, 1001 + 2 * static_cast<uint64_t>(i), stream);
  }
  DeviceBuffer loss(sizeof(float));
  DeviceBuffer scaled_loss(sizeof(float));
  std::optional<GradScaler> scaler;
  if (IsMixed(precision)) scaler.emplace(stream);
  const ParamList parameters = model.Parameters();
  const TensorList gradients = model.Gradients();
  int64_t skipped = 0;

  std::printf("%s: %lld x Linear(%lld, %lld)%s, batch %lld, %s%s\n", ProgramName().c_str(),
              static_cast<long long>(shape.layers), static_cast<long long>(shape.features),
              static_cast<long long>(shape.features), shape.relu ? " with ReLU" : "", static_cast<long long>(shape.batch),
              PrecisionName(precision),
              IsMixed(precision) ? " (FP32 master weights, low-precision copies, GradScaler)" : "");
  if (sample.optimizer_updates > 1) {
    std::printf("%s: the optimizer update runs %d times per step (the bug this sample reproduces)\n",
                ProgramName().c_str(), sample.optimizer_updates);
  }

  const LoopOptions options{sample.warmup, sample.steps};
  const StepTimes times = RunTrainingLoop(stream, options, [&](int64_t step) {
    const size_t batch = static_cast<size_t>(step % sample.batches);
    model.CastWeights();
    model.Forward(inputs[batch].floats());
    LaunchMseLoss(model.output(), targets[batch].floats(), elements, loss.floats(), precision, stream);
    if (!IsMixed(precision)) {
      LaunchMseLossBackward(model.output(), targets[batch].floats(), elements, nullptr, model.output_grad(), precision,
                            stream);
      model.Backward();
      for (int update = 0; update < sample.optimizer_updates; ++update) LaunchSgd(parameters, kLearningRate, stream);
      return;
    }
    scaler->ScaleLoss(loss.floats(), scaled_loss.floats());
    LaunchMseLossBackward(model.output(), targets[batch].floats(), elements, scaler->scale(), model.output_grad(),
                          precision, stream);
    model.Backward();
    if (scaler->UnscaleAndCheck(gradients)) {
      ++skipped;
    } else {
      LaunchSgd(parameters, kLearningRate, stream);
    }
    scaler->Update();
    // Seed 003: optimizer.step() again after scaler.step(optimizer) and scaler.update().
    for (int update = 1; update < sample.optimizer_updates; ++update) LaunchSgd(parameters, kLearningRate, stream);
  });
  PrintStepTimes(times, options);

  float final_loss = 0;
  SAMPLE_CUDA(cudaMemcpyAsync(&final_loss, loss.get(), sizeof(float), cudaMemcpyDeviceToHost, stream));
  SAMPLE_CUDA(cudaStreamSynchronize(stream));
  if (IsMixed(precision)) {
    std::printf("final loss %.6f; loss scale %.0f; %lld of %lld steps skipped for inf/NaN gradients\n", final_loss,
                scaler->ScaleOnHost(), static_cast<long long>(skipped),
                static_cast<long long>(sample.warmup + sample.steps));
  } else {
    std::printf("final loss %.6f\n", final_loss);
  }
  SAMPLE_CUBLAS(cublasDestroy(cublas));
  SAMPLE_CUDA(cudaStreamDestroy(stream));
  return 0;
}

}  // namespace ampsample
