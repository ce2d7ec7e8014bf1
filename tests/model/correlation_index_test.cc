#include "src/model/correlation_index.h"

#include <gtest/gtest.h>

namespace ampprof::model {
namespace {

using records::ApiDomain;

TEST(CorrelationIndex, FindsDenseIds) {
  const std::vector<uint32_t> ids = {3, 1, 2, 0};
  const std::vector<ApiDomain> domains(4, ApiDomain::kRuntime);
  CorrelationIndex index;
  EXPECT_EQ(index.Build(ids, domains), 0u);
  EXPECT_EQ(index.Find(3), ApiCallRow(0));
  EXPECT_EQ(index.Find(1), ApiCallRow(1));
  EXPECT_EQ(index.Find(2), ApiCallRow(2));
  EXPECT_FALSE(index.Find(0).valid()) << "0 means no correlation";
  EXPECT_FALSE(index.Find(4).valid());
  EXPECT_FALSE(index.Find(UINT32_MAX).valid());
}

TEST(CorrelationIndex, FindsSparseIds) {
  const std::vector<uint32_t> ids = {4'000'000'000u, 7, 123'456'789};
  const std::vector<ApiDomain> domains(3, ApiDomain::kRuntime);
  CorrelationIndex index;
  index.Build(ids, domains);
  EXPECT_EQ(index.Find(4'000'000'000u), ApiCallRow(0));
  EXPECT_EQ(index.Find(7), ApiCallRow(1));
  EXPECT_EQ(index.Find(123'456'789), ApiCallRow(2));
  EXPECT_FALSE(index.Find(8).valid());
}

TEST(CorrelationIndex, RuntimeCallWinsASharedIdInBothLayouts) {
  for (uint32_t id : {5u, 3'000'000'000u}) {
    const std::vector<uint32_t> ids = {id, id, id};
    const std::vector<ApiDomain> domains = {ApiDomain::kDriver, ApiDomain::kRuntime, ApiDomain::kDriver};
    CorrelationIndex index;
    EXPECT_EQ(index.Build(ids, domains), 2u);
    EXPECT_EQ(index.Find(id), ApiCallRow(1)) << "id " << id;
  }
}

TEST(CorrelationIndex, OffsetsRowsOfASlice) {
  const std::vector<uint32_t> ids = {1, 2};
  const std::vector<ApiDomain> domains(2, ApiDomain::kRuntime);
  CorrelationIndex index;
  index.Build(ids, domains, /*first_row=*/10);
  EXPECT_EQ(index.Find(2), ApiCallRow(11));
}

}  // namespace
}  // namespace ampprof::model
