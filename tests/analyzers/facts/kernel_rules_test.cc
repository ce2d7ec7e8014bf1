// The kernel rule table and its parser: every built-in rule is documented, has a real example that it
// (and no rule before it) decides; a user's rules are tried first, replace a built-in rule of the same
// id, and a malformed file is refused with one line naming the file, the line and the problem.

#include "analyzers/facts/kernel_rules.h"

#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "analyzers/facts/kernel_classifier.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::analyzers {
namespace {

constexpr std::string_view kUserRule = R"(
# a site's own kernels
rule site.my_gemm
  match     my_tiled_gemm
  category  gemm
  unit      tensor_cores
  dtype     name
  library   other
  source    our kernels/gemm.cu
  example   my_tiled_gemm_bf16_128x128
)";

TEST(KernelRules, TheBuiltInTableParses) {
  const auto rules = ParseKernelRules(BuiltinKernelRulesText(), kBuiltinKernelRulesFile);
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  EXPECT_GE(rules->size(), 80u);
  EXPECT_EQ(KernelClassifier::Builtin().rules().size() + KernelClassifier::Builtin().library_rules().size(),
            rules->size());
}

TEST(KernelRules, EveryBuiltInRuleSaysWhereItComesFromAndGivesAnExample) {
  std::set<std::string> examples;
  const KernelClassifier& builtin = KernelClassifier::Builtin();
  for (const auto rules : {builtin.rules(), builtin.library_rules()}) {
    for (const KernelRule& rule : rules) {
      SCOPED_TRACE(rule.id);
      EXPECT_GE(rule.source.size(), 40u) << "a source names the library, its version and a public source";
      EXPECT_FALSE(rule.example.empty());
    }
  }
}

// The example is what a rule's test checks: the rule must decide it, and no rule before it may (else
// the rule could be dead: never the first to match anything).
TEST(KernelRules, EveryRuleDecidesItsOwnExample) {
  const KernelClassifier& builtin = KernelClassifier::Builtin();
  for (const KernelRule& rule : builtin.rules()) {
    SCOPED_TRACE(rule.id + " at " + rule.Location());
    const KernelClassifier::Decision decision = builtin.Decide(rule.example);
    ASSERT_NE(decision.rule, nullptr) << "the example matches no rule";
    EXPECT_EQ(decision.rule->id, rule.id);
  }
  for (const KernelRule& rule : builtin.library_rules()) {
    SCOPED_TRACE(rule.id + " at " + rule.Location());
    const KernelRule* decider = builtin.LibraryRuleFor(rule.example);
    ASSERT_NE(decider, nullptr) << "the example matches no library rule";
    EXPECT_EQ(decider->id, rule.id);
  }
}

TEST(KernelRules, ParsesEveryField) {
  const auto rules = ParseKernelRules(R"(
rule a.b
  match   ^Foo_ | bar
  match   baz
  unless  qux
  category gemm
  unit    cuda_cores
  dtype   base field:2 template narrowest leading nvjet name fp16
  library cudnn
  grouped yes
  matrix_vector yes
  source  one
  source  two
  example foo_bar_baz

library-rule lib.x
  match   xlib::
  library vllm
)", "test.rules");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  ASSERT_EQ(rules->size(), 2u);
  const KernelRule& rule = (*rules)[0];
  EXPECT_EQ(rule.kind, KernelRule::Kind::kClass);
  EXPECT_EQ(rule.Location(), "test.rules:2");
  ASSERT_EQ(rule.match.size(), 2u);
  EXPECT_EQ(rule.match[0], (std::vector<RulePattern>{{"foo_", true}, {"bar", false}}));
  EXPECT_EQ(rule.unless, (std::vector<RulePattern>{{"qux", false}}));
  EXPECT_EQ(rule.category, KernelCategory::kGemm);
  EXPECT_EQ(rule.unit, RuleUnit::kCudaCores);
  ASSERT_EQ(rule.dtype.size(), 8u);
  EXPECT_EQ(rule.dtype[1].kind, DtypeSource::Kind::kField);
  EXPECT_EQ(rule.dtype[1].field, 2);
  EXPECT_EQ(rule.dtype[7].fixed, DataType::kFp16);
  EXPECT_EQ(rule.library, KernelLibrary::kCudnn);
  EXPECT_TRUE(rule.grouped);
  EXPECT_TRUE(rule.matrix_vector);
  EXPECT_EQ(rule.source, "one two");
  EXPECT_EQ(rule.example, "foo_bar_baz");
  EXPECT_EQ((*rules)[1].kind, KernelRule::Kind::kLibrary);
  EXPECT_EQ((*rules)[1].library, KernelLibrary::kVllm);
}

TEST(KernelRules, MalformedFilesAreRefusedWithTheFileTheLineAndTheProblem) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"match foo\n", "r.txt:1: 'match' outside a rule: a rule starts with a 'rule ID' or 'library-rule ID' line"},
      {"rule Bad Id\n", "r.txt:1: 'Bad Id' is not a rule id (lower-case letters, digits, '.', '_' and '-')"},
      {"rule a\n  category gemm\n", "r.txt:1: rule 'a' has no 'match' line"},
      {"rule a\n  match x\n", "r.txt:1: rule 'a' has no 'category' line"},
      {"rule a\n  match x\n  category gemm\n",
       "r.txt:1: rule 'a' has no 'unit' line (a gemm rule must say tensor_cores, cuda_cores, unknown or none)"},
      {"rule a\n  match x\n  category copy\n  unit cuda_cores\n",
       "r.txt:1: rule 'a': only GEMM, convolution and attention kernels have a math unit"},
      {"\n\nrule a\n  match x\n  catgory gemm\n",
       "r.txt:5: unknown field 'catgory' (expected match, unless, category, unit, dtype, library, grouped, "
       "matrix_vector, source or example)"},
      {"rule a\n  match x\n  category gemm\n  unit unknown\n  matrix_vector maybe\n",
       "r.txt:5: matrix_vector is 'yes' or 'no', not 'maybe'"},
      {"rule a\n  match x\n  category convolution\n  unit unknown\n  matrix_vector yes\n",
       "r.txt:1: rule 'a': only a gemm rule can say matrix_vector yes"},
      {"rule a\n  match x |  | y\n", "r.txt:2: an empty word in 'x |  | y' (words are separated by '|')"},
      {"rule a\n  match ^\n", "r.txt:2: an empty word in '^' (words are separated by '|')"},
      {"rule a\n  match x\n  unit fast\n", "r.txt:3: unknown unit 'fast' (one of: tensor_cores, cuda_cores, unknown, none)"},
      {"rule a\n  match x\n  grouped maybe\n", "r.txt:3: grouped is 'yes' or 'no', not 'maybe'"},
      {"rule a\n  match x\n  dtype field:x\n", "r.txt:3: 'field:x' is not a field number (field:0 to field:64)"},
      {"rule a\n  match x\n  category gemm\n  category copy\n", "r.txt:4: 'category' given twice in rule 'a'"},
      {"rule a\n  match x\n  example\n", "r.txt:3: 'example' needs a value"},
      {"rule a\n  match x\n  category copy\nrule a\n  match y\n  category copy\n",
       "r.txt:4: rule 'a' is defined twice (first at line 1)"},
      {"library-rule l\n  match x\n  category copy\n",
       "r.txt:3: 'category' in library-rule 'l': a library rule only names a library"},
      {"library-rule l\n  match x\n", "r.txt:1: library-rule 'l' has no 'library' line"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const auto rules = ParseKernelRules(c.text, "r.txt");
    ASSERT_FALSE(rules.ok());
    EXPECT_EQ(rules.status().message(), c.message);
  }
  // Unknown values list what is valid.
  const auto category = ParseKernelRules("rule a\n  match x\n  category gem\n", "r.txt");
  EXPECT_TRUE(category.status().message().starts_with("r.txt:3: unknown category 'gem' (one of: unknown, gemm, "));
  const auto dtype = ParseKernelRules("rule a\n  match x\n  category copy\n  dtype float\n", "r.txt");
  EXPECT_TRUE(dtype.status().message().starts_with("r.txt:4: unknown dtype 'float' (a type: unknown, fp64, "));
  const auto library = ParseKernelRules("rule a\n  match x\n  category copy\n  library cuda\n", "r.txt");
  EXPECT_TRUE(library.status().message().starts_with("r.txt:4: unknown library 'cuda' (one of: unknown, cublas, "));
}

TEST(KernelRules, CommentsAndBlankLinesAndCarriageReturnsAreIgnored) {
  const auto rules = ParseKernelRules("# comment\r\n\r\nrule a\r\n  # inside\r\n  match x\r\n  category copy\r\n", "r");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  EXPECT_EQ((*rules)[0].category, KernelCategory::kCopy);
  EXPECT_EQ((*rules)[0].match[0][0].text, "x");
}

TEST(KernelRules, AUserRuleChangesAClassification) {
  const std::string name = "my_tiled_gemm_bf16_128x128";
  // Built in, only the words speak (generic.matrix_product): a GEMM on an unknown unit, BF16 by its name.
  EXPECT_EQ(ClassifyKernel(name).category, KernelCategory::kGemm);
  EXPECT_EQ(ClassifyKernel(name).math, MathUnit::kUnknown);
  EXPECT_EQ(ClassifyKernel(name).dtype, DataType::kBf16);
  auto user = ParseKernelRules(kUserRule, "mine.rules");
  ASSERT_TRUE(user.ok()) << user.status().message();
  const auto classifier = KernelClassifier::WithUserRules(*user);
  ASSERT_TRUE(classifier.ok()) << classifier.status().message();
  const KernelClassifier::Decision decision = classifier->Decide(name);
  ASSERT_NE(decision.rule, nullptr);
  EXPECT_EQ(decision.rule->id, "site.my_gemm");
  EXPECT_EQ(decision.kernel,
            (KernelClass{KernelCategory::kGemm, MathUnit::kTensorCore, DataType::kBf16, KernelLibrary::kOther, 0, false}));
  // The built-in rules still apply to everything else.
  EXPECT_EQ(classifier->Classify("volta_sgemm_128x64_nn"), ClassifyKernel("volta_sgemm_128x64_nn"));
}

TEST(KernelRules, AScopedClassifierIsWhatClassifyKernelUsesUntilItGoesAway) {
  const std::string name = "my_tiled_gemm_bf16_128x128";
  auto user = ParseKernelRules(kUserRule, "mine.rules");
  ASSERT_TRUE(user.ok()) << user.status().message();
  const auto classifier = KernelClassifier::WithUserRules(*user);
  ASSERT_TRUE(classifier.ok()) << classifier.status().message();
  {
    const ScopedKernelClassifier active(&*classifier);
    EXPECT_EQ(ClassifyKernel(name).math, MathUnit::kTensorCore);
    EXPECT_EQ(&ActiveKernelClassifier(), &*classifier);
    {
      const ScopedKernelClassifier keep(nullptr);  // null keeps the active one
      EXPECT_EQ(ClassifyKernel(name).math, MathUnit::kTensorCore);
    }
    EXPECT_EQ(ClassifyKernel(name).math, MathUnit::kTensorCore);
  }
  EXPECT_EQ(&ActiveKernelClassifier(), &KernelClassifier::Builtin());
  EXPECT_EQ(ClassifyKernel(name).math, MathUnit::kUnknown);
}

TEST(KernelRules, AUserRuleComesBeforeTheBuiltInOnesAndReplacesOneOfTheSameId) {
  auto user = ParseKernelRules(R"(
rule cublas.simt_gemm
  match     no_such_kernel_family
  category  other

rule site.sgemm_is_mine
  match     volta_sgemm
  category  gemm
  unit      unknown
)", "mine.rules");
  ASSERT_TRUE(user.ok()) << user.status().message();
  const auto classifier = KernelClassifier::WithUserRules(*user);
  ASSERT_TRUE(classifier.ok()) << classifier.status().message();
  EXPECT_EQ(classifier->Decide("volta_sgemm_128x64_nn").rule->id, "site.sgemm_is_mine");
  EXPECT_EQ(classifier->Classify("volta_sgemm_128x64_nn").math, MathUnit::kUnknown);
  // ampere_sgemm was the built-in cublas.simt_gemm's: that rule is gone, replaced by the user's; only the
  // generic fallback still knows it is a GEMM, and it does not claim a unit.
  EXPECT_EQ(classifier->Decide("ampere_sgemm_128x64_nn").rule->id, "generic.matrix_product");
  EXPECT_EQ(classifier->Classify("ampere_sgemm_128x64_nn").math, MathUnit::kUnknown);
  size_t with_that_id = 0;
  for (const KernelRule& rule : classifier->rules()) with_that_id += rule.id == "cublas.simt_gemm";
  EXPECT_EQ(with_that_id, 1u);
}

TEST(KernelRules, AUserRuleMustDecideItsOwnExample) {
  auto shadowed = ParseKernelRules(R"(
rule site.first
  match     tiled
  category  copy

rule site.second
  match     my_tiled_gemm
  category  other
  example   my_tiled_gemm_bf16
)", "mine.rules");
  ASSERT_TRUE(shadowed.ok());
  const auto first_wins = KernelClassifier::WithUserRules(*shadowed);
  ASSERT_FALSE(first_wins.ok());
  EXPECT_EQ(first_wins.status().message(),
            "mine.rules:6: rule 'site.second': its example is decided by rule 'site.first' (mine.rules:2), which "
            "comes first");

  auto misspelt = ParseKernelRules("rule site.x\n  match tild\n  category copy\n  example my_tiled_copy\n", "m");
  ASSERT_TRUE(misspelt.ok());
  const auto no_match = KernelClassifier::WithUserRules(*misspelt);
  ASSERT_FALSE(no_match.ok());
  EXPECT_EQ(no_match.status().message(), "m:1: rule 'site.x': its example matches no rule (check its match words)");
}

TEST(KernelRules, FromRulesFileNamesTheFileInEveryError) {
  ampprof::testing::TempDir dir;
  const std::string path = dir.File("bad.rules");
  std::ofstream(path) << "rule a\n  match x\n  category gemmm\n";
  const auto bad = KernelClassifier::FromRulesFile(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().message().starts_with(path + ":3: unknown category 'gemmm'")) << bad.status().message();

  const auto missing = KernelClassifier::FromRulesFile(path + ".missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), path + ".missing: cannot open the kernel rules file");

  const std::string good = dir.File("good.rules");
  std::ofstream(good) << kUserRule;
  const auto loaded = KernelClassifier::FromRulesFile(good);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->Decide("my_tiled_gemm_bf16_128x128").rule->Location(), good + ":3");
}

TEST(KernelRules, WordsIgnoreCaseAndACaretAnchorsAtTheStartOfTheOwnName) {
  auto rules = ParseKernelRules(R"(
rule anchored
  match     ^Foo
  category  copy

rule anywhere
  match     BAR
  category  other
)", "r");
  ASSERT_TRUE(rules.ok());
  const auto classifier = KernelClassifier::FromRules(*rules);
  ASSERT_TRUE(classifier.ok());
  EXPECT_EQ(classifier->Classify("foo_kernel").category, KernelCategory::kCopy);
  EXPECT_EQ(classifier->Classify("void FOO_kernel<int>(int*)").category, KernelCategory::kCopy);  // own name
  EXPECT_EQ(classifier->Classify("my_foo_kernel").category, KernelCategory::kUnknown);
  EXPECT_EQ(classifier->Classify("xbarx").category, KernelCategory::kOther);
  // Parameters are not the kernel's own name.
  EXPECT_EQ(classifier->Classify("kernel(bar*)").category, KernelCategory::kUnknown);
}

}  // namespace
}  // namespace ampprof::analyzers
