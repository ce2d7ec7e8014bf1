#include "samples/cuda/conv/conv_layer.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "samples/cuda/common/check.h"
#include "samples/cuda/common/kernels.h"

namespace ampsample {
namespace {

constexpr int kMaxAlgorithms = 16;

// The fastest algorithm cudnnFind* measured that ran successfully (its results come sorted by time).
template <typename Perf>
Perf Fastest(const Perf* results, int count, const char* pass) {
  for (int i = 0; i < count; ++i) {
    if (results[i].status == CUDNN_STATUS_SUCCESS) return results[i];
  }
  Fail(std::string("cuDNN has no algorithm for this convolution's ") + pass + " pass");
}

int Int(int64_t value) { return static_cast<int>(value); }

}  // namespace

ConvLayer::ConvLayer(const ConvShape& shape, Layout layout, Precision precision, cudnnHandle_t cudnn,
                     cudaStream_t stream, uint64_t seed)
    : shape_(shape), precision_(precision), cudnn_(cudnn), stream_(stream) {
  if (shape_.in_channels % shape_.groups != 0 || shape_.out_channels % shape_.groups != 0) {
    Fail("--groups must divide the input and output channels");
  }
  const cudnnTensorFormat_t format = layout == Layout::kNhwc ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  const cudnnDataType_t type = CudnnActivationType(precision_);
  SAMPLE_CUDNN(cudnnCreateTensorDescriptor(&x_desc_));
  SAMPLE_CUDNN(cudnnCreateTensorDescriptor(&y_desc_));
  SAMPLE_CUDNN(cudnnCreateFilterDescriptor(&w_desc_));
  SAMPLE_CUDNN(cudnnCreateConvolutionDescriptor(&conv_desc_));
  SAMPLE_CUDNN(cudnnSetTensor4dDescriptor(x_desc_, format, type, Int(shape_.batch), Int(shape_.in_channels),
                                          Int(shape_.height), Int(shape_.width)));
  SAMPLE_CUDNN(cudnnSetFilter4dDescriptor(w_desc_, type, format, Int(shape_.out_channels),
                                          Int(shape_.in_channels / shape_.groups), Int(shape_.kernel),
                                          Int(shape_.kernel)));
  SAMPLE_CUDNN(cudnnSetConvolution2dDescriptor(conv_desc_, Int(shape_.padding), Int(shape_.padding), Int(shape_.stride),
                                               Int(shape_.stride), 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  SAMPLE_CUDNN(cudnnSetConvolutionGroupCount(conv_desc_, Int(shape_.groups)));
  SAMPLE_CUDNN(cudnnSetConvolutionMathType(conv_desc_, IsMixed(precision_) ? CUDNN_TENSOR_OP_MATH : CUDNN_DEFAULT_MATH));
  int n = 0, c = 0, h = 0, w = 0;
  SAMPLE_CUDNN(cudnnGetConvolution2dForwardOutputDim(conv_desc_, x_desc_, w_desc_, &n, &c, &h, &w));
  out_height_ = h;
  out_width_ = w;
  SAMPLE_CUDNN(cudnnSetTensor4dDescriptor(y_desc_, format, type, n, c, h, w));

  const size_t weight_count = static_cast<size_t>(weight_elements());
  weight_ = DeviceBuffer(weight_count * sizeof(float));
  weight_grad_ = DeviceBuffer(weight_count * sizeof(float));
  if (IsMixed(precision_)) {
    weight_copy_ = DeviceBuffer(weight_count * ActivationBytes(precision_));
    weight_grad_copy_ = DeviceBuffer(weight_count * ActivationBytes(precision_));
  }
  // nn.Conv2d's default initialisation bound: 1 / sqrt(fan_in).
  const float fan_in = static_cast<float>(shape_.in_channels / shape_.groups * shape_.kernel * shape_.kernel);
  LaunchFillUniform(weight_.floats(), weight_elements(), 1.0f / std::sqrt(fan_in), seed, stream_);
  CastWeight();
  ChooseAlgorithms();
}

ConvLayer::~ConvLayer() {
  cudnnDestroyConvolutionDescriptor(conv_desc_);
  cudnnDestroyFilterDescriptor(w_desc_);
  cudnnDestroyTensorDescriptor(y_desc_);
  cudnnDestroyTensorDescriptor(x_desc_);
}

int64_t ConvLayer::input_elements() const { return shape_.batch * shape_.in_channels * shape_.height * shape_.width; }
int64_t ConvLayer::output_elements() const { return shape_.batch * shape_.out_channels * out_height_ * out_width_; }
int64_t ConvLayer::weight_elements() const {
  return shape_.out_channels * (shape_.in_channels / shape_.groups) * shape_.kernel * shape_.kernel;
}

void ConvLayer::ChooseAlgorithms() {
  // cudnnFind* runs each candidate on scratch buffers it allocates itself; set-up only.
  int found = 0;
  cudnnConvolutionFwdAlgoPerf_t forward[kMaxAlgorithms];
  SAMPLE_CUDNN(cudnnFindConvolutionForwardAlgorithm(cudnn_, x_desc_, w_desc_, conv_desc_, y_desc_, kMaxAlgorithms,
                                                    &found, forward));
  forward_ = Fastest(forward, found, "forward");
  cudnnConvolutionBwdDataAlgoPerf_t backward_data[kMaxAlgorithms];
  SAMPLE_CUDNN(cudnnFindConvolutionBackwardDataAlgorithm(cudnn_, w_desc_, y_desc_, conv_desc_, x_desc_, kMaxAlgorithms,
                                                         &found, backward_data));
  backward_data_ = Fastest(backward_data, found, "backward-data");
  cudnnConvolutionBwdFilterAlgoPerf_t backward_filter[kMaxAlgorithms];
  SAMPLE_CUDNN(cudnnFindConvolutionBackwardFilterAlgorithm(cudnn_, x_desc_, y_desc_, conv_desc_, w_desc_,
                                                           kMaxAlgorithms, &found, backward_filter));
  backward_filter_ = Fastest(backward_filter, found, "backward-filter");
  workspace_ = DeviceBuffer(std::max({forward_.memory, backward_data_.memory, backward_filter_.memory}));
}

void ConvLayer::CastWeight() {
  if (IsMixed(precision_)) LaunchCastFromFloat(weight_.floats(), weight_copy_.get(), weight_elements(), precision_, stream_);
}

// Each pass runs with the math type its algorithm was measured with, as PyTorch sets it per call.
void ConvLayer::Forward(const void* x, void* y) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  SAMPLE_CUDNN(cudnnSetConvolutionMathType(conv_desc_, forward_.mathType));
  SAMPLE_CUDNN(cudnnConvolutionForward(cudnn_, &alpha, x_desc_, x, w_desc_, WeightForMath(), conv_desc_, forward_.algo,
                                       workspace_.get(), workspace_.bytes(), &beta, y_desc_, y));
}

void ConvLayer::BackwardFilter(const void* x, const void* dy) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  void* dw = IsMixed(precision_) ? weight_grad_copy_.get() : weight_grad_.get();
  SAMPLE_CUDNN(cudnnSetConvolutionMathType(conv_desc_, backward_filter_.mathType));
  SAMPLE_CUDNN(cudnnConvolutionBackwardFilter(cudnn_, &alpha, x_desc_, x, y_desc_, dy, conv_desc_, backward_filter_.algo,
                                              workspace_.get(), workspace_.bytes(), &beta, w_desc_, dw));
  if (IsMixed(precision_)) LaunchCastToFloat(dw, weight_grad_.floats(), weight_elements(), precision_, stream_);
}

void ConvLayer::BackwardData(const void* dy, void* dx) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  SAMPLE_CUDNN(cudnnSetConvolutionMathType(conv_desc_, backward_data_.mathType));
  SAMPLE_CUDNN(cudnnConvolutionBackwardData(cudnn_, &alpha, w_desc_, WeightForMath(), y_desc_, dy, conv_desc_,
                                            backward_data_.algo, workspace_.get(), workspace_.bytes(), &beta, x_desc_,
                                            dx));
}

}  // namespace ampsample
