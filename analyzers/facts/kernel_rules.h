#ifndef AMPPROF_ANALYZERS_KERNEL_RULES_H_
#define AMPPROF_ANALYZERS_KERNEL_RULES_H_

// The kernel rule table: what ampprof knows about kernel names, as data. The built-in table is
// analyzers/facts/kernel_rules.txt, compiled into the binary; `--kernel-rules FILE` adds a user's rules in
// the same format. docs/kernel-rules.md documents the format; in short:
//
//   rule cublas.simt_sgemm                     # an id: lower case, digits, '.', '_', '-'
//     match     sgemm | gcgemm                 # the kernel's own name contains one of these (any case)
//     unless    cutlass                        # ... and none of these
//     category  gemm
//     unit      cuda_cores                     # tensor_cores | cuda_cores | unknown | none
//     dtype     name                           # a type id, or where to read it: name, template, ...
//     library   cublas
//     source    cuBLAS SIMT kernels, <arch>_sgemm_<tile>_<layout>: ...
//     example   volta_sgemm_128x64_nn
//
//   library-rule nvjet                         # names a library when the deciding rule does not
//     match     nvjet_
//     library   cublaslt
//     ...
//
// Rules are tried in order and the first whose match lines all hold decides. Several `match` lines
// must all hold; the words of one line are alternatives. A word starting with '^' must start the
// kernel's own name.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/facts/kernel_class.h"
#include "src/base/status.h"

namespace ampprof::analyzers {

struct RulePattern {
  std::string text;  // lower case, without the '^'
  bool anchored = false;

  friend bool operator==(const RulePattern&, const RulePattern&) = default;
};

// What a rule says of the math unit. kTensorCores on FP32 operands becomes TF32 (kTensorCoreTf32).
enum class RuleUnit : uint8_t { kNone, kTensorCores, kCudaCores, kUnknown };

// One way to find a kernel's data type; a rule lists them, and the first that finds one decides.
struct DtypeSource {
  enum class Kind : uint8_t {
    kFixed,      // the type given in the rule
    kName,       // type words in the kernel's own name (NameDtype)
    kBaseName,   // type words in the name before its template arguments (BaseNameDtype)
    kField,      // type words in the field-th '_'-separated part of the name (FieldDtype)
    kTemplate,   // the first element type among its template arguments
    kNarrowest,  // the narrowest element type among its template arguments (conversions)
    kLeading,    // the first type among its template arguments, integer or floating
    kNvjet,      // cuBLASLt nvjet's type letters
  };
  Kind kind = Kind::kFixed;
  DataType fixed = DataType::kUnknown;
  int field = 0;

  friend bool operator==(const DtypeSource&, const DtypeSource&) = default;
};

struct KernelRule {
  enum class Kind : uint8_t { kClass, kLibrary };

  Kind kind = Kind::kClass;
  std::string id;
  std::string file;  // where it was written, for messages
  int line = 0;

  std::vector<std::vector<RulePattern>> match;  // every group must hold; one pattern of a group suffices
  std::vector<RulePattern> unless;              // no pattern may occur

  // kClass rules decide these; a kLibrary rule only `library`.
  KernelCategory category = KernelCategory::kUnknown;
  RuleUnit unit = RuleUnit::kNone;
  std::vector<DtypeSource> dtype;  // empty: unknown
  std::optional<KernelLibrary> library;
  bool grouped = false;
  bool matrix_vector = false;

  std::string source;   // where the convention comes from: library, version, a public source
  std::string example;  // a real kernel name this rule decides

  std::string Location() const { return file + ":" + std::to_string(line); }
};

// Parses a rule file. `file` names it in error messages: "FILE:LINE: the problem". Checks each rule on
// its own (known fields and values, a match line, a unit for GEMM/convolution/attention rules, ids
// unique within the file); whether a rule decides its example needs the whole table
// (KernelClassifier checks it).
base::StatusOr<std::vector<KernelRule>> ParseKernelRules(std::string_view text, std::string_view file);

// The built-in table (analyzers/facts/kernel_rules.txt as compiled in) and the name it is reported under.
std::string_view BuiltinKernelRulesText();
inline constexpr std::string_view kBuiltinKernelRulesFile = "analyzers/facts/kernel_rules.txt";

// The table as compiled in, in pieces (compilers limit the length of one string literal); written by
// embed_kernel_rules.cmake. BuiltinKernelRulesText() joins them.
std::span<const std::string_view> EmbeddedKernelRulesChunks();

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_KERNEL_RULES_H_
