#include "samples/cuda/common/grad_scaler.h"

#include "samples/cuda/common/check.h"
#include "samples/cuda/common/kernels.h"

namespace ampsample {
namespace {

constexpr float kInitScale = 65536.0f;
constexpr double kGrowthFactor = 2.0;
constexpr double kBackoffFactor = 0.5;
constexpr int kGrowthInterval = 2000;

}  // namespace

GradScaler::GradScaler(cudaStream_t stream)
    : stream_(stream), scale_(sizeof(float)), growth_tracker_(sizeof(int)), found_inf_(sizeof(float)) {
  SAMPLE_CUDA(cudaMallocHost(&found_inf_host_, sizeof(float)));
  SAMPLE_CUDA(cudaMemcpyAsync(scale_.get(), &kInitScale, sizeof(float), cudaMemcpyHostToDevice, stream_));
  SAMPLE_CUDA(cudaMemsetAsync(growth_tracker_.get(), 0, sizeof(int), stream_));
  SAMPLE_CUDA(cudaStreamSynchronize(stream_));  // kInitScale is copied from the host before it goes away
}

GradScaler::~GradScaler() { cudaFreeHost(found_inf_host_); }

void GradScaler::ScaleLoss(const float* loss, float* scaled_loss) const {
  LaunchScaleLoss(loss, scale_.floats(), scaled_loss, stream_);
}

bool GradScaler::UnscaleAndCheck(const TensorList& grads) {
  SAMPLE_CUDA(cudaMemsetAsync(found_inf_.get(), 0, sizeof(float), stream_));
  LaunchUnscaleAndCheck(grads, found_inf_.floats(), scale_.floats(), stream_);
  SAMPLE_CUDA(cudaMemcpyAsync(found_inf_host_, found_inf_.get(), sizeof(float), cudaMemcpyDeviceToHost, stream_));
  SAMPLE_CUDA(cudaStreamSynchronize(stream_));
  return *found_inf_host_ != 0.0f;
}

void GradScaler::Update() {
  LaunchUpdateScale(scale_.floats(), static_cast<int*>(growth_tracker_.get()), found_inf_.floats(), kGrowthFactor,
                    kBackoffFactor, kGrowthInterval, stream_);
}

float GradScaler::ScaleOnHost() const {
  float scale = 0;
  SAMPLE_CUDA(cudaMemcpyAsync(&scale, scale_.get(), sizeof(float), cudaMemcpyDeviceToHost, stream_));
  SAMPLE_CUDA(cudaStreamSynchronize(stream_));
  return scale;
}

}  // namespace ampsample
