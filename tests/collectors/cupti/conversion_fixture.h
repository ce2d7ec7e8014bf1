#ifndef AMPPROF_TESTS_COLLECTORS_CUPTI_CONVERSION_FIXTURE_H_
#define AMPPROF_TESTS_COLLECTORS_CUPTI_CONVERSION_FIXTURE_H_

// The fixture of the record conversion tests: CUPTI records are fabricated the way CUPTI fills them,
// a zeroed struct of the version this header defines with the kind and the fields under test set, and
// each goes through ConvertRecord, the dispatcher the collector calls, so that the kind -> struct
// mapping is tested along with the fields.

#include <cstring>
#include <initializer_list>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

#include "collectors/cupti/record_conversion.h"
#include "collectors/records/record_set.h"

namespace ampprof::cupti {

using base::Stat;
using records::RecordSet;

inline constexpr uint32_t kPid = 4242;

template <typename Record>
Record Zeroed(CUpti_ActivityKind kind) {
  Record record;
  std::memset(&record, 0, sizeof(record));
  record.kind = kind;
  return record;
}

class RecordConversionTest : public ::testing::Test {
 protected:
  template <typename Record>
  void Convert(const Record& record) {
    ConvertRecord(reinterpret_cast<const CUpti_Activity*>(&record), context_, set_);
  }
  int64_t StatValue(Stat stat) const { return set_.stats().Get(stat); }
  std::string_view Text(base::StringId id) const { return set_.Text(id); }
  // Only the stats named are non-zero.
  void ExpectOnlyStats(std::initializer_list<std::pair<Stat, int64_t>> expected) const {
    base::Stats wanted;
    for (const auto& [stat, value] : expected) wanted.Set(stat, value);
    for (const base::StatEntry& entry : set_.stats().NonZero()) {
      EXPECT_EQ(entry.value, wanted.Get(entry.stat)) << entry.info->name;
    }
    for (const base::StatEntry& entry : wanted.NonZero()) {
      EXPECT_EQ(set_.stats().Get(entry.stat), entry.value) << entry.info->name;
    }
  }

  ConversionContext context_{kPid};
  RecordSet set_;
};

// A kernel record with every field the conversion reads set.
inline CUpti_ActivityKernel10 SampleKernel(const char* name) {
  auto kernel = Zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  kernel.start = 1'700'000'000'000'000'000;
  kernel.end = 1'700'000'000'000'012'345;
  kernel.deviceId = 1;
  kernel.contextId = 3;
  kernel.streamId = 7;
  kernel.correlationId = 99;
  kernel.name = name;
  kernel.gridX = 128;
  kernel.gridY = 2;
  kernel.gridZ = 1;
  kernel.blockX = 256;
  kernel.blockY = 1;
  kernel.blockZ = 1;
  kernel.registersPerThread = 40;
  kernel.staticSharedMemory = 1024;
  kernel.dynamicSharedMemory = 49152;
  kernel.graphId = 5;
  kernel.graphNodeId = 0x1234'5678'9abcULL;
  kernel.channelID = 3;  // no field in KernelRecord: not kept
  return kernel;
}

}  // namespace ampprof::cupti

#endif  // AMPPROF_TESTS_COLLECTORS_CUPTI_CONVERSION_FIXTURE_H_
