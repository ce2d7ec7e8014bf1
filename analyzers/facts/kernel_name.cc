#include "analyzers/facts/kernel_name.h"

#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <vector>

namespace ampprof::analyzers {
namespace {

// Longer mangled names are classified as written: demangling is recursive, and no real kernel name
// comes near this (the longest in the shared fixtures is 1,310 bytes demangled).
constexpr size_t kMaxMangledLength = 8192;

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentifierChar(char c) { return IsLetter(c) || IsDigit(c) || c == '_'; }

bool StartsWithIgnoreCase(std::string_view text, size_t at, std::string_view word) {
  if (text.size() - at < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (Lower(text[at + i]) != word[i]) return false;
  }
  return true;
}

bool ContainsIgnoreCase(std::string_view text, std::string_view word) {
  for (size_t at = 0; at + word.size() <= text.size(); ++at) {
    if (StartsWithIgnoreCase(text, at, word)) return true;
  }
  return false;
}

// ---- Type words in names ----

enum class WordKind : uint8_t {
  kType,      // decides
  kWordStart, // decides, but only where no letter precedes it ("_f16", not "xf16"; "_sgemm", not
              // "groupedgemm"; "_dmma", not "TiledMMA")
  kFieldStart, // decides, but only at the start of the name or of a '_'-separated field ("_f8_", not
              // the "1f8" of a hexadecimal hash)
  kWeakType,  // decides only when no other word does (an accumulator-only instruction shape)
  kScale,     // a block-scale factor type: skipped
  kStop,      // an unsigned integer or a type ampprof has no value for: the name's type is unknown
};

struct TypeWord {
  std::string_view text;  // lower case
  DataType dtype;
  WordKind kind;
};

// How libraries spell element types inside kernel names. Where two words start at one place the
// longer wins (`float16` over `float`, `bf16` is found before the `f16` inside it), so a word never
// needs to know which words contain it.
constexpr TypeWord kTypeWords[] = {
    // PyTorch / C++ / CUTLASS spellings that appear inside names.
    {"bfloat16", DataType::kBf16, WordKind::kType},
    {"tfloat32", DataType::kTf32, WordKind::kType},
    {"float16", DataType::kFp16, WordKind::kType},
    {"float32", DataType::kFp32, WordKind::kType},
    {"float64", DataType::kFp64, WordKind::kType},
    {"float8", DataType::kFp8, WordKind::kType},
    {"float4_t", DataType::kFp4, WordKind::kType},
    {"float4_e", DataType::kFp4, WordKind::kType},
    {"float_e4m3", DataType::kFp8, WordKind::kType},
    {"float_e5m2", DataType::kFp8, WordKind::kType},
    {"float_e2m1", DataType::kFp4, WordKind::kType},
    {"float_ue", DataType::kUnknown, WordKind::kScale},
    {"float", DataType::kFp32, WordKind::kType},
    {"double", DataType::kFp64, WordKind::kType},
    {"half", DataType::kFp16, WordKind::kType},
    // Short type codes (CUTLASS, xmma, cuDNN, NCCL, TensorRT-LLM).
    {"bf16", DataType::kBf16, WordKind::kType},
    {"tf32", DataType::kTf32, WordKind::kType},
    {"fp16", DataType::kFp16, WordKind::kType},
    {"fp32", DataType::kFp32, WordKind::kType},
    {"fp64", DataType::kFp64, WordKind::kType},
    {"fp8", DataType::kFp8, WordKind::kType},
    {"f8", DataType::kFp8, WordKind::kFieldStart},  // TensorRT's CUTLASS names: gemm_f8_f8_f32_f16_f16
    {"e4m3", DataType::kFp8, WordKind::kType},
    {"e5m2", DataType::kFp8, WordKind::kType},
    {"fp4", DataType::kFp4, WordKind::kType},
    {"e2m1", DataType::kFp4, WordKind::kType},
    {"xf4", DataType::kFp4, WordKind::kType},  // CUTLASS block-scaled: ue4m3xf4 = UE4M3 scales x FP4
    {"int8", DataType::kInt8, WordKind::kType},
    {"int32", DataType::kInt32, WordKind::kType},
    {"int64", DataType::kInt64, WordKind::kType},
    {"f16", DataType::kFp16, WordKind::kWordStart},
    {"f32", DataType::kFp32, WordKind::kWordStart},
    {"f64", DataType::kFp64, WordKind::kWordStart},
    {"i8", DataType::kInt8, WordKind::kWordStart},
    {"s8", DataType::kInt8, WordKind::kWordStart},
    {"i32", DataType::kInt32, WordKind::kWordStart},
    {"s32", DataType::kInt32, WordKind::kWordStart},
    {"i64", DataType::kInt64, WordKind::kWordStart},
    // cuBLAS / cuDNN kernel families whose name is their type.
    {"sgemm", DataType::kFp32, WordKind::kWordStart},
    {"dgemm", DataType::kFp64, WordKind::kWordStart},
    {"hgemm", DataType::kFp16, WordKind::kWordStart},
    {"cgemm", DataType::kFp32, WordKind::kWordStart},  // complex FP32 (FFT convolutions)
    {"gcgemm", DataType::kFp32, WordKind::kWordStart},  // complex FP32, Gauss's method
    {"fermipluscgemm", DataType::kFp32, WordKind::kWordStart},
    {"zgemm", DataType::kFp64, WordKind::kWordStart},  // complex FP64
    {"scudnn", DataType::kFp32, WordKind::kType},
    {"hcudnn", DataType::kFp16, WordKind::kType},
    // Tensor Core instruction shapes: h = FP16 operands, i = INT8, d = FP64; s states only an FP32
    // accumulator, so the operands are FP32 (TF32) only when no other word names them.
    {"h884", DataType::kFp16, WordKind::kType},
    {"h1688", DataType::kFp16, WordKind::kType},
    {"h16816", DataType::kFp16, WordKind::kType},
    {"h161616", DataType::kFp16, WordKind::kType},  // wmma m16n16k16 on FP16 (CUTLASS wmma_tensorop)
    {"i8816", DataType::kInt8, WordKind::kType},
    {"i16832", DataType::kInt8, WordKind::kType},
    {"imma", DataType::kInt8, WordKind::kWordStart},
    {"qgmma", DataType::kFp8, WordKind::kWordStart},
    {"d884", DataType::kFp64, WordKind::kType},
    {"dmma", DataType::kFp64, WordKind::kWordStart},
    {"s884", DataType::kFp32, WordKind::kWeakType},
    {"s1688", DataType::kFp32, WordKind::kWeakType},
    // m16n8k16 (mma.sync) and m16n16k16 (wmma) take FP16 or BF16 operands, never FP32/TF32:
    // alone (a name cut before its operand type, `cutlass_80_tensorop_s16816gemm...`) they
    // leave the type unknown.
    {"s16816", DataType::kUnknown, WordKind::kWeakType},
    {"s161616", DataType::kUnknown, WordKind::kWeakType},
    // Block-scale factors, not element types.
    {"ue4m3", DataType::kUnknown, WordKind::kScale},
    {"ue8m0", DataType::kUnknown, WordKind::kScale},
    {"e8m0", DataType::kUnknown, WordKind::kScale},
    // Types with no value here: the name's type stays unknown rather than falling to a wrong one.
    {"uint8", DataType::kUnknown, WordKind::kStop},
    {"uint16", DataType::kUnknown, WordKind::kStop},
    {"uint32", DataType::kUnknown, WordKind::kStop},
    {"uint64", DataType::kUnknown, WordKind::kStop},
    {"u8", DataType::kUnknown, WordKind::kStop},
    {"u32", DataType::kUnknown, WordKind::kStop},
    {"u64", DataType::kUnknown, WordKind::kStop},
    {"fp6", DataType::kUnknown, WordKind::kStop},
    {"e2m3", DataType::kUnknown, WordKind::kStop},
    {"e3m2", DataType::kUnknown, WordKind::kStop},
};

// The type words by their first letter, so that each position of a name is checked against a few.
const std::vector<const TypeWord*>& TypeWordsStartingWith(char first) {
  static const auto* const kByFirst = [] {
    auto* by_first = new std::array<std::vector<const TypeWord*>, 128>();
    for (const TypeWord& word : kTypeWords) (*by_first)[static_cast<uint8_t>(word.text[0])].push_back(&word);
    return by_first;
  }();
  static const std::vector<const TypeWord*> kNone;
  const auto index = static_cast<uint8_t>(Lower(first));
  return index < 128 ? (*kByFirst)[index] : kNone;
}

// The longest type word at `at`, or null.
const TypeWord* TypeWordAt(std::string_view text, size_t at) {
  const TypeWord* best = nullptr;
  for (const TypeWord* word : TypeWordsStartingWith(text[at])) {
    if (best != nullptr && word->text.size() <= best->text.size()) continue;
    if (word->kind == WordKind::kWordStart || (word->kind == WordKind::kStop && word->text.size() <= 3)) {
      if (at > 0 && IsLetter(text[at - 1])) continue;
    }
    if (word->kind == WordKind::kFieldStart && at > 0 && text[at - 1] != '_') continue;
    if (StartsWithIgnoreCase(text, at, word->text)) best = word;
  }
  return best;
}

// ---- C++ types in template arguments ----

struct CxxType {
  DataType dtype = DataType::kUnknown;
  bool floating = false;
};

int Bits(DataType dtype) {
  switch (dtype) {
    case DataType::kFp64: case DataType::kInt64: return 64;
    case DataType::kFp32: case DataType::kTf32: case DataType::kInt32: return 32;
    case DataType::kFp16: case DataType::kBf16: return 16;
    case DataType::kFp8: case DataType::kInt8: case DataType::kBool: return 8;
    case DataType::kFp4: return 4;
    case DataType::kUnknown: return 0;
  }
  return 0;
}

// The type an unqualified C++ type name spells, e.g. "BFloat16", "float_e4m3_t", "long".
CxxType ReadCxxType(std::string_view word, bool is_unsigned) {
  struct Exact {
    std::string_view word;
    DataType dtype;
  };
  static constexpr Exact kFloating[] = {
      {"float", DataType::kFp32},          {"float2", DataType::kFp32},
      {"float4", DataType::kFp32},         {"double", DataType::kFp64},
      {"double2", DataType::kFp64},        {"half", DataType::kFp16},
      {"half2", DataType::kFp16},          {"__half", DataType::kFp16},
      {"__half2", DataType::kFp16},        {"Half", DataType::kFp16},
      {"half_t", DataType::kFp16},         {"BFloat16", DataType::kBf16},
      {"bfloat16", DataType::kBf16},       {"bfloat16_t", DataType::kBf16},
      {"__nv_bfloat16", DataType::kBf16},  {"__nv_bfloat162", DataType::kBf16},
      {"nv_bfloat16", DataType::kBf16},    {"__bfloat16", DataType::kBf16},
      {"tfloat32_t", DataType::kTf32},      {"float16", DataType::kFp16},  // PaddlePaddle's phi::dtype::float16
  };
  static constexpr Exact kInteger[] = {
      {"int", DataType::kInt32},    {"int32_t", DataType::kInt32}, {"long", DataType::kInt64},
      {"int64_t", DataType::kInt64}, {"__int64", DataType::kInt64}, {"int8_t", DataType::kInt8},
      {"bool", DataType::kBool},
  };
  for (const Exact& exact : kFloating) {
    if (word == exact.word) return {exact.dtype, true};
  }
  if (!is_unsigned) {
    for (const Exact& exact : kInteger) {
      if (word == exact.word) return {exact.dtype, false};
    }
  }
  // FP8 and FP4 type families: c10::Float8_e4m3fn, __nv_fp8_e5m2, cutlass::float_e2m1_t, ...
  // Block-scale types (float_ue8m0_t, Float8_e8m0fnu, float_ue4m3_t) hold scales, not elements.
  if (ContainsIgnoreCase(word, "ue4m3") || ContainsIgnoreCase(word, "e8m0")) return {};
  if (ContainsIgnoreCase(word, "e4m3") || ContainsIgnoreCase(word, "e5m2") || ContainsIgnoreCase(word, "fp8") ||
      ContainsIgnoreCase(word, "float8")) {
    return {DataType::kFp8, true};
  }
  if (ContainsIgnoreCase(word, "e2m1") || ContainsIgnoreCase(word, "fp4") || ContainsIgnoreCase(word, "float4_")) {
    return {DataType::kFp4, true};
  }
  return {};
}

// The index of the ')' that closes the '(' at `open`, or text.size().
size_t SkipParentheses(std::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return i;
  }
  return text.size();
}

// The index just after the '>' that closes the '<' at `open`, or text.size().
size_t SkipAngleBrackets(std::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '<') ++depth;
    if (text[i] == '>' && --depth == 0) return i + 1;
  }
  return text.size();
}

// CuTe's shape and layout templates: their arguments are extents and strides (`cute::tuple<int, int,
// int, int>` is a GEMM's problem shape), never element types.
bool IsShapeTemplate(std::string_view word) {
  return word == "tuple" || word == "Shape" || word == "Stride" || word == "Layout" || word == "Coord" ||
         word == "Step";
}

char PreviousNonSpace(std::string_view text, size_t at) {
  while (at > 0) {
    if (text[--at] != ' ') return text[at];
  }
  return '\0';
}

char NextNonSpace(std::string_view text, size_t at) {
  while (at < text.size() && text[at] == ' ') ++at;
  return at < text.size() ? text[at] : '\0';
}

bool EndsWith(std::string_view text, size_t end, std::string_view suffix) {
  return end >= suffix.size() && text.substr(end - suffix.size(), suffix.size()) == suffix;
}

// The source names of a mangled name that does not demangle (a profiler cut it short), joined with
// "::": `_ZN7cutlass13device_kernelINS_4gemm6kernel13GemmUniv` -> `cutlass::device_kernel::gemm::
// kernel::GemmUniv`. Each <length><identifier> is one name; the length of a literal (`Li128E`), a
// substitution (`S1_`) or a template parameter (`T0_`) is not, and a name cut short keeps what is there,
// with or without the "..." or "\u2026" a table puts where it cut. Empty when the name holds no source name.
std::string SourceNamesOfMangled(std::string_view mangled) {
  for (std::string_view cut : {std::string_view("..."), std::string_view("\xe2\x80\xa6")}) {
    if (mangled.ends_with(cut)) mangled.remove_suffix(cut.size());
  }
  std::string names;
  for (size_t at = 2; at < mangled.size();) {
    const bool digit_starts_here = IsDigit(mangled[at]) && !IsDigit(mangled[at - 1]);
    const bool after_code = mangled[at - 1] == 'S' || mangled[at - 1] == 'T' || mangled[at - 2] == 'L';
    if (!digit_starts_here || after_code) {
      ++at;
      continue;
    }
    size_t length = 0;
    size_t text = at;
    while (text < mangled.size() && IsDigit(mangled[text]) && length < 100000) {
      length = length * 10 + static_cast<size_t>(mangled[text++] - '0');
    }
    const size_t end = std::min(mangled.size(), text + length);
    size_t good = text;
    while (good < end && IsIdentifierChar(mangled[good])) ++good;
    if (good != end || text == end) {
      at = text;
      continue;
    }
    if (!names.empty()) names += "::";
    names.append(mangled.substr(text, end - text));
    at = end;
  }
  return names;
}

// Closes the innermost open bracket if `close` is of its kind. Nsight Compute prints some brackets
// without their opening half (`lambda() (instance 7)]`, `unnamed>::`): a close of another kind than the
// innermost open one is one of those, and leaves the nesting as it is.
void CloseBracket(std::string& open, char close) {
  if (open.empty()) return;
  const char expected = open.back() == '<' ? '>' : open.back() == '(' ? ')' : open.back() == '{' ? '}' : ']';
  if (close == expected) open.pop_back();
}

}  // namespace

std::string_view DemangleKernelName(std::string_view name, std::string& storage) {
  if (name.size() < 3 || name.substr(0, 2) != "_Z" || name.size() > kMaxMangledLength) return name;
  const std::string mangled(name);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status == 0 && demangled != nullptr) {
    storage.assign(demangled.get());
    return storage;
  }
  storage = SourceNamesOfMangled(name);
  return storage.empty() ? name : std::string_view(storage);
}

std::string_view KernelOwnName(std::string_view name) {
  constexpr std::string_view kAnonymous = "(anonymous namespace)";
  // The anonymous namespace as Nsight Systems prints it, `<unnamed>::`, and as Nsight Compute does,
  // without the `<` (`void unnamed>::CatArrayBatchedCopy<unnamed>::OpaqueType<2>, ...>`).
  constexpr std::string_view kUnnamed = "unnamed>";
  size_t start = 0;
  size_t end = name.size();
  std::string open;  // the brackets open at `i`, innermost last
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const size_t depth = open.size();
    if (depth == 0 && name.substr(i, kAnonymous.size()) == kAnonymous) {
      i += kAnonymous.size() - 1;
      continue;
    }
    if (name.substr(i, kUnnamed.size()) == kUnnamed) {
      // `<unnamed>` with its own `<` (after `::`, a space or another `<`): that `<` opened nothing.
      const bool own_open = i > 0 && name[i - 1] == '<' && (i < 2 || !IsIdentifierChar(name[i - 2]));
      if (own_open && !open.empty() && open.back() == '<') open.pop_back();
      i += kUnnamed.size() - 1;
      continue;
    }
    if (depth == 0 && c == '(' && i > start) {
      // `std::enable_if<T2>(int)0&&...::type name`: a cast inside a return type's template arguments
      // (nsys prints them so) is followed by its value; a parameter list never is.
      const size_t close = SkipParentheses(name, i);
      if (close + 1 < name.size() && (IsDigit(name[close + 1]) || name[close + 1] == '-')) {
        i = close;
        continue;
      }
      end = i;  // the parameter list
      break;
    }
    if (depth == 0 && c == ' ') start = i + 1;  // what came before was a return type
    if (c == '<' || c == '(' || c == '{' || c == '[') open.push_back(c);
    if (c == '>' || c == ')' || c == '}' || c == ']') CloseBracket(open, c);
  }
  std::string_view own = name.substr(start, end - start);
  while (!own.empty() && own.back() == ' ') own.remove_suffix(1);
  return own;
}

DataType NameDtype(std::string_view text) {
  DataType weak = DataType::kUnknown;
  for (size_t at = 0; at < text.size();) {
    const TypeWord* word = TypeWordAt(text, at);
    if (word == nullptr) {
      ++at;
      continue;
    }
    const size_t after = at + word->text.size();
    const bool scales_the_next = after + 1 < text.size() && Lower(text[after]) == 'x' &&
                                 TypeWordAt(text, after + 1) != nullptr;
    if (scales_the_next && word->kind != WordKind::kStop) {
      at = after + 1;  // CUTLASS blockwise scaling: `64x128f32xe4m3` = FP32 scales x E4M3 elements
      continue;
    }
    switch (word->kind) {
      case WordKind::kType:
      case WordKind::kWordStart:
      case WordKind::kFieldStart: return word->dtype;
      case WordKind::kStop: return DataType::kUnknown;
      case WordKind::kWeakType:
        if (weak == DataType::kUnknown) weak = word->dtype;
        break;
      case WordKind::kScale: break;
    }
    at += word->text.size();
  }
  return weak;
}

DataType FieldDtype(std::string_view text, int field) {
  for (int i = 0; i < field; ++i) {
    const size_t underscore = text.find('_');
    if (underscore == std::string_view::npos) return DataType::kUnknown;
    text.remove_prefix(underscore + 1);
  }
  return NameDtype(text.substr(0, text.find('_')));
}

DataType TemplateDtype(std::string_view own, TemplatePick pick) {
  const size_t open = own.find('<');
  if (open == std::string_view::npos) return DataType::kUnknown;
  DataType floating = DataType::kUnknown;
  DataType integer = DataType::kUnknown;
  DataType leading = DataType::kUnknown;
  DataType first_floating = DataType::kUnknown;
  int floating_types = 0;  // 1: one floating-point type so far; more: a second, different one
  bool is_unsigned = false;
  size_t index_lambda_end = 0;  // integers before this position are element indices
  bool unnamed_elements = false;  // a pointer to an unknown type came first: later integers are sizes
  for (size_t i = open + 1; i < own.size();) {
    const char c = own[i];
    if (c == '(') {
      // A lambda's parameters are the element types it is applied to; any other parenthesis is a
      // host function's parameter list or a cast of a value, e.g. `(int)4`: neither is an element type.
      // A lambda right after a host function's parameters, `launch(at::TensorIterator&)::{lambda(int)#1}`,
      // is ATen's launch lambda, whose int is the element index: its integers do not count.
      // Nsight Systems and cu++filt print it `launch(...)::[lambda(int) (instance 1)]`.
      if (EndsWith(own, i, "lambda")) {
        if (EndsWith(own, i - 6, ")::{") || EndsWith(own, i - 6, ")::[")) {
          index_lambda_end = SkipParentheses(own, i);
        }
        ++i;
      } else {
        i = SkipParentheses(own, i) + 1;
      }
      continue;
    }
    if (IsDigit(c) || c == '-') {  // a value: 128, 2ul, -2
      while (i < own.size() && (IsIdentifierChar(own[i]) || own[i] == '-' || own[i] == '.')) ++i;
      continue;
    }
    if (!IsLetter(c) && c != '_') {
      ++i;
      continue;
    }
    const size_t word_start = i;
    while (i < own.size() && IsIdentifierChar(own[i])) ++i;
    const std::string_view word = own.substr(word_start, i - word_start);
    // Qualified names are read component by component: only the last one can be a type.
    if (i + 1 < own.size() && own[i] == ':' && own[i + 1] == ':') {
      i += 2;
      continue;
    }
    if (IsShapeTemplate(word) && i < own.size() && own[i] == '<') {
      i = SkipAngleBrackets(own, i);
      continue;
    }
    if (word == "unsigned") {
      is_unsigned = true;
      continue;
    }
    if (word == "signed" || word == "const" || word == "volatile" || word == "struct") continue;
    const char next = NextNonSpace(own, i);
    if (word == "long" && next == 'l') continue;  // the first word of `long long`: read the second
    const bool was_unsigned = is_unsigned;
    is_unsigned = false;
    // A template argument that points to an unqualified type no reader knows, before any type it knows
    // (Thrust's `MergeAgent<Entity*, Entity*, long, ...>`), points at the elements, of the program's own
    // struct: the integers after it are counts and offsets. A qualified one (`at::CUDAGeneratorImpl*`) is a
    // library's handle, a lambda's parameter (`lambda(curandStatePhilox4_32_10*)`) its generator state.
    const char before = PreviousNonSpace(own, word_start);
    if (next == '*' && leading == DataType::kUnknown && (before == '<' || before == ',') && word != "void" &&
        word != "char" && ReadCxxType(word, was_unsigned).dtype == DataType::kUnknown) {
      unnamed_elements = true;
    }
    if (next == '*' || next == '&' || next == '=') continue;  // a pointer, a reference, `int=4`
    if (word == "char" && PreviousNonSpace(own, word_start) != 'd') {
      continue;  // plain char is bytes; `signed char` (preceded by "signed") is INT8
    }
    const CxxType type = ReadCxxType(word == "char" ? "int8_t" : word, was_unsigned);
    if (type.dtype == DataType::kUnknown) continue;
    if (!type.floating && (word_start < index_lambda_end || unnamed_elements)) continue;
    if (leading == DataType::kUnknown) leading = type.dtype;
    if (type.floating) {
      if (floating_types == 0 || type.dtype != first_floating) ++floating_types;
      if (first_floating == DataType::kUnknown) first_floating = type.dtype;
      if (floating == DataType::kUnknown ||
          (pick == TemplatePick::kNarrowest && Bits(type.dtype) < Bits(floating))) {
        floating = type.dtype;
      }
    } else if (integer == DataType::kUnknown) {
      integer = type.dtype;
    }
  }
  if (pick == TemplatePick::kLeading) return leading;
  if (pick == TemplatePick::kNarrowest) return floating_types > 1 ? floating : DataType::kUnknown;
  return floating != DataType::kUnknown ? floating : integer;
}

DataType BaseNameDtype(std::string_view own) { return NameDtype(own.substr(0, own.find('<'))); }

DataType NvjetDtype(std::string_view own) {
  const size_t at = own.find("nvjet_");
  if (at == std::string_view::npos) return DataType::kUnknown;
  std::string_view rest = own.substr(at + 6);
  if (rest.size() > 2 && rest.substr(0, 2) == "sm" && IsDigit(rest[2])) {
    const size_t underscore = rest.find('_');
    rest = underscore == std::string_view::npos ? std::string_view() : rest.substr(underscore + 1);
  }
  switch (rest.empty() ? ' ' : rest[0]) {
    case 'h': return DataType::kFp16;
    case 't': return DataType::kBf16;
    case 's': return DataType::kFp32;
    case 'q': return DataType::kFp8;
    case 'o': return DataType::kFp4;
    default: return DataType::kUnknown;
  }
}

uint8_t AlignmentOf(std::string_view own) {
  for (size_t at = own.find("align"); at != std::string_view::npos; at = own.find("align", at + 5)) {
    size_t digits = at + 5;
    if (digits < own.size() && own[digits] == 'a') ++digits;  // xmma: aligna4 (A), alignc4 (C)
    unsigned value = 0;
    size_t end = digits;
    while (end < own.size() && IsDigit(own[end]) && end - digits < 3) {
      value = value * 10 + static_cast<unsigned>(own[end] - '0');
      ++end;
    }
    if (end > digits && value > 0 && value <= 128) return static_cast<uint8_t>(value);
  }
  return 0;
}

}  // namespace ampprof::analyzers
