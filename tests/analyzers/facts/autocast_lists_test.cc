#include "analyzers/facts/autocast_lists.h"

#include <fstream>
#include <map>
#include <regex>
#include <string>

#include <gtest/gtest.h>

namespace ampprof::analyzers {
namespace {

TEST(AutocastLists, FindsOpsByTheirAtenNames) {
  for (const char* op : {"aten::mm", "mm", "aten::addmm", "aten::linear", "aten::conv2d", "aten::_convolution",
                         "aten::bmm", "aten::baddbmm", "aten::prelu", "aten::chain_matmul", "aten::linalg_multi_dot"}) {
    const AutocastEntry* entry = FindAutocastEntry(op);
    ASSERT_NE(entry, nullptr) << op;
    EXPECT_EQ(entry->policy, AutocastPolicy::kLowerPrecision) << op;
  }
  // fp32, fp32_set_opt_dtype and fp32_append_dtype are all FP32; an overload's name is its op's.
  for (const char* op : {"aten::cumsum", "aten::softmax", "aten::layer_norm", "aten::pow.Tensor_Scalar", "aten::norm"}) {
    const AutocastEntry* entry = FindAutocastEntry(op);
    ASSERT_NE(entry, nullptr) << op;
    EXPECT_EQ(entry->policy, AutocastPolicy::kFp32) << op;
  }
  EXPECT_EQ(FindAutocastEntry("aten::bilinear")->policy, AutocastPolicy::kPromote);
  EXPECT_EQ(FindAutocastEntry("aten::binary_cross_entropy")->policy, AutocastPolicy::kBanned);
  EXPECT_EQ(FindAutocastEntry("aten::cudnn_convolution")->lists, AutocastLists::kOlder);
  EXPECT_EQ(FindAutocastEntry("aten::linalg_vecdot")->lists, AutocastLists::kNewer);
  EXPECT_EQ(FindAutocastEntry("aten::relu"), nullptr) << "no rule: it runs in its inputs' type";
  EXPECT_EQ(FindAutocastEntry("aten::mmx"), nullptr);
}

// docs/autocast-lists.md's table is the code's: every op of the page with its policy and list, and no other.
TEST(AutocastLists, ThePageListsTheTable) {
  std::ifstream page(std::string(AMPPROF_SOURCE_DIR) + "/docs/autocast-lists.md");
  ASSERT_TRUE(page) << "docs/autocast-lists.md";
  const std::map<std::string, AutocastPolicy> policies = {{"lower_precision_fp", AutocastPolicy::kLowerPrecision},
                                                          {"fp32", AutocastPolicy::kFp32},
                                                          {"promote", AutocastPolicy::kPromote},
                                                          {"banned", AutocastPolicy::kBanned}};
  const std::regex row(R"(^\| (\w+) \| (.*) \|$)");
  const std::regex op(R"(`(\w+)`( \((older|newer)\))?)");
  size_t listed = 0;
  for (std::string line; std::getline(page, line);) {
    std::smatch match;
    if (!std::regex_match(line, match, row) || !policies.contains(match[1].str())) continue;
    const std::string ops = match[2].str();
    for (auto it = std::sregex_iterator(ops.begin(), ops.end(), op); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1].str();
      const AutocastEntry* entry = FindAutocastEntry(name);
      ASSERT_NE(entry, nullptr) << name;
      EXPECT_EQ(entry->policy, policies.at(match[1].str())) << name;
      const std::string lists = (*it)[3].str();
      EXPECT_EQ(entry->lists, lists == "older"   ? AutocastLists::kOlder
                              : lists == "newer" ? AutocastLists::kNewer
                                                 : AutocastLists::kBoth)
          << name;
      ++listed;
    }
  }
  EXPECT_EQ(listed, AutocastEntries().size());
}

}  // namespace
}  // namespace ampprof::analyzers
