#include "collectors/synthetic/synthetic_trace.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "collectors/records/record_set.h"
#include "src/model/model_builder.h"

namespace ampprof::synthetic {
namespace {

TEST(SyntheticTrace, IsDeterministicAndReachesTheRequestedSize) {
  SyntheticTraceOptions options;
  options.kernels = 3000;
  records::RecordSet first, second;
  ASSERT_TRUE(GenerateSyntheticTrace(options, first).ok());
  ASSERT_TRUE(GenerateSyntheticTrace(options, second).ok());
  EXPECT_GE(first.kernels.size(), 3000u);
  EXPECT_LT(first.kernels.size(), 3000u + 7 * options.layers + 7) << "stops at the end of a step";
  EXPECT_EQ(first.kernels, second.kernels);
  EXPECT_EQ(first.api_calls, second.api_calls);
  options.seed = 2;
  records::RecordSet other_seed;
  ASSERT_TRUE(GenerateSyntheticTrace(options, other_seed).ok());
  EXPECT_NE(first.kernels[10].start, other_seed.kernels[10].start);
}

TEST(SyntheticTrace, BuildsIntoAConsistentModel) {
  SyntheticTraceOptions options;
  options.kernels = 5000;
  model::ModelBuilder builder;
  ASSERT_TRUE(GenerateSyntheticTrace(options, builder).ok());
  const model::TraceModel model = std::move(builder).Build();

  // Every kernel and copy links to the call that launched it; every step range closes.
  EXPECT_TRUE(model.stats().NonZero().empty());
  ASSERT_EQ(model.devices().size(), 1u);
  EXPECT_EQ(model.device(model::DeviceRow(0)).compute_major, 9u);
  EXPECT_EQ(model.streams().size(), 2u);
  // Kernels on one stream never overlap, and each starts after its launch call started.
  for (const model::Stream& stream : model.streams()) {
    for (size_t i = 1; i < stream.kernels.size(); ++i) {
      ASSERT_GE(model.kernels().start[stream.kernels[i]], model.kernels().end[stream.kernels[i - 1]]);
    }
  }
  for (uint32_t k = 0; k < model.kernels().size(); ++k) {
    const model::ApiCallRow launch = model.kernels().launch[model::KernelRow(k)];
    ASSERT_TRUE(launch.valid());
    ASSERT_LT(model.api_calls().start[launch], model.kernels().start[model::KernelRow(k)]);
  }
  // GradScaler's per-step pattern: one 4-byte device-to-host copy and one stream synchronisation.
  EXPECT_GT(model.syncs().size(), 0u);
  EXPECT_EQ(model.memcpys().size(), model.syncs().size());
  EXPECT_EQ(model.memcpys().bytes[model::MemcpyRow(0)], 4u);
}

TEST(SyntheticTrace, Fp32LoopHasNoAutocastOrGradScaler) {
  SyntheticTraceOptions options;
  options.kernels = 2000;
  options.precision = SyntheticPrecision::kFp32;
  model::ModelBuilder builder;
  ASSERT_TRUE(GenerateSyntheticTrace(options, builder).ok());
  const model::TraceModel model = std::move(builder).Build();
  EXPECT_TRUE(model.stats().NonZero().empty());
  EXPECT_GE(model.kernels().size(), 2000u);
  EXPECT_EQ(model.memcpys().size(), 0u) << "no found_inf read";
  EXPECT_EQ(model.syncs().size(), 0u);
  for (uint32_t k = 0; k < model.kernels().size(); ++k) {
    const std::string_view name = model.KernelName(model::KernelRow(k));
    for (std::string_view half : {"Half", "float16", "f16", "_amp_", "amp_update_scale", "hsh"}) {
      ASSERT_EQ(name.find(half), std::string_view::npos) << name;
    }
  }
  EXPECT_EQ(model.Metadata("workload"), "synthetic FP32 training loop: 8 linear layers, one H100");
}

TEST(SyntheticTrace, KernelNameVariantsGiveEveryKernelANameOfItsOwn) {
  SyntheticTraceOptions options;
  options.kernels = 3000;
  options.kernel_name_variants = 1'000'000;
  records::RecordSet trace;
  ASSERT_TRUE(GenerateSyntheticTrace(options, trace).ok());
  std::set<std::string_view> names;
  for (const records::KernelRecord& kernel : trace.kernels) names.insert(trace.Text(kernel.name));
  EXPECT_EQ(names.size(), trace.kernels.size());
  // Each is a real name with its variant: the kernels still read as what they are.
  EXPECT_EQ(names.count("nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN_v1"), 1u);

  options.kernel_name_variants = 2;  // variants repeat: two names per kernel of the loop
  records::RecordSet repeating;
  ASSERT_TRUE(GenerateSyntheticTrace(options, repeating).ok());
  names.clear();
  for (const records::KernelRecord& kernel : repeating.kernels) names.insert(repeating.Text(kernel.name));
  EXPECT_EQ(names.size(), 2u * 13u);
}

TEST(SyntheticTrace, KernelNamesArePaddedToTheRequestedLength) {
  SyntheticTraceOptions options;
  options.kernels = 500;
  options.kernel_name_bytes = 64 * 1024;
  records::RecordSet trace;
  ASSERT_TRUE(GenerateSyntheticTrace(options, trace).ok());
  std::set<std::string_view> names;
  for (const records::KernelRecord& kernel : trace.kernels) {
    const std::string_view name = trace.Text(kernel.name);
    ASSERT_EQ(name.size(), 64u * 1024u);
    names.insert(name);
  }
  EXPECT_EQ(names.size(), 13u) << "one padded name per kernel of the AMP loop";
  std::string gemm = "nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN_";
  gemm.resize(64 * 1024, 'x');
  EXPECT_EQ(names.count(gemm), 1u);
}

TEST(SyntheticTrace, AfterStepSeesEveryStepAndCanEndTheLoop) {
  SyntheticTraceOptions options;
  options.kernels = 100'000;
  std::vector<uint64_t> steps;
  options.after_step = [&](uint64_t step) {
    steps.push_back(step);
    return step < 2;  // ends after the third step
  };
  records::RecordSet trace;
  ASSERT_TRUE(GenerateSyntheticTrace(options, trace).ok());
  EXPECT_EQ(steps, (std::vector<uint64_t>{0, 1, 2}));
  // Three whole steps, every kernel delivered at the end: 7 per layer and 6 more, an all-reduce in
  // none of the first three.
  EXPECT_EQ(trace.kernels.size(), 3u * (7 * options.layers + 6));
}

TEST(SyntheticTrace, RejectsAModelWithoutLayers) {
  SyntheticTraceOptions options;
  options.layers = 0;
  records::RecordSet sink;
  EXPECT_EQ(GenerateSyntheticTrace(options, sink).code(), base::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ampprof::synthetic
