#include "samples/cuda/conv/conv_sample.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include <cudnn.h>

#include "samples/cuda/common/check.h"
#include "samples/cuda/common/device_buffer.h"
#include "samples/cuda/common/flags.h"
#include "samples/cuda/common/grad_scaler.h"
#include "samples/cuda/common/kernels.h"
#include "samples/cuda/common/training_loop.h"
#include "samples/cuda/conv/conv_layer.h"

namespace ampsample {
namespace {

constexpr float kLearningRate = 0.0001f;  // seed 001's

void ParseFlags(ConvSample& sample, int argc, char** argv) {
  Flags flags(sample.summary);
  flags.AddChoice("precision", &sample.precision, {"fp32", "fp16", "bf16"},
                  "fp32, or mixed precision with FP16/BF16 weight and input copies and GradScaler");
  flags.AddChoice("layout", &sample.layout, {"nchw", "nhwc"},
                  "memory format of activations and weights (nhwc = PyTorch's channels_last)");
  flags.AddInt("steps", &sample.steps, 1, "timed training steps");
  flags.AddInt("warmup", &sample.warmup, 0, "untimed steps before them");
  flags.AddInt("batch", &sample.batch, 1, "images per batch");
  flags.AddInt("size", &sample.size, 1, "input height and width");
  flags.AddInt("batches", &sample.batches, 1, "distinct batches the loop cycles through");
  if (sample.network == ConvSample::Network::kSingleConv) {
    flags.AddInt("in-channels", &sample.in_channels, 1, "input channels");
    flags.AddInt("out-channels", &sample.out_channels, 1, "output channels");
    flags.AddInt("kernel", &sample.kernel, 1, "kernel height and width (padding kernel / 2)");
    flags.AddInt("stride", &sample.stride, 1, "stride");
  } else {
    flags.AddInt("channels", &sample.channels, 1, "channels of both convolutions");
    flags.AddInt("groups", &sample.groups, 1, "groups of the first convolution (the second is depthwise)");
  }
  flags.Parse(argc, argv);
}

std::vector<ConvShape> Shapes(const ConvSample& sample) {
  if (sample.network == ConvSample::Network::kSingleConv) {
    return {ConvShape{.batch = sample.batch, .in_channels = sample.in_channels, .out_channels = sample.out_channels,
                      .height = sample.size, .width = sample.size, .kernel = sample.kernel, .stride = sample.stride,
                      .padding = sample.kernel / 2, .groups = 1}};
  }
  const ConvShape grouped{.batch = sample.batch, .in_channels = sample.channels, .out_channels = sample.channels,
                          .height = sample.size, .width = sample.size, .kernel = 3, .stride = 1, .padding = 1,
                          .groups = sample.groups};
  ConvShape depthwise = grouped;
  depthwise.groups = sample.channels;
  return {grouped, depthwise};
}

}  // namespace

int RunConvSample(ConvSample sample, int argc, char** argv) {
  ParseFlags(sample, argc, argv);
  const Precision precision = ParsePrecision(sample.precision);
  const Layout layout = sample.layout == "nhwc" ? Layout::kNhwc : Layout::kNchw;
  RequireGpu();

  cudaStream_t stream = nullptr;
  SAMPLE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudnnHandle_t cudnn = nullptr;
  SAMPLE_CUDNN(cudnnCreate(&cudnn));
  SAMPLE_CUDNN(cudnnSetStream(cudnn, stream));

  const std::vector<ConvShape> shapes = Shapes(sample);
  std::vector<std::unique_ptr<ConvLayer>> layers;
  for (size_t i = 0; i < shapes.size(); ++i) {
    layers.push_back(std::make_unique<ConvLayer>(shapes[i], layout, precision, cudnn, stream, 7 + i));
  }
  const int64_t input_elements = layers.front()->input_elements();
  const int64_t output_elements = layers.back()->output_elements();
  const size_t activation_bytes = ActivationBytes(precision);

  std::vector<DeviceBuffer> inputs, targets;  // FP32, as the seed's torch.randn data
  for (int64_t i = 0; i < sample.batches; ++i) {
    inputs.emplace_back(static_cast<size_t>(input_elements) * sizeof(float));
    targets.emplace_back(static_cast<size_t>(output_elements) * sizeof(float));
    LaunchFillUniform(inputs.back().floats(), input_elements, 1.7320508f, 2000 + 2 * static_cast<uint64_t>(i), stream);
    LaunchFillUniform(targets.back().floats(), output_elements, 1.7320508f, 2001 + 2 * static_cast<uint64_t>(i), stream);
  }
  DeviceBuffer input_copy(IsMixed(precision) ? static_cast<size_t>(input_elements) * activation_bytes : 0);
  std::vector<DeviceBuffer> outputs, output_grads;
  for (const auto& layer : layers) {
    outputs.emplace_back(static_cast<size_t>(layer->output_elements()) * activation_bytes);
    output_grads.emplace_back(static_cast<size_t>(layer->output_elements()) * activation_bytes);
  }
  DeviceBuffer loss(sizeof(float));
  DeviceBuffer scaled_loss(sizeof(float));
  std::optional<GradScaler> scaler;
  if (IsMixed(precision)) scaler.emplace(stream);
  ParamList parameters;
  TensorList gradients;
  for (const auto& layer : layers) {
    parameters.params[parameters.count] = layer->weight();
    parameters.grads[parameters.count] = layer->weight_grad();
    parameters.size[parameters.count++] = layer->weight_elements();
    gradients.data[gradients.count] = layer->weight_grad();
    gradients.size[gradients.count++] = layer->weight_elements();
  }
  int64_t skipped = 0;

  for (size_t i = 0; i < shapes.size(); ++i) {
    const ConvShape& s = shapes[i];
    std::printf("%s: Conv2d(%lld, %lld, kernel %lld, stride %lld, padding %lld, groups %lld, no bias) on %lld x %lld\n",
                ProgramName().c_str(), static_cast<long long>(s.in_channels), static_cast<long long>(s.out_channels),
                static_cast<long long>(s.kernel), static_cast<long long>(s.stride), static_cast<long long>(s.padding),
                static_cast<long long>(s.groups), static_cast<long long>(s.height), static_cast<long long>(s.width));
  }
  std::printf("%s: batch %lld, %s, %s%s\n", ProgramName().c_str(), static_cast<long long>(sample.batch),
              sample.layout == "nhwc" ? "NHWC (channels_last)" : "NCHW", PrecisionName(precision),
              IsMixed(precision) ? " (FP32 master weights, low-precision copies, GradScaler)" : "");

  const LoopOptions options{sample.warmup, sample.steps};
  const StepTimes times = RunTrainingLoop(stream, options, [&](int64_t step) {
    const size_t batch = static_cast<size_t>(step % sample.batches);
    // Forward: autocast casts each weight and the FP32 input to the low-precision type.
    const void* x = inputs[batch].get();
    if (IsMixed(precision)) {
      for (const auto& layer : layers) layer->CastWeight();
      LaunchCastFromFloat(inputs[batch].floats(), input_copy.get(), input_elements, precision, stream);
      x = input_copy.get();
    }
    for (size_t i = 0; i < layers.size(); ++i) {
      layers[i]->Forward(i == 0 ? x : outputs[i - 1].get(), outputs[i].get());
      if (i + 1 < layers.size()) LaunchRelu(outputs[i].get(), layers[i]->output_elements(), precision, stream);
    }
    const void* y = outputs.back().get();
    LaunchMseLoss(y, targets[batch].floats(), output_elements, loss.floats(), precision, stream);
    if (scaler) scaler->ScaleLoss(loss.floats(), scaled_loss.floats());
    LaunchMseLossBackward(y, targets[batch].floats(), output_elements, scaler ? scaler->scale() : nullptr,
                          output_grads.back().get(), precision, stream);
    // Backward: the input needs no gradient, as in PyTorch for a batch of data.
    for (size_t i = layers.size(); i-- > 0;) {
      const void* layer_input = i == 0 ? x : outputs[i - 1].get();
      layers[i]->BackwardFilter(layer_input, output_grads[i].get());
      if (i == 0) break;
      layers[i]->BackwardData(output_grads[i].get(), output_grads[i - 1].get());
      LaunchReluBackward(output_grads[i - 1].get(), outputs[i - 1].get(), layers[i - 1]->output_elements(), precision,
                         stream);
    }
    if (!scaler) {
      LaunchSgd(parameters, kLearningRate, stream);
      return;
    }
    if (scaler->UnscaleAndCheck(gradients)) {
      ++skipped;
    } else {
      LaunchSgd(parameters, kLearningRate, stream);
    }
    scaler->Update();
  });
  PrintStepTimes(times, options);

  float final_loss = 0;
  SAMPLE_CUDA(cudaMemcpyAsync(&final_loss, loss.get(), sizeof(float), cudaMemcpyDeviceToHost, stream));
  SAMPLE_CUDA(cudaStreamSynchronize(stream));
  if (scaler) {
    std::printf("final loss %.6f; loss scale %.0f; %lld of %lld steps skipped for inf/NaN gradients\n", final_loss,
                scaler->ScaleOnHost(), static_cast<long long>(skipped),
                static_cast<long long>(sample.warmup + sample.steps));
  } else {
    std::printf("final loss %.6f\n", final_loss);
  }
  layers.clear();
  SAMPLE_CUDNN(cudnnDestroy(cudnn));
  SAMPLE_CUDA(cudaStreamDestroy(stream));
  return 0;
}

}  // namespace ampsample
