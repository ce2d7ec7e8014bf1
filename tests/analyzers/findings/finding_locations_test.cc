// The location helpers: the bounded list of the longest places, kernel labels, and the keys scripts
// read. Whether each analyzer's locations lie at its gaps, syncs and kernels is tested beside the
// analyzer (idle_findings_test.cc, layout_analyzer_test.cc).

#include "analyzers/findings/finding_locations.h"

#include <string>

#include <gtest/gtest.h>

#include "analyzers/facts/longest_kept.h"
#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

Location At(base::TimeNs start, base::TimeNs end, std::string label) {
  return {{start, end}, LocationKind::kLaunchWait, 0, -1, std::move(label)};
}

TEST(LongestKept, KeepsTheLongestLongestFirstAndCountsTheRest) {
  LongestKept<int> kept(3);
  const base::DurationNs keys[] = {5, 9, 1, 7, 9, 3};
  for (int i = 0; i < 6; ++i) kept.Add(keys[i], i);
  EXPECT_EQ(kept.left_out(), 3u);
  // 9 (added 2nd), 9 (added 5th), 7: ties keep the order they came in.
  EXPECT_EQ(std::move(kept).Take(), (std::vector<int>{1, 4, 3}));
}

TEST(LongestKept, ATieWithTheShortestKeptDoesNotDisplaceIt) {
  LongestKept<int> kept(2);
  kept.Add(4, 0);
  kept.Add(2, 1);
  kept.Add(2, 2);  // as long as the shortest kept, but later
  EXPECT_EQ(std::move(kept).Take(), (std::vector<int>{0, 1}));
}

TEST(LongestKept, SaysWhetherItWouldKeepAKey) {
  LongestKept<int> kept(2);
  EXPECT_TRUE(kept.WouldKeep(0)) << "room left";
  kept.Add(5, 0);
  kept.Add(3, 1);
  EXPECT_FALSE(kept.WouldKeep(3)) << "a tie with the shortest kept loses";
  EXPECT_TRUE(kept.WouldKeep(4));
  EXPECT_FALSE(LongestKept<int>(0).WouldKeep(9));
}

TEST(LongestKept, KeepsNothingWithNoCapacity) {
  LongestKept<int> kept(0);
  kept.Add(1, 0);
  EXPECT_EQ(kept.left_out(), 1u);
  EXPECT_TRUE(std::move(kept).Take().empty());
}

TEST(LocationList, KeepsTheLongestAndCountsTheOthersWithTheFactsOwn) {
  LocationList list(base::Interval{0, 10'000});
  for (int i = 0; i < 20; ++i) list.Add(At(i * 100, i * 100 + i + 1, "gap " + std::to_string(i)));
  list.CountLeftOut(5);  // left out before the finding saw them (the step account's bounded lists)
  Finding finding;
  std::move(list).MoveInto(finding);
  ASSERT_EQ(finding.locations.size(), kMaxLocations);
  EXPECT_EQ(finding.locations_left_out, 20 - kMaxLocations + 5);
  EXPECT_EQ(finding.locations.front().label, "gap 19");
  EXPECT_EQ(finding.locations.back().label, "gap 4");
  for (size_t i = 1; i < finding.locations.size(); ++i) {
    EXPECT_GE(finding.locations[i - 1].interval.duration(), finding.locations[i].interval.duration());
  }
}

TEST(KernelLabel, IsTheKernelsOwnNameCutToAShortLabel) {
  EXPECT_EQ(KernelLabel("ampere_sgemm_128x64_nn"), "ampere_sgemm_128x64_nn");
  // No return type, no parameter list.
  EXPECT_EQ(KernelLabel("void at::native::reduce_kernel<512, 1>(at::native::ReduceOp<float>)"),
            "at::native::reduce_kernel<512, 1>");
  // Mangled names are demangled first.
  EXPECT_EQ(KernelLabel("_Z12vector_adderPfS_i"), "vector_adder");
  const std::string long_name = "void " + std::string(200, 'k') + "(int)";
  const std::string label = KernelLabel(long_name);
  EXPECT_EQ(label.size(), kMaxLabelLength);
  EXPECT_EQ(label, std::string(kMaxLabelLength - 3, 'k') + "...");
}

TEST(KernelLabel, NeverCutsInsideAUtf8Sequence) {
  // "é" is two bytes; placed so that the cut would fall between them.
  const std::string name = std::string(kMaxLabelLength - 4, 'a') + "\xC3\xA9" + std::string(50, 'b');
  const std::string label = KernelLabel(name);
  EXPECT_EQ(label, std::string(kMaxLabelLength - 4, 'a') + "...");
}

TEST(KernelLocation, IsTheKernelsIntervalDeviceAndStream) {
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  b.Kernel("ampere_sgemm_128x64_nn", 1'000, 3'500);
  const model::TraceModel model = std::move(builder).Build();
  const AnalysisInput input(model);
  const Location location = KernelLocation(input, model::KernelRow(0));
  EXPECT_EQ(location.interval, (base::Interval{1'000, 3'500}));
  EXPECT_EQ(location.kind, LocationKind::kKernel);
  const model::Stream& stream = model.stream(model.kernels().stream[model::KernelRow(0)]);
  EXPECT_EQ(location.device_id, model.device(stream.device).device_id);
  EXPECT_EQ(location.stream_id, stream.stream_id);
  EXPECT_EQ(location.label, "ampere_sgemm_128x64_nn");
}

TEST(LocationList, CountsTheKernelsItDoesNotKeep) {
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  for (int i = 0; i < 20; ++i) b.Kernel("ampere_sgemm_128x64_nn", i * 1'000, i * 1'000 + 100 + i);
  const model::TraceModel model = std::move(builder).Build();
  const AnalysisInput input(model);
  LocationList list(base::Interval{0, 20'000});
  for (uint32_t i = 0; i < 20; ++i) list.AddKernel(input, model::KernelRow(i));
  Finding finding;
  std::move(list).MoveInto(finding);
  ASSERT_EQ(finding.locations.size(), kMaxLocations);
  EXPECT_EQ(finding.locations_left_out, 4u);
  EXPECT_EQ(finding.locations.front().interval, (base::Interval{19'000, 19'119}));
  EXPECT_EQ(finding.locations.back().interval, (base::Interval{4'000, 4'104}));
}

TEST(LocationList, ClipsEveryPlaceToTheWindowAndDropsThoseOutsideIt) {
  LocationList list(base::Interval{1'000, 5'000});
  list.Add(At(500, 1'500, "straddles the start"));
  list.Add(At(4'000, 9'000, "straddles the end"));
  list.Add(At(6'000, 7'000, "after the window"));
  list.Add(At(0, 1'000, "ends where the window starts"));
  Finding finding;
  std::move(list).MoveInto(finding);
  ASSERT_EQ(finding.locations.size(), 2u);
  // Ranked by their time inside the window: 1,000 ns of the second, 500 of the first.
  EXPECT_EQ(finding.locations[0].label, "straddles the end");
  EXPECT_EQ(finding.locations[0].interval, (base::Interval{4'000, 5'000}));
  EXPECT_EQ(finding.locations[1].interval, (base::Interval{1'000, 1'500}));
  EXPECT_EQ(finding.locations_left_out, 0u) << "a place outside the window is none of the finding's";
}

TEST(LocationList, RanksAKernelByItsTimeInsideTheWindow) {
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  b.Kernel("ampere_sgemm_128x64_nn", 1'000, 3'000);   // 2,000 ns, all inside
  b.Kernel("ampere_sgemm_128x64_nn", 9'000, 20'000);  // 11,000 ns, 1,000 of them inside
  b.Kernel("ampere_sgemm_128x64_nn", 10'000, 12'000); // after the window
  const model::TraceModel model = std::move(builder).Build();
  const AnalysisInput input(model);
  LocationList list(base::Interval{0, 10'000});
  for (uint32_t i = 0; i < 3; ++i) list.AddKernel(input, model::KernelRow(i));
  Finding finding;
  std::move(list).MoveInto(finding);
  ASSERT_EQ(finding.locations.size(), 2u);
  EXPECT_EQ(finding.locations[0].interval, (base::Interval{1'000, 3'000}));
  EXPECT_EQ(finding.locations[1].interval, (base::Interval{9'000, 10'000}));
  EXPECT_EQ(finding.locations[1].label, "ampere_sgemm_128x64_nn");
  EXPECT_EQ(finding.locations_left_out, 0u);
}

TEST(LocationList, AnywhereKeepsPlacesWhole) {
  LocationList list = LocationList::Anywhere();
  list.Add(At(-5'000, 9'000, "a warm-up burst"));
  Finding finding;
  std::move(list).MoveInto(finding);
  ASSERT_EQ(finding.locations.size(), 1u);
  EXPECT_EQ(finding.locations[0].interval, (base::Interval{-5'000, 9'000}));
}

TEST(ClippedTo, IsTheOverlapOrEmpty) {
  EXPECT_EQ(ClippedTo({0, 10}, {5, 20}), (base::Interval{5, 10}));
  EXPECT_EQ(ClippedTo({0, 10}, {2, 3}), (base::Interval{2, 3}));
  EXPECT_EQ(ClippedTo({0, 10}, {20, 30}).duration(), 0);
  EXPECT_EQ(ClippedTo({20, 30}, {0, 10}).duration(), 0) << "never negative";
}

TEST(LocationKindKey, IsStableForScripts) {
  EXPECT_EQ(LocationKindKey(LocationKind::kIdleGap), "idle_gap");
  EXPECT_EQ(LocationKindKey(LocationKind::kLaunchWait), "launch_wait");
  EXPECT_EQ(LocationKindKey(LocationKind::kHostSync), "host_sync");
  EXPECT_EQ(LocationKindKey(LocationKind::kKernel), "kernel");
  EXPECT_EQ(LocationKindKey(LocationKind::kCommunication), "communication");
  EXPECT_EQ(LocationKindKey(LocationKind::kStep), "step");
  EXPECT_EQ(LocationKindKey(LocationKind::kAutotuning), "autotuning");
}

}  // namespace
}  // namespace ampprof::analyzers
