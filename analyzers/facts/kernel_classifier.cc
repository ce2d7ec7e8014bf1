#include "analyzers/facts/kernel_classifier.h"

#include <atomic>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "analyzers/facts/kernel_name.h"
#include "src/base/check.h"

namespace ampprof::analyzers {
namespace {

// A rules file is a few hundred lines; anything this large is not one.
constexpr std::streamsize kMaxRulesFileBytes = 16 << 20;

bool IsMatrix(KernelCategory category) {
  return category == KernelCategory::kGemm || category == KernelCategory::kConvolution ||
         category == KernelCategory::kAttention;
}

DataType ReadDtype(const std::vector<DtypeSource>& sources, std::string_view own_name) {
  for (const DtypeSource& source : sources) {
    DataType dtype = DataType::kUnknown;
    switch (source.kind) {
      case DtypeSource::Kind::kFixed: return source.fixed;
      case DtypeSource::Kind::kName: dtype = NameDtype(own_name); break;
      case DtypeSource::Kind::kBaseName: dtype = BaseNameDtype(own_name); break;
      case DtypeSource::Kind::kLeading: dtype = TemplateDtype(own_name, TemplatePick::kLeading); break;
      case DtypeSource::Kind::kField: dtype = FieldDtype(own_name, source.field); break;
      case DtypeSource::Kind::kTemplate: dtype = TemplateDtype(own_name, TemplatePick::kFirst); break;
      case DtypeSource::Kind::kNarrowest: dtype = TemplateDtype(own_name, TemplatePick::kNarrowest); break;
      case DtypeSource::Kind::kNvjet: dtype = NvjetDtype(own_name); break;
    }
    if (dtype != DataType::kUnknown) return dtype;
  }
  return DataType::kUnknown;
}

}  // namespace

const KernelClassifier& KernelClassifier::Builtin() {
  static const KernelClassifier* const kBuiltin = [] {
    auto rules = ParseKernelRules(BuiltinKernelRulesText(), kBuiltinKernelRulesFile);
    // The built-in table is part of the program: kernel_rules_test fails the build before a broken one
    // can ship.
    AMPPROF_CHECK_MSG(rules.ok(), rules.status().message().c_str());
    auto classifier = FromRules(std::move(*rules));
    AMPPROF_CHECK_MSG(classifier.ok(), classifier.status().message().c_str());
    return new KernelClassifier(std::move(*classifier));
  }();
  return *kBuiltin;
}

base::StatusOr<KernelClassifier> KernelClassifier::FromRules(std::vector<KernelRule> rules) {
  KernelClassifier classifier;
  for (KernelRule& rule : rules) {
    (rule.kind == KernelRule::Kind::kClass ? classifier.rules_ : classifier.library_rules_)
        .push_back(std::move(rule));
  }
  classifier.Compile();
  return classifier;
}

base::StatusOr<KernelClassifier> KernelClassifier::WithUserRules(std::vector<KernelRule> user_rules) {
  std::set<std::string, std::less<>> replaced;
  for (const KernelRule& rule : user_rules) replaced.insert(rule.id);
  std::vector<KernelRule> rules = user_rules;
  const KernelClassifier& builtin = Builtin();
  for (const auto* table : {&builtin.rules_, &builtin.library_rules_}) {
    for (const KernelRule& rule : *table) {
      if (!replaced.contains(rule.id)) rules.push_back(rule);
    }
  }
  ASSIGN_OR_RETURN(KernelClassifier classifier, FromRules(std::move(rules)));

  // A user's example that the user's own rule does not decide is a mistake in the rule (a misspelt
  // word, an earlier rule that wins): say so now rather than classify silently otherwise.
  for (const KernelRule& rule : user_rules) {
    if (rule.example.empty()) continue;
    const KernelRule* decider = rule.kind == KernelRule::Kind::kClass ? classifier.Decide(rule.example).rule
                                                                       : classifier.LibraryRuleFor(rule.example);
    if (decider == nullptr) {
      return base::InvalidDataError("{}: rule '{}': its example matches no rule (check its match words)",
                                    rule.Location(), rule.id);
    }
    if (decider->id != rule.id) {
      return base::InvalidDataError("{}: rule '{}': its example is decided by rule '{}' ({}), which comes first",
                                    rule.Location(), rule.id, decider->id, decider->Location());
    }
  }
  return classifier;
}

base::StatusOr<KernelClassifier> KernelClassifier::FromRulesFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return base::NotFoundError("{}: cannot open the kernel rules file", path);
  std::ostringstream text;
  char buffer[1 << 16];
  std::streamsize total = 0;
  while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
    total += file.gcount();
    if (total > kMaxRulesFileBytes) {
      return base::InvalidDataError("{}: larger than {} MiB, not a kernel rules file", path,
                                    kMaxRulesFileBytes >> 20);
    }
    text.write(buffer, file.gcount());
  }
  if (file.bad()) return base::IoError("{}: cannot read the kernel rules file", path);
  ASSIGN_OR_RETURN(std::vector<KernelRule> rules, ParseKernelRules(text.str(), path));
  return WithUserRules(std::move(rules));
}

void KernelClassifier::Compile() {
  std::vector<SubstringMatcher::Pattern> patterns;
  std::map<std::pair<std::string, bool>, uint32_t> index_of;
  const auto index = [&](const RulePattern& pattern) {
    auto [it, inserted] = index_of.try_emplace({pattern.text, pattern.anchored}, static_cast<uint32_t>(patterns.size()));
    if (inserted) patterns.push_back({pattern.text, pattern.anchored});
    return it->second;
  };
  const auto compile = [&](const KernelRule& rule) {
    CompiledRule compiled;
    for (const std::vector<RulePattern>& group : rule.match) {
      std::vector<uint32_t>& any = compiled.all_of_any.emplace_back();
      for (const RulePattern& pattern : group) any.push_back(index(pattern));
    }
    for (const RulePattern& pattern : rule.unless) compiled.none_of.push_back(index(pattern));
    return compiled;
  };
  compiled_rules_.clear();
  compiled_library_rules_.clear();
  for (const KernelRule& rule : rules_) compiled_rules_.push_back(compile(rule));
  for (const KernelRule& rule : library_rules_) compiled_library_rules_.push_back(compile(rule));
  matcher_ = SubstringMatcher(patterns);
}

bool KernelClassifier::Holds(const CompiledRule& rule, std::span<const uint64_t> found) {
  for (const std::vector<uint32_t>& any : rule.all_of_any) {
    bool one = false;
    for (uint32_t pattern : any) one = one || SubstringMatcher::Has(found, pattern);
    if (!one) return false;
  }
  for (uint32_t pattern : rule.none_of) {
    if (SubstringMatcher::Has(found, pattern)) return false;
  }
  return true;
}

KernelClass KernelClassifier::Conclude(const KernelRule& rule, std::string_view own_name) const {
  KernelClass k;
  k.category = rule.category;
  k.grouped = rule.grouped;
  k.matrix_vector = rule.matrix_vector;
  k.dtype = ReadDtype(rule.dtype, own_name);
  if (rule.library) k.library = *rule.library;
  switch (rule.unit) {
    case RuleUnit::kNone: k.math = MathUnit::kNotApplicable; break;
    case RuleUnit::kCudaCores: k.math = MathUnit::kCudaCore; break;
    case RuleUnit::kTensorCores:
      // FP32 operands on Tensor Cores are TF32, whatever the name spells them as.
      if (k.dtype == DataType::kFp32 || k.dtype == DataType::kTf32) {
        k.math = MathUnit::kTensorCoreTf32;
        k.dtype = DataType::kTf32;
      } else {
        k.math = MathUnit::kTensorCore;
      }
      break;
    case RuleUnit::kUnknown:
      // TF32, FP8 and FP4 are Tensor-Core formats: no CUDA-core instruction computes in them.
      if (!IsMatrix(k.category)) {
        k.math = MathUnit::kUnknown;
      } else if (k.dtype == DataType::kTf32) {
        k.math = MathUnit::kTensorCoreTf32;
      } else if (k.dtype == DataType::kFp8 || k.dtype == DataType::kFp4) {
        k.math = MathUnit::kTensorCore;
      } else {
        k.math = MathUnit::kUnknown;
      }
      break;
  }
  const bool tensor = k.math == MathUnit::kTensorCore || k.math == MathUnit::kTensorCoreTf32;
  if (tensor && (k.category == KernelCategory::kGemm || k.category == KernelCategory::kConvolution)) {
    k.alignment = AlignmentOf(own_name);
  }
  return k;
}

std::vector<uint64_t> KernelClassifier::Find(std::string_view name, std::string& demangled_storage,
                                             std::string_view& own_name) const {
  own_name = KernelOwnName(DemangleKernelName(name, demangled_storage));
  std::vector<uint64_t> found(matcher_.WordsPerSet());
  matcher_.FindAll(own_name, found);
  return found;
}

const KernelRule* KernelClassifier::FirstLibraryRule(std::span<const uint64_t> found) const {
  for (size_t i = 0; i < compiled_library_rules_.size(); ++i) {
    if (Holds(compiled_library_rules_[i], found)) return &library_rules_[i];
  }
  return nullptr;
}

const KernelRule* KernelClassifier::LibraryRuleFor(std::string_view name) const {
  std::string storage;
  std::string_view own_name;
  return FirstLibraryRule(Find(name, storage, own_name));
}

KernelClassifier::Decision KernelClassifier::Decide(std::string_view name) const {
  std::string storage;
  std::string_view own_name;
  const std::vector<uint64_t> found = Find(name, storage, own_name);

  Decision decision;
  for (size_t i = 0; i < compiled_rules_.size(); ++i) {
    if (Holds(compiled_rules_[i], found)) {
      decision.rule = &rules_[i];
      decision.kernel = Conclude(rules_[i], own_name);
      break;
    }
  }
  // A name no rule knows still states its element type where it has template arguments.
  if (decision.rule == nullptr) decision.kernel.dtype = TemplateDtype(own_name, TemplatePick::kFirst);
  if (decision.rule == nullptr || !decision.rule->library) {
    decision.library_rule = FirstLibraryRule(found);
    if (decision.library_rule != nullptr) decision.kernel.library = *decision.library_rule->library;
  }
  return decision;
}

namespace {
std::atomic<const KernelClassifier*> g_active_classifier{nullptr};  // null: the built-in one
}  // namespace

const KernelClassifier& ActiveKernelClassifier() {
  const KernelClassifier* active = g_active_classifier.load(std::memory_order_acquire);
  return active != nullptr ? *active : KernelClassifier::Builtin();
}

KernelClass ClassifyKernel(std::string_view name) { return ActiveKernelClassifier().Classify(name); }

ScopedKernelClassifier::ScopedKernelClassifier(const KernelClassifier* classifier)
    : previous_(g_active_classifier.load(std::memory_order_acquire)) {
  if (classifier != nullptr) g_active_classifier.store(classifier, std::memory_order_release);
}

ScopedKernelClassifier::~ScopedKernelClassifier() { g_active_classifier.store(previous_, std::memory_order_release); }

}  // namespace ampprof::analyzers
