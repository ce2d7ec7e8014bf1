#include "analyzers/facts/kernel_rules.h"

#include <charconv>
#include <map>
#include <set>
#include <span>

#include <fmt/format.h>

namespace ampprof::analyzers {

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

bool IsValidId(std::string_view id) {
  if (id.empty() || !((id[0] >= 'a' && id[0] <= 'z') || (id[0] >= '0' && id[0] <= '9'))) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

template <typename Enum>
std::string IdList(std::span<const Enum> values, std::string_view (*id_of)(Enum)) {
  std::string list;
  for (Enum value : values) {
    if (!list.empty()) list += ", ";
    list += id_of(value);
  }
  return list;
}

bool IsMatrixCategory(KernelCategory category) {
  return category == KernelCategory::kGemm || category == KernelCategory::kConvolution ||
         category == KernelCategory::kAttention;
}

// Reads one file line by line into rules; every error names the file and the line.
class RuleParser {
 public:
  explicit RuleParser(std::string_view file) : file_(file) {}

  base::StatusOr<std::vector<KernelRule>> Parse(std::string_view text) {
    int line_number = 0;
    while (!text.empty()) {
      const size_t newline = text.find('\n');
      const std::string_view line = Trim(text.substr(0, newline));
      text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
      ++line_number;
      if (line.empty() || line.front() == '#') continue;
      const size_t space = line.find_first_of(" \t");
      const std::string_view keyword = line.substr(0, space);
      const std::string_view value = space == std::string_view::npos ? "" : Trim(line.substr(space));
      RETURN_IF_ERROR(ReadLine(line_number, keyword, value));
    }
    RETURN_IF_ERROR(FinishRule());
    return std::move(rules_);
  }

 private:
  template <typename... Args>
  base::Status Error(int line, fmt::format_string<Args...> format, Args&&... args) const {
    return base::InvalidDataError("{}:{}: {}", file_, line, fmt::format(format, std::forward<Args>(args)...));
  }

  base::Status ReadLine(int line, std::string_view keyword, std::string_view value) {
    if (keyword == "rule" || keyword == "library-rule") {
      RETURN_IF_ERROR(FinishRule());
      return StartRule(line, keyword == "rule" ? KernelRule::Kind::kClass : KernelRule::Kind::kLibrary, value);
    }
    if (!current_) {
      return Error(line, "'{}' outside a rule: a rule starts with a 'rule ID' or 'library-rule ID' line", keyword);
    }
    if (value.empty()) return Error(line, "'{}' needs a value", keyword);
    KernelRule& rule = *current_;
    const bool library_rule = rule.kind == KernelRule::Kind::kLibrary;
    if (keyword == "match" || keyword == "unless") {
      ASSIGN_OR_RETURN(std::vector<RulePattern> patterns, ReadPatterns(line, value));
      if (keyword == "match") {
        rule.match.push_back(std::move(patterns));
      } else {
        rule.unless.insert(rule.unless.end(), patterns.begin(), patterns.end());
      }
      return base::OkStatus();
    }
    if (keyword == "source") {
      if (!rule.source.empty()) rule.source += ' ';
      rule.source += value;
      return base::OkStatus();
    }
    if (keyword == "library") {
      RETURN_IF_ERROR(Once(line, keyword));
      const std::optional<KernelLibrary> library = ParseKernelLibraryId(value);
      if (!library) {
        return Error(line, "unknown library '{}' (one of: {})", value,
                     IdList<KernelLibrary>(AllKernelLibraries(), &KernelLibraryId));
      }
      rule.library = *library;
      return base::OkStatus();
    }
    if (keyword == "example") {
      RETURN_IF_ERROR(Once(line, keyword));
      rule.example = value;
      return base::OkStatus();
    }
    const bool class_field = keyword == "category" || keyword == "unit" || keyword == "dtype" ||
                             keyword == "grouped" || keyword == "matrix_vector";
    if (class_field && library_rule) {
      return Error(line, "'{}' in library-rule '{}': a library rule only names a library", keyword, rule.id);
    }
    if (keyword == "category") {
      RETURN_IF_ERROR(Once(line, keyword));
      const std::optional<KernelCategory> category = ParseKernelCategoryId(value);
      if (!category) {
        return Error(line, "unknown category '{}' (one of: {})", value,
                     IdList<KernelCategory>(AllKernelCategories(), &KernelCategoryId));
      }
      rule.category = *category;
      return base::OkStatus();
    }
    if (keyword == "unit") {
      RETURN_IF_ERROR(Once(line, keyword));
      if (value == "tensor_cores") {
        rule.unit = RuleUnit::kTensorCores;
      } else if (value == "cuda_cores") {
        rule.unit = RuleUnit::kCudaCores;
      } else if (value == "unknown") {
        rule.unit = RuleUnit::kUnknown;
      } else if (value == "none") {
        rule.unit = RuleUnit::kNone;
      } else {
        return Error(line, "unknown unit '{}' (one of: tensor_cores, cuda_cores, unknown, none)", value);
      }
      return base::OkStatus();
    }
    if (keyword == "dtype") {
      RETURN_IF_ERROR(Once(line, keyword));
      ASSIGN_OR_RETURN(rule.dtype, ReadDtype(line, value));
      return base::OkStatus();
    }
    if (keyword == "grouped") {
      RETURN_IF_ERROR(Once(line, keyword));
      if (value != "yes" && value != "no") return Error(line, "grouped is 'yes' or 'no', not '{}'", value);
      rule.grouped = value == "yes";
      return base::OkStatus();
    }
    if (keyword == "matrix_vector") {
      RETURN_IF_ERROR(Once(line, keyword));
      if (value != "yes" && value != "no") return Error(line, "matrix_vector is 'yes' or 'no', not '{}'", value);
      rule.matrix_vector = value == "yes";
      return base::OkStatus();
    }
    return Error(line, "unknown field '{}' (expected match, unless, category, unit, dtype, library, grouped, "
                 "matrix_vector, source or example)", keyword);
  }

  base::Status StartRule(int line, KernelRule::Kind kind, std::string_view id) {
    if (!IsValidId(id)) {
      return Error(line, "'{}' is not a rule id (lower-case letters, digits, '.', '_' and '-')", id);
    }
    if (const auto seen = first_line_of_id_.find(std::string(id)); seen != first_line_of_id_.end()) {
      return Error(line, "rule '{}' is defined twice (first at line {})", id, seen->second);
    }
    first_line_of_id_.emplace(std::string(id), line);
    current_ = KernelRule{};
    current_->kind = kind;
    current_->id = id;
    current_->file = file_;
    current_->line = line;
    fields_seen_.clear();
    return base::OkStatus();
  }

  base::Status FinishRule() {
    if (!current_) return base::OkStatus();
    KernelRule& rule = *current_;
    if (rule.match.empty()) return Error(rule.line, "rule '{}' has no 'match' line", rule.id);
    if (rule.kind == KernelRule::Kind::kLibrary) {
      if (!rule.library) return Error(rule.line, "library-rule '{}' has no 'library' line", rule.id);
    } else {
      if (!fields_seen_.contains("category")) return Error(rule.line, "rule '{}' has no 'category' line", rule.id);
      if (IsMatrixCategory(rule.category) && !fields_seen_.contains("unit")) {
        return Error(rule.line, "rule '{}' has no 'unit' line (a {} rule must say tensor_cores, cuda_cores, unknown "
                     "or none)", rule.id, KernelCategoryId(rule.category));
      }
      if (!IsMatrixCategory(rule.category) && rule.unit != RuleUnit::kNone) {
        return Error(rule.line, "rule '{}': only GEMM, convolution and attention kernels have a math unit", rule.id);
      }
      // The analyzers leave a matrix-vector product out of the Tensor-Core work they price: on another
      // category the flag would silently hide kernels from them.
      if (rule.matrix_vector && rule.category != KernelCategory::kGemm) {
        return Error(rule.line, "rule '{}': only a gemm rule can say matrix_vector yes", rule.id);
      }
    }
    rules_.push_back(std::move(rule));
    current_.reset();
    return base::OkStatus();
  }

  base::Status Once(int line, std::string_view keyword) {
    if (!fields_seen_.emplace(keyword).second) {
      return Error(line, "'{}' given twice in rule '{}'", keyword, current_->id);
    }
    return base::OkStatus();
  }

  base::StatusOr<std::vector<RulePattern>> ReadPatterns(int line, std::string_view value) const {
    const std::string_view whole = value;
    std::vector<RulePattern> patterns;
    while (true) {
      const size_t bar = value.find('|');
      std::string_view word = Trim(value.substr(0, bar));
      RulePattern pattern;
      if (!word.empty() && word.front() == '^') {
        pattern.anchored = true;
        word.remove_prefix(1);
      }
      if (word.empty()) return Error(line, "an empty word in '{}' (words are separated by '|')", whole);
      pattern.text = Lower(word);
      patterns.push_back(std::move(pattern));
      if (bar == std::string_view::npos) break;
      value.remove_prefix(bar + 1);
    }
    return patterns;
  }

  base::StatusOr<std::vector<DtypeSource>> ReadDtype(int line, std::string_view value) const {
    std::vector<DtypeSource> sources;
    while (!value.empty()) {
      const size_t space = value.find_first_of(" \t");
      const std::string_view word = value.substr(0, space);
      value = space == std::string_view::npos ? "" : Trim(value.substr(space));
      DtypeSource source;
      if (word == "name") {
        source.kind = DtypeSource::Kind::kName;
      } else if (word == "base") {
        source.kind = DtypeSource::Kind::kBaseName;
      } else if (word == "leading") {
        source.kind = DtypeSource::Kind::kLeading;
      } else if (word == "template") {
        source.kind = DtypeSource::Kind::kTemplate;
      } else if (word == "narrowest") {
        source.kind = DtypeSource::Kind::kNarrowest;
      } else if (word == "nvjet") {
        source.kind = DtypeSource::Kind::kNvjet;
      } else if (word.starts_with("field:")) {
        const std::string_view digits = word.substr(6);
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), source.field);
        if (error != std::errc() || end != digits.data() + digits.size() || digits.empty() || source.field > 64) {
          return Error(line, "'{}' is not a field number (field:0 to field:64)", word);
        }
        source.kind = DtypeSource::Kind::kField;
      } else if (const std::optional<DataType> fixed = ParseDataTypeId(word)) {
        source.fixed = *fixed;
      } else {
        return Error(line, "unknown dtype '{}' (a type: {}; or where to read it: name, base, field:N, "
                     "template, narrowest, leading, nvjet)", word, IdList<DataType>(AllDataTypes(), &DataTypeId));
      }
      sources.push_back(source);
    }
    return sources;
  }

  std::string file_;
  std::vector<KernelRule> rules_;
  std::optional<KernelRule> current_;
  std::map<std::string, int, std::less<>> first_line_of_id_;
  std::set<std::string, std::less<>> fields_seen_;
};

}  // namespace

base::StatusOr<std::vector<KernelRule>> ParseKernelRules(std::string_view text, std::string_view file) {
  return RuleParser(file).Parse(text);
}

std::string_view BuiltinKernelRulesText() {
  static const std::string* const kText = [] {
    auto* text = new std::string();
    for (std::string_view chunk : EmbeddedKernelRulesChunks()) text->append(chunk);
    return text;
  }();
  return *kText;
}

}  // namespace ampprof::analyzers
