#include "collectors/synthetic/synthetic_trace.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace ampprof::synthetic {
namespace {

using base::DurationNs;
using base::TimeNs;
using records::KernelRecord;

constexpr uint32_t kPid = 4242;
constexpr uint32_t kDeviceId = 0;
constexpr uint32_t kContextId = 1;
constexpr uint32_t kComputeStream = 7;
constexpr uint32_t kCommStream = 13;
// CUPTI hands over kernel records in buffers; the generator holds this many per stream before emitting.
constexpr size_t kKernelBatch = 192;
constexpr int32_t kRanksPerHost = 8;  // a job's ranks as eight-GPU nodes hold them
constexpr TimeNs kTraceStart = 1'700'000'000'000'000'000;  // an epoch-like origin, as CUPTI's clock gives

// SplitMix64: tiny, fast and identical everywhere, unlike the std:: distributions.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [low, high].
  int64_t Between(int64_t low, int64_t high) {
    return low + static_cast<int64_t>(Next() % static_cast<uint64_t>(high - low + 1));
  }

 private:
  uint64_t state_;
};

struct KernelKind {
  const char* name;
  DurationNs min_ns;
  DurationNs max_ns;
  uint32_t grid_x;
  uint32_t block_x;
  uint32_t registers;
};

// Real kernel names from public H100 traces and the PyTorch sources (see ../shared/design/CUPTI-NOTES.md
// §6); durations are what such kernels take at the small sizes of a launch-bound model.
constexpr KernelKind kWeightCast = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::float16_copy_kernel_cuda("
    "at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, "
    "at::native::float16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, "
    "std::array<char*, 2ul>)",
    1'800, 3'200, 512, 128, 16};
constexpr KernelKind kGemm = {"nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN", 7'000, 26'000, 132, 384, 168};
constexpr KernelKind kGemmBackward = {
    "sm90_xmma_gemm_f16f16_f16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_"
    "kernel__5x_cublas",
    8'000, 30'000, 132, 128, 168};
constexpr KernelKind kRelu = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
    "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#14}::operator()() "
    "const::{lambda(c10::Half)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::"
    "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#14}::operator()() "
    "const::{lambda(c10::Half)#1}, std::array<char*, 2ul>)",
    1'500, 2'600, 256, 128, 18};
constexpr KernelKind kReluBackward = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<c10::Half, c10::Half, "
    "c10::Half, at::native::(anonymous namespace)::threshold_kernel_impl<c10::Half>("
    "at::TensorIteratorBase&, c10::Half, c10::Half)::{lambda(c10::Half, c10::Half)#1}>, "
    "std::array<char*, 3ul> >(int, at::native::BinaryFunctor<c10::Half, c10::Half, c10::Half, "
    "at::native::(anonymous namespace)::threshold_kernel_impl<c10::Half>(at::TensorIteratorBase&, "
    "c10::Half, c10::Half)::{lambda(c10::Half, c10::Half)#1}>, std::array<char*, 3ul>)",
    1'600, 2'800, 256, 128, 20};
constexpr KernelKind kBiasGradReduce = {
    "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::func_wrapper_t<"
    "float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::"
    "{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
    "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()("
    "at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
    2'500, 5'000, 64, 128, 32};
constexpr KernelKind kLoss = {
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, "
    "float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
    "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)",
    3'000, 5'500, 1, 512, 32};
constexpr KernelKind kScaleLoss = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
    "at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, "
    "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, "
    "std::array<char*, 3ul>)",
    1'300, 2'000, 1, 64, 16};
constexpr KernelKind kFillFoundInf = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
    1'200, 1'800, 1, 64, 10};
constexpr KernelKind kUnscale = {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::UnaryOpFunctor<float, 1, 1, "
    "0>, at::native::_amp_foreach_non_finite_check_and_unscale_cuda_(c10::ArrayRef<at::Tensor>, "
    "at::Tensor&, at::Tensor const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() "
    "const::{lambda(float)#1}>(int, at::native::(anonymous namespace)::TensorListMetadata<1>, "
    "at::native::(anonymous namespace)::UnaryOpFunctor<float, 1, 1, 0>, "
    "at::native::_amp_foreach_non_finite_check_and_unscale_cuda_(c10::ArrayRef<at::Tensor>, "
    "at::Tensor&, at::Tensor const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() "
    "const::{lambda(float)#1})",
    4'000, 8'000, 96, 512, 40};
constexpr KernelKind kOptimizer = {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<"
    "float, 2, 2, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>"
    ", at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, "
    "float)",
    9'000, 16'000, 96, 512, 38};
constexpr KernelKind kUpdateScale = {
    "at::native::amp_update_scale_cuda_kernel(float*, int*, float const*, double, double, int)", 1'400,
    2'000, 1, 1, 16};
// The FP32 run of the same model: cuBLAS SIMT sgemm kernels (torch.backends.cuda.matmul.allow_tf32 is
// False by default), about three times the time of the FP16 Tensor-Core kernels at these sizes, and
// elementwise kernels on float (names from the FP32 MLP trace in ../shared/fixtures, facebookresearch/param).
constexpr KernelKind kGemmFp32 = {"ampere_sgemm_128x64_nn", 21'000, 78'000, 132, 256, 126};
constexpr KernelKind kGemmBackwardFp32 = {"ampere_sgemm_128x128_tn", 24'000, 90'000, 132, 256, 126};
constexpr KernelKind kReluFp32 = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
    "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::"
    "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
    2'400, 4'200, 256, 128, 18};
constexpr KernelKind kReluBackwardFp32 = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
    "at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
    "float)::{lambda(float, float)#1}>, at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<float, "
    "float, float, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, "
    "float, float)::{lambda(float, float)#1}>, at::detail::Array<char*, 3>)",
    2'600, 4'400, 256, 128, 20};
constexpr KernelKind kAllReduceFp32 = {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                                       50'000, 110'000, 24, 512, 96};
constexpr KernelKind kAllReduce = {"ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                                   30'000, 60'000, 24, 512, 96};

// Takes records and keeps none: the job's first pass only needs the generators' clocks.
class DiscardingSink final : public records::RecordSink {
 public:
  base::StringPool& strings() override { return strings_; }
  base::Stats& stats() override { return stats_; }
  void SetMetadata(std::string_view, std::string_view) override {}
  void Add(const records::DeviceRecord&) override {}
  void Add(const records::ProcessRecord&) override {}
  void Add(const records::ThreadRecord&) override {}
  void Add(const records::KernelRecord&) override {}
  void Add(const records::ApiCallRecord&) override {}
  void Add(const records::MemcpyRecord&) override {}
  void Add(const records::MemsetRecord&) override {}
  void Add(const records::SyncRecord&) override {}
  void Add(const records::RangeRecord&) override {}
  void Add(const records::MarkRecord&) override {}
  void Add(const records::MemoryRecord&) override {}
  void Add(const records::OverheadRecord&) override {}

 private:
  base::StringPool strings_;
  base::Stats stats_;
};

class Generator {
 public:
  Generator(const SyntheticTraceOptions& options, records::RecordSink& sink)
      : options_(options),
        sink_(sink),
        random_(options.seed),
        pid_(options.rank >= 0 ? kPid + static_cast<uint32_t>(options.rank) : kPid) {
    cuda_launch_kernel_ = sink.strings().Intern("cudaLaunchKernel");
    cuda_memcpy_async_ = sink.strings().Intern("cudaMemcpyAsync");
    cuda_stream_synchronize_ = sink.strings().Intern("cudaStreamSynchronize");
    cu_launch_kernel_ex_ = sink.strings().Intern("cuLaunchKernelEx");
    ampprof_domain_ = sink.strings().Intern("ampprof");
  }

  base::Status Run() {
    EmitDescription();
    for (uint64_t step = 0; WantsStep(); ++step) {
      Step(step);
      if (options_.after_step && !options_.after_step(step)) break;
    }
    Finish();
    return base::OkStatus();
  }

  // The job's lockstep (GenerateSyntheticJob): EmitDescription, then per step ForwardAndBackward up to
  // the gradient all-reduce, which returns when this rank's gradients are ready for it, and
  // AllReduceAndOptimize with the all-reduce's start on this rank and its end on all; then Finish.
  bool WantsStep() const { return kernels_emitted_ + Pending() < options_.kernels; }

  TimeNs ForwardAndBackward(uint64_t step) {
    FirstHalf(step);
    const TimeNs api_start = host_now_;
    collective_correlation_ = ApiCall(cu_launch_kernel_ex_, 3'500, 6'500, records::ApiDomain::kDriver);
    // DDP launches the all-reduce once the last gradient is computed.
    return std::max({stream_free_[1] + random_.Between(800, 1'500), api_start + random_.Between(2'500, 4'000),
                     stream_free_[0]});
  }

  void AllReduceAndOptimize(uint64_t step, TimeNs start, TimeNs end) {
    const KernelKind& kind = amp() ? kAllReduce : kAllReduceFp32;
    KernelRecord kernel = KernelOf(kind, kCommStream, collective_correlation_);
    kernel.start = start;
    kernel.end = end;
    stream_free_[1] = end;
    stream_free_[0] = std::max(stream_free_[0], end);  // the optimizer waits for the gradients
    Enqueue(kernel, kCommStream);
    SecondHalf(step);
  }

  void Finish() {
    FlushKernels(kComputeStream, 0);
    FlushKernels(kCommStream, 0);
  }

  void EmitDescription() {
    sink_.SetMetadata("source", "ampprof-synth");
    sink_.SetMetadata("workload", amp() ? fmt::format("synthetic AMP training loop: {} linear layers, "
                                                      "autocast FP16 + GradScaler, one H100",
                                                      options_.layers)
                                        : fmt::format("synthetic FP32 training loop: {} linear layers, one H100",
                                                      options_.layers));
    sink_.SetMetadata("generator_seed", fmt::format("{}", options_.seed));
    records::DeviceRecord device;
    device.pid = pid_;
    device.device_id = kDeviceId;
    device.name = sink_.strings().Intern("NVIDIA H100 80GB HBM3 (synthetic)");
    device.uuid = sink_.strings().Intern("GPU-00000000-0000-0000-0000-000000000000");
    device.compute_major = 9;
    device.compute_minor = 0;
    device.sm_count = 132;
    device.global_memory_bytes = 85'520'809'984;
    device.core_clock_khz = 1'980'000;
    sink_.Add(device);
    records::ProcessRecord process;
    process.pid = pid_;
    process.command = sink_.strings().Intern(
        fmt::format("python {} --layers {} (synthetic)", amp() ? "train_amp.py" : "train.py", options_.layers));
    process.hostname = sink_.strings().Intern(
        options_.rank >= 0 ? fmt::format("synthetic-host-{}", options_.rank / kRanksPerHost) : "synthetic-host");
    process.rank = options_.rank;
    process.local_rank = options_.rank >= 0 ? options_.rank % kRanksPerHost : -1;
    process.world_size = options_.world_size;
    sink_.Add(process);
    if (options_.world_size > 0) sink_.SetMetadata("distributed_backend", "nccl");
    records::ThreadRecord thread;
    thread.pid = pid_;
    thread.tid = pid_;
    thread.name = sink_.strings().Intern("python");
    sink_.Add(thread);
  }

  void Step(uint64_t step) {
    FirstHalf(step);
    if (step % 4 == 3) {
      // Gradient all-reduce on the communication stream, launched through the driver as NCCL does.
      Launch(amp() ? kAllReduce : kAllReduceFp32, kCommStream, cu_launch_kernel_ex_, records::ApiDomain::kDriver);
    }
    SecondHalf(step);
  }

 private:
  // The step up to the end of the backward pass.
  void FirstHalf(uint64_t step) {
    if (!amp()) return Fp32FirstHalf(step);
    Mark(records::MarkKind::kRangeStart, step + 1, fmt::format("ProfilerStep#{}", step));
    for (uint32_t layer = 0; layer < options_.layers; ++layer) {
      Op("aten::linear", {&kWeightCast, &kGemm});
      Op("aten::relu", {&kRelu});
    }
    Op("aten::mse_loss", {&kLoss});
    Op("aten::mul", {&kScaleLoss});  // scaler.scale(loss)
    for (uint32_t layer = options_.layers; layer-- > 0;) {
      Op("autograd::engine::evaluate_function: ThresholdBackward0", {&kReluBackward});
      Op("autograd::engine::evaluate_function: AddmmBackward0",
         {&kGemmBackward, &kGemmBackward, &kBiasGradReduce});
    }
  }

  // The optimizer step after the gradient all-reduce, to the end of the step.
  void SecondHalf(uint64_t step) {
    if (!amp()) return Fp32SecondHalf(step);
    ScalerStep();
    Op("aten::_amp_update_scale_", {&kUpdateScale});
    Mark(records::MarkKind::kRangeEnd, step + 1, "");
    HostWork(20'000, 60'000);  // data loading and Python between steps
  }

  // The same step without autocast and GradScaler: no casts, no loss scaling, no found_inf read.
  void Fp32FirstHalf(uint64_t step) {
    Mark(records::MarkKind::kRangeStart, step + 1, fmt::format("ProfilerStep#{}", step));
    for (uint32_t layer = 0; layer < options_.layers; ++layer) {
      Op("aten::linear", {&kGemmFp32});
      Op("aten::relu", {&kReluFp32});
    }
    Op("aten::mse_loss", {&kLoss});
    for (uint32_t layer = options_.layers; layer-- > 0;) {
      Op("autograd::engine::evaluate_function: ThresholdBackward0", {&kReluBackwardFp32});
      Op("autograd::engine::evaluate_function: AddmmBackward0",
         {&kGemmBackwardFp32, &kGemmBackwardFp32, &kBiasGradReduce});
    }
  }

  void Fp32SecondHalf(uint64_t step) {
    Op("Optimizer.step#SGD.step", {&kOptimizer});
    Mark(records::MarkKind::kRangeEnd, step + 1, "");
    HostWork(20'000, 60'000);
  }

  // GradScaler.step: unscale the gradients, read found_inf back (a 4-byte copy and a stream
  // synchronisation that waits for the whole queue), then run the optimizer.
  void ScalerStep() {
    const TimeNs begin = host_now_;
    Op("aten::full", {&kFillFoundInf});
    Op("aten::_amp_foreach_non_finite_check_and_unscale_", {&kUnscale});
    const TimeNs item_begin = host_now_;
    HostWork(3'000, 6'000);
    // .item(): cudaMemcpyAsync device-to-host into pinned memory, then cudaStreamSynchronize.
    const uint32_t copy_correlation = ApiCall(cuda_memcpy_async_, 3'000, 5'000);
    records::MemcpyRecord copy;
    copy.pid = pid_;
    copy.device_id = kDeviceId;
    copy.context_id = kContextId;
    copy.stream_id = kComputeStream;
    copy.correlation_id = copy_correlation;
    copy.kind = records::MemcpyKind::kDeviceToHost;
    copy.src_kind = records::MemoryKind::kDevice;
    copy.dst_kind = records::MemoryKind::kPinned;
    copy.is_async = 1;
    copy.bytes = 4;
    copy.start = std::max(stream_free_[0], host_now_ - 1'000);
    copy.end = copy.start + random_.Between(1'500, 2'500);
    stream_free_[0] = copy.end;
    sink_.Add(copy);

    records::SyncRecord sync;
    sync.pid = pid_;
    sync.device_id = kDeviceId;
    sync.context_id = kContextId;
    sync.stream_id = kComputeStream;
    sync.kind = records::SyncKind::kStreamSynchronize;
    sync.start = host_now_;
    const TimeNs drained = std::max(host_now_ + 2'000, stream_free_[0] + 1'500);
    sync.correlation_id = ApiCallUntil(cuda_stream_synchronize_, drained);
    sync.end = host_now_;
    sink_.Add(sync);
    CpuOp("aten::item", item_begin, host_now_);
    Op("Optimizer.step#SGD.step", {&kOptimizer});
    Range(records::RangeCategory::kNvtx, ampprof_domain_, "GradScaler.step", begin, host_now_);
  }

  // A framework op: host overhead, its kernel launches, and a cpu_op range around it all.
  void Op(const char* name, std::initializer_list<const KernelKind*> kernels) {
    const TimeNs begin = host_now_;
    HostWork(6'000, 14'000);  // Python, dispatcher and autocast bookkeeping before the first launch
    for (const KernelKind* kind : kernels) {
      Launch(*kind, kComputeStream, cuda_launch_kernel_, records::ApiDomain::kRuntime);
    }
    HostWork(1'000, 3'000);
    CpuOp(name, begin, host_now_);
  }

  void Launch(const KernelKind& kind, uint32_t stream_id, base::StringId api_name,
              records::ApiDomain domain) {
    const TimeNs api_start = host_now_;
    const uint32_t correlation = ApiCall(api_name, 3'500, 6'500, domain);
    TimeNs& free_at = stream_free_[stream_id == kComputeStream ? 0 : 1];
    KernelRecord kernel = KernelOf(kind, stream_id, correlation);
    kernel.start = std::max(free_at + random_.Between(800, 1'500), api_start + random_.Between(2'500, 4'000));
    const DurationNs duration = random_.Between(kind.min_ns, kind.max_ns);
    kernel.end = kernel.start + (stream_id == kComputeStream ? Scaled(duration, options_.compute_scale) : duration);
    free_at = kernel.end;
    Enqueue(kernel, stream_id);
  }

  KernelRecord KernelOf(const KernelKind& kind, uint32_t stream_id, uint32_t correlation) {
    KernelRecord kernel;
    kernel.pid = pid_;
    kernel.device_id = kDeviceId;
    kernel.context_id = kContextId;
    kernel.stream_id = stream_id;
    kernel.correlation_id = correlation;
    kernel.name = NameOf(kind);
    kernel.grid_x = kind.grid_x;
    kernel.grid_y = 1;
    kernel.grid_z = 1;
    kernel.block_x = kind.block_x;
    kernel.block_y = 1;
    kernel.block_z = 1;
    kernel.registers_per_thread = kind.registers;
    return kernel;
  }

  void Enqueue(const KernelRecord& kernel, uint32_t stream_id) {
    auto& pending = pending_[stream_id == kComputeStream ? 0 : 1];
    pending.push_back(kernel);
    if (pending.size() >= kKernelBatch) FlushKernels(stream_id, 0);
  }

  // Emits buffered kernels of a stream, keeping the newest `keep` back (CUPTI returns buffers late).
  void FlushKernels(uint32_t stream_id, size_t keep) {
    auto& pending = pending_[stream_id == kComputeStream ? 0 : 1];
    if (pending.size() <= keep) return;
    const size_t emit = pending.size() - keep;
    for (size_t i = 0; i < emit; ++i) sink_.Add(pending[i]);
    pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(emit));
    kernels_emitted_ += emit;
  }

  // Interning hashes the whole name; kernel kinds are few, so remember their ids, unless every
  // launch may have a name of its own.
  base::StringId NameOf(const KernelKind& kind) {
    if (options_.kernel_name_variants > 0) return sink_.strings().Intern(StressName(kind));
    auto [it, inserted] = kernel_names_.try_emplace(&kind, base::StringId());
    if (inserted) it->second = sink_.strings().Intern(StressName(kind));
    return it->second;
  }

  // The real name with the options' variant number and padding (SyntheticTraceOptions).
  std::string StressName(const KernelKind& kind) {
    std::string name = kind.name;
    if (options_.kernel_name_variants > 0) {
      name += fmt::format("_v{}", launches_++ % options_.kernel_name_variants);
    }
    if (name.size() < options_.kernel_name_bytes) {
      name += '_';
      name.resize(std::max<size_t>(options_.kernel_name_bytes, name.size()), 'x');
    }
    return name;
  }

  uint64_t Pending() const { return pending_[0].size() + pending_[1].size(); }

  uint32_t ApiCall(base::StringId name, DurationNs min_ns, DurationNs max_ns,
                   records::ApiDomain domain = records::ApiDomain::kRuntime) {
    return ApiCallUntil(name, host_now_ + random_.Between(min_ns, max_ns), domain);
  }

  uint32_t ApiCallUntil(base::StringId name, TimeNs end,
                        records::ApiDomain domain = records::ApiDomain::kRuntime) {
    records::ApiCallRecord call;
    call.pid = pid_;
    call.tid = pid_;
    call.start = host_now_;
    call.end = end;
    call.correlation_id = ++correlation_;
    call.domain = domain;
    call.name = name;
    sink_.Add(call);
    host_now_ = end;
    return call.correlation_id;
  }

  void CpuOp(const char* name, TimeNs begin, TimeNs end) {
    Range(records::RangeCategory::kCpuOp, base::kEmptyStringId, name, begin, end);
  }

  void Range(records::RangeCategory category, base::StringId domain, std::string_view name,
             TimeNs begin, TimeNs end) {
    records::RangeRecord range;
    range.pid = pid_;
    range.tid = pid_;
    range.category = category;
    range.domain = domain;
    range.name = sink_.strings().Intern(name);
    range.start = begin;
    range.end = end;
    sink_.Add(range);
  }

  void Mark(records::MarkKind kind, uint64_t range_id, std::string_view name) {
    records::MarkRecord mark;
    mark.pid = pid_;
    mark.tid = pid_;
    mark.kind = kind;
    mark.range_id = range_id;
    mark.timestamp = host_now_;
    mark.name = sink_.strings().Intern(name);
    sink_.Add(mark);
  }

  void HostWork(DurationNs min_ns, DurationNs max_ns) {
    host_now_ += Scaled(random_.Between(min_ns, max_ns), options_.host_scale);
  }

  // Exact for the default scale of 1, so that a single trace is the same with or without the job options.
  static DurationNs Scaled(DurationNs duration, double scale) {
    return scale == 1.0 ? duration : static_cast<DurationNs>(static_cast<double>(duration) * scale);
  }

  bool amp() const { return options_.precision == SyntheticPrecision::kAmp; }

  const SyntheticTraceOptions& options_;
  records::RecordSink& sink_;
  Random random_;
  uint32_t pid_;
  TimeNs host_now_ = kTraceStart;
  std::array<TimeNs, 2> stream_free_{kTraceStart, kTraceStart};
  std::array<std::vector<KernelRecord>, 2> pending_;
  std::unordered_map<const KernelKind*, base::StringId> kernel_names_;
  uint64_t kernels_emitted_ = 0;
  uint64_t launches_ = 0;  // for the names' variant numbers
  uint32_t correlation_ = 0;
  uint32_t collective_correlation_ = 0;  // the job's all-reduce launched, its kernel not yet placed
  base::StringId cuda_launch_kernel_;
  base::StringId cuda_memcpy_async_;
  base::StringId cuda_stream_synchronize_;
  base::StringId cu_launch_kernel_ex_;
  base::StringId ampprof_domain_;
};

}  // namespace

base::Status GenerateSyntheticTrace(const SyntheticTraceOptions& options, records::RecordSink& sink) {
  if (options.layers == 0) return base::InvalidArgumentError("the synthetic model needs at least one layer");
  Generator generator(options, sink);
  return generator.Run();
}

base::StatusOr<std::vector<TimeNs>> SyntheticCollectiveEnds(std::span<const SyntheticTraceOptions> ranks) {
  if (ranks.empty()) return base::InvalidArgumentError("a synthetic job needs at least one rank");
  std::vector<std::unique_ptr<DiscardingSink>> sinks;
  std::vector<std::unique_ptr<Generator>> generators;
  for (const SyntheticTraceOptions& rank : ranks) {
    if (rank.layers == 0) return base::InvalidArgumentError("the synthetic model needs at least one layer");
    if (rank.kernels != ranks[0].kernels || rank.layers != ranks[0].layers || rank.precision != ranks[0].precision) {
      return base::InvalidArgumentError("the ranks of a synthetic job must run the same loop");
    }
    sinks.push_back(std::make_unique<DiscardingSink>());
    generators.push_back(std::make_unique<Generator>(rank, *sinks.back()));
    generators.back()->EmitDescription();
  }
  Random collective(ranks[0].seed ^ 0xa117ed0ceULL);  // the all-reduce's own time, the same on every rank
  const KernelKind& all_reduce = ranks[0].precision == SyntheticPrecision::kAmp ? kAllReduce : kAllReduceFp32;
  std::vector<TimeNs> ends;
  std::vector<TimeNs> ready(generators.size());
  for (uint64_t step = 0; generators[0]->WantsStep(); ++step) {
    for (size_t r = 0; r < generators.size(); ++r) ready[r] = generators[r]->ForwardAndBackward(step);
    // The collective ends when the last rank has joined and the transfer is done.
    ends.push_back(*std::max_element(ready.begin(), ready.end()) +
                   collective.Between(all_reduce.min_ns, all_reduce.max_ns));
    for (size_t r = 0; r < generators.size(); ++r) generators[r]->AllReduceAndOptimize(step, ready[r], ends.back());
  }
  return ends;
}

base::Status GenerateSyntheticRank(const SyntheticTraceOptions& rank, std::span<const TimeNs> collective_ends,
                                   records::RecordSink& sink) {
  if (rank.layers == 0) return base::InvalidArgumentError("the synthetic model needs at least one layer");
  Generator generator(rank, sink);
  generator.EmitDescription();
  for (uint64_t step = 0; step < collective_ends.size() && generator.WantsStep(); ++step) {
    const TimeNs ready = generator.ForwardAndBackward(step);
    generator.AllReduceAndOptimize(step, ready, collective_ends[step]);
  }
  generator.Finish();
  return base::OkStatus();
}

}  // namespace ampprof::synthetic
