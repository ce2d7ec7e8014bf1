#include "src/base/string_pool.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace ampprof::base {
namespace {

TEST(StringPoolTest, IdZeroIsEmptyString) {
  StringPool pool;
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_TRUE(pool.Contains(kEmptyStringId));
  EXPECT_EQ(pool.Get(kEmptyStringId), "");
  EXPECT_EQ(pool.Intern(""), kEmptyStringId);
  EXPECT_EQ(pool.Intern(std::string_view()), kEmptyStringId);
  EXPECT_EQ(pool.Find(""), kEmptyStringId);
  EXPECT_EQ(pool.size(), 1u);
}

TEST(StringPoolTest, InterningTwiceGivesSameId) {
  StringPool pool;
  const StringId gemm = pool.Intern("ampere_sgemm_128x64_nn");
  const std::string copy = "ampere_sgemm_128x64_nn";  // different storage, same text
  EXPECT_EQ(pool.Intern(copy), gemm);
  EXPECT_EQ(pool.size(), 2u);
  EXPECT_NE(gemm, kEmptyStringId);
}

TEST(StringPoolTest, IdsAreDenseAndInOrder) {
  StringPool pool;
  const std::vector<std::string> names = {"a", "b", "cudaLaunchKernel", "c", "d"};
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(pool.Intern(names[i]).value, i + 1);
  }
  // Re-interning does not allocate new ids.
  EXPECT_EQ(pool.Intern("b").value, 2u);
  EXPECT_EQ(pool.Intern("e").value, names.size() + 1);
  EXPECT_EQ(pool.size(), names.size() + 2);
}

TEST(StringPoolTest, GetReturnsEqualText) {
  StringPool pool;
  std::string text = "volta_fp16_s884gemm";
  const StringId id = pool.Intern(text);
  text[0] = 'X';  // the pool keeps its own copy
  EXPECT_EQ(pool.Get(id), "volta_fp16_s884gemm");
}

TEST(StringPoolTest, ViewsStayValidAfterManyInterns) {
  StringPool pool;
  const StringId first_id = pool.Intern("first");
  const std::string_view first_view = pool.Get(first_id);
  const char* const first_data = first_view.data();

  constexpr int kCount = 200'000;
  std::vector<StringId> ids;
  ids.reserve(kCount);
  for (int i = 0; i < kCount; ++i) ids.push_back(pool.Intern("name_" + std::to_string(i)));
  EXPECT_EQ(pool.size(), static_cast<size_t>(kCount) + 2);

  EXPECT_EQ(first_view, "first");
  EXPECT_EQ(pool.Get(first_id).data(), first_data);
  EXPECT_EQ(pool.Find("first"), first_id);
  for (int i = 0; i < kCount; i += 997) {
    const std::string text = "name_" + std::to_string(i);
    EXPECT_EQ(pool.Get(ids[i]), text);
    EXPECT_EQ(pool.Find(text), ids[i]);
    EXPECT_EQ(ids[i].value, static_cast<uint32_t>(i) + 2);
  }
  EXPECT_EQ(pool.Get(ids.back()), "name_" + std::to_string(kCount - 1));
}

TEST(StringPoolTest, LongStringsRoundTrip) {
  StringPool pool;
  const StringId before = pool.Intern("before");
  const std::string long_a(100 * 1024, 'a');
  std::string long_b(100 * 1024, 'b');
  long_b[12345] = 'x';
  const StringId a = pool.Intern(long_a);
  const std::string_view a_view = pool.Get(a);
  const StringId after_a = pool.Intern("after_a");
  const StringId b = pool.Intern(long_b);
  const StringId after_b = pool.Intern("after_b");

  // Many short strings after the long ones, filling several shared blocks.
  std::vector<std::pair<StringId, std::string>> shorts;
  for (int i = 0; i < 20'000; ++i) {
    std::string text = "short_string_" + std::to_string(i);
    shorts.emplace_back(pool.Intern(text), std::move(text));
  }
  // A string just over the long-string threshold and one just under.
  const std::string just_over(16 * 1024 + 1, 'o');
  const std::string just_under(16 * 1024, 'u');
  const StringId over = pool.Intern(just_over);
  const StringId under = pool.Intern(just_under);
  const StringId last = pool.Intern("last");

  EXPECT_EQ(pool.Get(before), "before");
  EXPECT_EQ(pool.Get(a), long_a);
  EXPECT_EQ(a_view, long_a);
  EXPECT_EQ(pool.Get(after_a), "after_a");
  EXPECT_EQ(pool.Get(b), long_b);
  EXPECT_EQ(pool.Get(after_b), "after_b");
  EXPECT_EQ(pool.Get(over), just_over);
  EXPECT_EQ(pool.Get(under), just_under);
  EXPECT_EQ(pool.Get(last), "last");
  for (const auto& [id, text] : shorts) ASSERT_EQ(pool.Get(id), text);
  EXPECT_EQ(pool.Intern(long_a), a);
  EXPECT_EQ(pool.Find(long_b), b);
}

TEST(StringPoolTest, LongStringFirst) {
  StringPool pool;
  const std::string long_text(100 * 1024, 'z');
  const StringId long_id = pool.Intern(long_text);
  const StringId short_id = pool.Intern("short");
  const StringId short_id2 = pool.Intern("short2");
  EXPECT_EQ(pool.Get(long_id), long_text);
  EXPECT_EQ(pool.Get(short_id), "short");
  EXPECT_EQ(pool.Get(short_id2), "short2");
}

TEST(StringPoolTest, EmbeddedNulIsDistinctFromPrefix) {
  StringPool pool;
  const std::string_view prefix("ab", 2);
  const std::string_view with_nul("ab\0c", 4);
  const std::string_view trailing_nul("ab\0", 3);
  const StringId p = pool.Intern(prefix);
  const StringId n = pool.Intern(with_nul);
  const StringId t = pool.Intern(trailing_nul);
  EXPECT_NE(p, n);
  EXPECT_NE(p, t);
  EXPECT_NE(n, t);
  EXPECT_EQ(pool.Get(n), with_nul);
  EXPECT_EQ(pool.Get(n).size(), 4u);
  EXPECT_EQ(pool.Get(t).size(), 3u);
  EXPECT_EQ(pool.Get(p), "ab");
  EXPECT_EQ(pool.Intern(with_nul), n);
  const std::string_view just_nul("\0", 1);
  EXPECT_NE(pool.Intern(just_nul), kEmptyStringId);
}

TEST(StringPoolTest, FindUnknownReturnsNullopt) {
  StringPool pool;
  EXPECT_EQ(pool.Find("missing"), std::nullopt);
  const StringId id = pool.Intern("present");
  EXPECT_EQ(pool.Find("present"), id);
  EXPECT_EQ(pool.Find("missing"), std::nullopt);
  EXPECT_EQ(pool.Find("presen"), std::nullopt);
  // Find does not intern.
  EXPECT_EQ(pool.size(), 2u);
}

TEST(StringPoolTest, Contains) {
  StringPool pool;
  EXPECT_TRUE(pool.Contains(StringId{0}));
  EXPECT_FALSE(pool.Contains(StringId{1}));
  pool.Intern("x");
  EXPECT_TRUE(pool.Contains(StringId{1}));
  EXPECT_FALSE(pool.Contains(StringId{2}));
  EXPECT_FALSE(pool.Contains(StringId{UINT32_MAX}));
}

TEST(StringPoolTest, MoveKeepsContents) {
  StringPool pool;
  const StringId id = pool.Intern("moved");
  const std::string_view view = pool.Get(id);
  StringPool other = std::move(pool);
  EXPECT_EQ(other.Get(id), "moved");
  EXPECT_EQ(other.Get(id).data(), view.data());
  EXPECT_EQ(other.Intern("moved"), id);
}

TEST(StringPoolTest, StringIdOrderingAndHash) {
  EXPECT_LT(StringId{1}, StringId{2});
  EXPECT_EQ(StringId{3}, StringId{3});
  std::unordered_set<StringId> set = {StringId{1}, StringId{2}, StringId{1}};
  EXPECT_EQ(set.size(), 2u);
}

TEST(StringPoolTest, MemoryBytesGrows) {
  StringPool pool;
  const size_t empty = pool.memory_bytes();
  pool.Intern(std::string(100 * 1024, 'm'));
  EXPECT_GE(pool.memory_bytes(), empty + 100 * 1024);
}

TEST(StringPoolDeathTest, GetOutOfRangeAborts) {
  StringPool pool;
  EXPECT_DEATH((void)pool.Get(StringId{5}), "string id out of range");
}

}  // namespace
}  // namespace ampprof::base
