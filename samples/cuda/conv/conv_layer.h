// One 2-D convolution (no bias) through cuDNN's convolution API, in NCHW or NHWC, with its forward,
// backward-data and backward-filter passes. Algorithms are chosen once at set-up by cudnnFind*
// (timing every candidate, as torch.backends.cudnn.benchmark = True does), so no step autotunes.
//
// Math: FP16/BF16 tensors with FP32 accumulation and Tensor-Core math allowed (what PyTorch asks of
// cuDNN under autocast); FP32 with cuDNN's default math, which allows TF32 on Ampere and later (PyTorch's
// default, torch.backends.cudnn.allow_tf32 = True). Whatever cuDNN then runs, layout conversions
// included, is cuDNN's choice: reproducing that choice is the point of the conv samples.
#pragma once

#include <cstdint>

#include <cudnn.h>

#include "samples/cuda/common/device_buffer.h"
#include "samples/cuda/common/precision.h"

namespace ampsample {

enum class Layout { kNchw, kNhwc };

struct ConvShape {
  int64_t batch = 64;
  int64_t in_channels = 3;
  int64_t out_channels = 64;
  int64_t height = 224;
  int64_t width = 224;
  int64_t kernel = 3;
  int64_t stride = 1;
  int64_t padding = 1;
  int64_t groups = 1;
};

class ConvLayer {
 public:
  ConvLayer(const ConvShape& shape, Layout layout, Precision precision, cudnnHandle_t cudnn, cudaStream_t stream,
            uint64_t seed);
  ConvLayer(const ConvLayer&) = delete;
  ConvLayer& operator=(const ConvLayer&) = delete;
  ~ConvLayer();

  int64_t input_elements() const;
  int64_t output_elements() const;
  int64_t output_height() const { return out_height_; }
  int64_t output_width() const { return out_width_; }

  // Mixed precision: copies the FP32 master weight to the low-precision type the convolution reads.
  void CastWeight();
  void Forward(const void* x, void* y);
  // The FP32 weight gradient (in mixed precision cuDNN writes the low-precision one, then a cast).
  void BackwardFilter(const void* x, const void* dy);
  void BackwardData(const void* dy, void* dx);

  float* weight() const { return weight_.floats(); }
  float* weight_grad() const { return weight_grad_.floats(); }
  int64_t weight_elements() const;

 private:
  void ChooseAlgorithms();
  const void* WeightForMath() const { return IsMixed(precision_) ? weight_copy_.get() : weight_.get(); }

  ConvShape shape_;
  Precision precision_;
  cudnnHandle_t cudnn_;
  cudaStream_t stream_;
  int64_t out_height_ = 0;
  int64_t out_width_ = 0;
  cudnnTensorDescriptor_t x_desc_ = nullptr;
  cudnnTensorDescriptor_t y_desc_ = nullptr;
  cudnnFilterDescriptor_t w_desc_ = nullptr;
  cudnnConvolutionDescriptor_t conv_desc_ = nullptr;
  cudnnConvolutionFwdAlgoPerf_t forward_{};
  cudnnConvolutionBwdDataAlgoPerf_t backward_data_{};
  cudnnConvolutionBwdFilterAlgoPerf_t backward_filter_{};
  DeviceBuffer weight_;            // FP32 master
  DeviceBuffer weight_copy_;       // low precision, mixed precision only
  DeviceBuffer weight_grad_;       // FP32
  DeviceBuffer weight_grad_copy_;  // what cuDNN writes in mixed precision
  DeviceBuffer workspace_;
};

}  // namespace ampsample
