#include "analyzers/facts/library_calls.h"

#include <gtest/gtest.h>

#include "analyzers/facts/analysis_input.h"
#include "src/model/model_builder.h"
#include "tests/analyzers/synthetic_run.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using analyzers::testing::kFp16TensorCoreGemm;
using analyzers::testing::kFp32SimtGemm;
using ::ampprof::testing::RecordBuilder;

// Real kernel names (kernel_classifier_test.cc): a split-K helper, a cuDNN convolution and its layout
// transpose, and an elementwise kernel.
constexpr std::string_view kSplitKReduce =
    "void splitKreduce_kernel<float, float, float, float, true, false, false>(cublasSplitKParams<float>, float "
    "const*, float const*, float*, float const*, float const*, float const*, float const*, float*, void*, long, "
    "float*, int*)";
constexpr std::string_view kConvolution =
    "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_"
    "tensor16x8x16_execute_kernel__5x_cudnn";
constexpr std::string_view kNchwToNhwc =
    "void cudnn::engines_precompiled::nchwToNhwcKernel<__half, __half, float, false, false, "
    "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, __half const*, __half*)";
constexpr std::string_view kElementwise =
    "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor>()";

liblogs::LibraryCall Gemm(liblogs::Library library, liblogs::DataType type, int64_t m, uint32_t pid = 100,
                          uint64_t tid = 0) {
  liblogs::LibraryCall call;
  call.library = library;
  call.function = library == liblogs::Library::kCublasLt ? "cublasLtMatmul" : "cublasGemmEx";
  call.pid = pid;
  call.tid = tid;
  call.gemm = liblogs::GemmCall{};
  call.gemm->a_type = call.gemm->b_type = type;
  call.gemm->m = m;
  return call;
}

struct Attached {
  model::TraceModel model;
  LibraryCallAttachment attachment;
  std::vector<std::string_view> kernel_names;  // of the matches, in call order
};

Attached Attach(model::ModelBuilder&& builder, const liblogs::LibraryLog& log) {
  Attached result{std::move(builder).Build(), {}, {}};
  result.attachment = AttachLibraryCalls(AnalysisInput(result.model), log);
  for (const AttachedCall& match : result.attachment.matches) {
    result.kernel_names.push_back(result.model.KernelName(match.kernel));
  }
  return result;
}

TEST(AttachLibraryCalls, GemmCallsTakeTheirMainKernelsInOrder) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Launch(kFp32SimtGemm, {100, 110}, {120, 200});
  b.Launch(kElementwise, {300, 310}, {320, 330});
  b.Launch(kFp32SimtGemm, {400, 410}, {420, 500});
  b.Launch(kSplitKReduce, {510, 520}, {530, 540});  // the second GEMM's split-K reduction (FP32 too)
  b.Launch(kFp32SimtGemm, {600, 610}, {620, 700});
  liblogs::LibraryLog log;
  for (int64_t m : {64, 128, 256}) {
    log.calls.push_back(Gemm(liblogs::Library::kCublasLt, liblogs::DataType::kFloat32, m));
  }
  const Attached a = Attach(std::move(builder), log);
  ASSERT_EQ(a.attachment.matches.size(), 3u);
  EXPECT_EQ(a.attachment.calls, 3u);
  EXPECT_EQ(a.attachment.unmatched_calls, 0u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a.attachment.matches[i].call, i);
    EXPECT_EQ(a.kernel_names[i], kFp32SimtGemm) << "not the split-K helper";
  }
  EXPECT_EQ(a.model.kernels().start[a.attachment.matches[2].kernel], 620);
}

TEST(AttachLibraryCalls, ThreadsKeepTheirOwnOrder) {
  // Forward GEMMs on the main thread, backward ones on the autograd thread, interleaved in time.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.tid = 101;
  b.Launch(kFp16TensorCoreGemm, {100, 110}, {120, 200});
  b.tid = 202;
  b.Launch(kFp32SimtGemm, {150, 160}, {210, 300});
  b.tid = 101;
  b.Launch(kFp16TensorCoreGemm, {400, 410}, {420, 500});
  liblogs::LibraryLog log;
  log.calls.push_back(Gemm(liblogs::Library::kCublas, liblogs::DataType::kFloat32, 1, 100, 202));
  log.calls.push_back(Gemm(liblogs::Library::kCublas, liblogs::DataType::kFloat16, 2, 100, 101));
  log.calls.push_back(Gemm(liblogs::Library::kCublas, liblogs::DataType::kFloat16, 3, 100, 101));
  const Attached a = Attach(std::move(builder), log);
  ASSERT_EQ(a.attachment.matches.size(), 3u);
  EXPECT_EQ(a.kernel_names[0], kFp32SimtGemm);
  EXPECT_EQ(a.model.kernels().start[a.attachment.matches[1].kernel], 120);
  EXPECT_EQ(a.model.kernels().start[a.attachment.matches[2].kernel], 420);
  EXPECT_EQ(a.attachment.thread_fallbacks, 0u);
}

TEST(AttachLibraryCalls, AKernelOfAnotherPrecisionIsPassedOver) {
  // An FP32 GEMM from elsewhere (no log line) between two FP16 cuBLASLt GEMMs.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Launch(kFp16TensorCoreGemm, {100, 110}, {120, 200});
  b.Launch(kFp32SimtGemm, {300, 310}, {320, 400});
  b.Launch(kFp16TensorCoreGemm, {500, 510}, {520, 600});
  liblogs::LibraryLog log;
  log.calls.push_back(Gemm(liblogs::Library::kCublasLt, liblogs::DataType::kFloat16, 1));
  log.calls.push_back(Gemm(liblogs::Library::kCublasLt, liblogs::DataType::kFloat16, 2));
  const Attached a = Attach(std::move(builder), log);
  ASSERT_EQ(a.attachment.matches.size(), 2u);
  EXPECT_EQ(a.model.kernels().start[a.attachment.matches[1].kernel], 520);
  EXPECT_EQ(a.attachment.skipped_kernels, 1u);
}

TEST(AttachLibraryCalls, CountsWhatCannotBeAttached) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Launch(kFp16TensorCoreGemm, {100, 110}, {120, 200});
  liblogs::LibraryLog log;
  log.calls.push_back(Gemm(liblogs::Library::kCublas, liblogs::DataType::kFloat16, 1, /*pid=*/999, 5));
  log.calls.push_back(Gemm(liblogs::Library::kCublas, liblogs::DataType::kFloat16, 2, 100, /*tid=*/777));
  log.calls.push_back(Gemm(liblogs::Library::kCublas, liblogs::DataType::kFloat16, 3, 100, 777));
  liblogs::LibraryCall transform;
  transform.library = liblogs::Library::kCublasLt;
  transform.function = "cublasLtMatrixTransform";  // launches a kernel, but of no family we can tell
  log.calls.push_back(transform);
  const Attached a = Attach(std::move(builder), log);
  EXPECT_EQ(a.attachment.other_process_calls, 1u);
  EXPECT_EQ(a.attachment.calls, 2u);
  EXPECT_EQ(a.attachment.thread_fallbacks, 2u) << "thread 777 launched nothing in the trace";
  ASSERT_EQ(a.attachment.matches.size(), 1u);
  EXPECT_EQ(a.attachment.matches[0].call, 1u);
  EXPECT_EQ(a.attachment.unmatched_calls, 1u) << "one GEMM kernel for two calls";
}

TEST(AttachLibraryCalls, CudnnCallsTakeTheConvolutionNotItsTransposes) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Launch(kNchwToNhwc, {100, 110}, {120, 130});
  b.Launch(kConvolution, {140, 150}, {160, 300});
  liblogs::LibraryLog log;
  log.library = liblogs::Library::kCudnn;
  liblogs::LibraryCall execute;
  execute.library = liblogs::Library::kCudnn;
  execute.function = "cudnnBackendExecute";
  execute.pid = 100;
  execute.tid = 101;
  log.calls.push_back(execute);
  const Attached a = Attach(std::move(builder), log);
  ASSERT_EQ(a.attachment.matches.size(), 1u);
  EXPECT_EQ(a.kernel_names[0], kConvolution);
}

TEST(LibraryCallFacts, AKernelTwoLogsClaimKeepsTheFirstLogsCall) {
  // cuBLAS's cublasGemmEx and the cublasLtMatmul inside it, in their own logs, for one GEMM kernel.
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Launch(kFp32SimtGemm, {100, 110}, {120, 200});
  b.Launch(kFp32SimtGemm, {300, 310}, {320, 400});
  const model::TraceModel model = std::move(builder).Build();
  std::vector<liblogs::LibraryLog> logs(2);
  logs[0].library = liblogs::Library::kCublasLt;
  logs[0].calls.push_back(Gemm(liblogs::Library::kCublasLt, liblogs::DataType::kFloat32, 64));
  logs[1].library = liblogs::Library::kCublas;
  logs[1].calls.push_back(Gemm(liblogs::Library::kCublas, liblogs::DataType::kFloat32, 65));
  logs[1].calls.push_back(Gemm(liblogs::Library::kCublas, liblogs::DataType::kFloat32, 128));
  const AnalysisInput input(model, logs);
  const LibraryCallFacts& facts = input.library_calls();
  ASSERT_EQ(facts.attachments().size(), 2u);
  EXPECT_EQ(facts.attachments()[1].matches.size(), 2u);
  const liblogs::LibraryCall* first = facts.CallOf(model::KernelRow(0));
  const liblogs::LibraryCall* second = facts.CallOf(model::KernelRow(1));
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->library, liblogs::Library::kCublasLt);
  EXPECT_EQ(first->gemm->m, 64);
  EXPECT_EQ(second->library, liblogs::Library::kCublas);
  EXPECT_EQ(second->gemm->m, 128);
  EXPECT_TRUE(AnalysisInput(model).library_calls().empty());
}

}  // namespace
}  // namespace ampprof::analyzers
