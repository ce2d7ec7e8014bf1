#ifndef AMPPROF_ANALYZERS_FACTS_KERNEL_CLASSIFIER_H_
#define AMPPROF_ANALYZERS_FACTS_KERNEL_CLASSIFIER_H_

// What a GPU kernel is, from its name alone: its category (GEMM, attention, communication, cast, ...),
// the math unit it runs on (Tensor Cores or CUDA cores), its data type, the library that launched it,
// and for Tensor-Core kernels the vector alignment of the variant. Every analyzer reads kernels
// through this.
//
//   const KernelClass k = ClassifyKernel("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn");
//   k.category == KernelCategory::kGemm;   k.math == MathUnit::kTensorCore;   k.dtype == DataType::kFp16
//
// The knowledge is the rule table (kernel_rules.h, analyzers/facts/kernel_rules.txt, docs/kernel-rules.md):
// each rule matches words of the name and concludes a class; the first rule that matches decides.
// This file applies the table: a mangled name is demangled, the rules match the kernel's own name
// (kernel_name.h), and the deciding rule's conclusions become the KernelClass. Precision rules that
// hold for every rule are applied here:
//   - the math unit is never guessed: a GEMM/convolution/attention rule says tensor_cores, cuda_cores
//     or unknown, and only TF32, FP8 or FP4 operands (formats no CUDA-core instruction computes in)
//     turn unknown into Tensor Cores;
//   - FP32 operands on Tensor Cores are TF32;
//   - a name no rule knows is kUnknown in every field it does not know, never a guess.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/facts/kernel_class.h"
#include "analyzers/facts/kernel_rules.h"
#include "analyzers/facts/substring_matcher.h"
#include "src/base/status.h"

namespace ampprof::analyzers {

class KernelClassifier {
 public:
  // The classifier of the built-in table, built on first use.
  static const KernelClassifier& Builtin();

  // The built-in table with `user_rules` in front of it: a user rule is tried before every built-in
  // one, and replaces the built-in rule of the same id. A user rule with an example must decide it.
  static base::StatusOr<KernelClassifier> WithUserRules(std::vector<KernelRule> user_rules);

  // WithUserRules of the rules in the file at `path` (read and parsed; errors name the file and line).
  static base::StatusOr<KernelClassifier> FromRulesFile(const std::string& path);

  // Only `rules`, in their order (tests, and the built-in table itself).
  static base::StatusOr<KernelClassifier> FromRules(std::vector<KernelRule> rules);

  struct Decision {
    KernelClass kernel;
    const KernelRule* rule = nullptr;          // the rule that decided the class; null when none matched
    const KernelRule* library_rule = nullptr;  // the library-rule that named the library, if one did
  };
  Decision Decide(std::string_view name) const;
  KernelClass Classify(std::string_view name) const { return Decide(name).kernel; }

  // The first library-rule whose words `name` holds, whether or not the deciding rule names the
  // library itself; null when none does. (Checks that a library-rule decides its example.)
  const KernelRule* LibraryRuleFor(std::string_view name) const;

  std::span<const KernelRule> rules() const { return rules_; }
  std::span<const KernelRule> library_rules() const { return library_rules_; }

 private:
  // A rule's match and unless words as indices into the matcher's patterns.
  struct CompiledRule {
    std::vector<std::vector<uint32_t>> all_of_any;
    std::vector<uint32_t> none_of;
  };

  KernelClassifier() = default;
  void Compile();
  static bool Holds(const CompiledRule& rule, std::span<const uint64_t> found);
  KernelClass Conclude(const KernelRule& rule, std::string_view own_name) const;
  // The matcher's findings on a name's own name (demangled first).
  std::vector<uint64_t> Find(std::string_view name, std::string& demangled_storage, std::string_view& own_name) const;
  const KernelRule* FirstLibraryRule(std::span<const uint64_t> found) const;

  std::vector<KernelRule> rules_;
  std::vector<KernelRule> library_rules_;
  std::vector<CompiledRule> compiled_rules_;
  std::vector<CompiledRule> compiled_library_rules_;
  SubstringMatcher matcher_;
};

// The classifier every analyzer reads kernels through: the built-in table, unless a
// ScopedKernelClassifier installed another (a command's --kernel-rules). Process-wide, so that worker
// threads see the same rules; a command installs it once, before it reads a trace.
const KernelClassifier& ActiveKernelClassifier();

// ActiveKernelClassifier().Classify(name): the built-in rules unless a command installed a user's.
KernelClass ClassifyKernel(std::string_view name);

// Makes `classifier` the active one until this object goes away (then the previous one is active
// again); null keeps the active one. `classifier` must outlive this object.
class ScopedKernelClassifier {
 public:
  explicit ScopedKernelClassifier(const KernelClassifier* classifier);
  ~ScopedKernelClassifier();
  ScopedKernelClassifier(const ScopedKernelClassifier&) = delete;
  ScopedKernelClassifier& operator=(const ScopedKernelClassifier&) = delete;

 private:
  const KernelClassifier* previous_;
};

// What a report says next to a kernel no rule knows: how to teach ampprof its name.
inline constexpr std::string_view kUnknownKernelHint = "no rule knows it; see --kernel-rules, docs/kernel-rules.md";

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_KERNEL_CLASSIFIER_H_
