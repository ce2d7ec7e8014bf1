#include "collectors/cupti/cupti_enums.h"

#include <cupti_activity.h>
#include <gtest/gtest.h>

namespace ampprof::cupti {
namespace {

TEST(CuptiEnumsTest, ValuesCuptiDoesNotDefineAreNullopt) {
  EXPECT_EQ(MemcpyKindOf(CUPTI_ACTIVITY_MEMCPY_KIND_PTOP + 1), std::nullopt);
  EXPECT_EQ(MemoryKindOf(CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC + 1), std::nullopt);
  EXPECT_EQ(SyncKindOf(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE + 1), std::nullopt);
  EXPECT_EQ(OverheadKindOf(2), std::nullopt);
  EXPECT_EQ(MemoryOperationOf(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE + 1), std::nullopt);
}

TEST(CuptiEnumsTest, CuptisOwnUnknownIsUnknownNotAnError) {
  EXPECT_EQ(MemcpyKindOf(CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN), records::MemcpyKind::kUnknown);
  EXPECT_EQ(MemoryKindOf(CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN), records::MemoryKind::kUnknown);
  EXPECT_EQ(SyncKindOf(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN), records::SyncKind::kUnknown);
  EXPECT_EQ(OverheadKindOf(CUPTI_ACTIVITY_OVERHEAD_UNKNOWN), records::OverheadKind::kUnknown);
  // INVALID has no records value: a memory record must be an allocation or a release.
  EXPECT_EQ(MemoryOperationOf(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_INVALID), std::nullopt);
}

TEST(CuptiEnumsTest, MemoryKinds) {
  EXPECT_EQ(MemoryKindOf(CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE), records::MemoryKind::kPageable);
  EXPECT_EQ(MemoryKindOf(CUPTI_ACTIVITY_MEMORY_KIND_PINNED), records::MemoryKind::kPinned);
  EXPECT_EQ(MemoryKindOf(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE), records::MemoryKind::kDevice);
  EXPECT_EQ(MemoryKindOf(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC), records::MemoryKind::kDevice);
  EXPECT_EQ(MemoryKindOf(CUPTI_ACTIVITY_MEMORY_KIND_ARRAY), records::MemoryKind::kArray);
  EXPECT_EQ(MemoryKindOf(CUPTI_ACTIVITY_MEMORY_KIND_MANAGED), records::MemoryKind::kManaged);
}

TEST(FormatGpuUuidTest, LikeNvidiaSmi) {
  char bytes[16] = {};
  for (int i = 0; i < 16; ++i) bytes[i] = static_cast<char>(0xf0 + i);
  EXPECT_EQ(FormatGpuUuid(bytes), "GPU-f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff");
}

}  // namespace
}  // namespace ampprof::cupti
