#ifndef AMPPROF_ANALYZERS_KERNEL_NAME_H_
#define AMPPROF_ANALYZERS_KERNEL_NAME_H_

// Reading a kernel name: the parts rules match against and the data type the name states. These are
// the mechanisms; the naming conventions of each library (which part to read, which word means what
// category) are data, in the rule table (kernel_rules.txt).
//
// A name arrives as a profiler gives it: mangled (`_ZN5cudnn...`), or demangled with a return type and
// a parameter list (`void at::native::foo<float>(float*, int)`), or a bare symbol (`volta_sgemm_...`).
//
//   std::string demangled;
//   std::string_view own = KernelOwnName(DemangleKernelName(name, demangled));
//   // "at::native::foo<float>": what the rules match; its template arguments hold the element type.

#include <cstdint>
#include <string>
#include <string_view>

#include "analyzers/facts/kernel_class.h"

namespace ampprof::analyzers {

// An Itanium-mangled name (`_Z...`) demangled into `storage`, which the result then views; any other
// name, or one that does not demangle, as it is.
std::string_view DemangleKernelName(std::string_view name, std::string& storage);

// The kernel's own name: without a return type (`void `, `std::enable_if<...>::type `) and without its
// parameter list, keeping its namespaces and template arguments. Parameter lists name the host types
// a kernel is launched with, which say nothing about what it computes.
std::string_view KernelOwnName(std::string_view demangled);

// The data type that type words in `text` spell, read from left to right: the first that names a
// type decides (`bf16`, `e4m3`, `f16`, `sgemm`, `h884`, ...; see kernel_name.cc for the list). Scale
// factor types (`ue4m3`, `ue8m0`) are skipped. Instruction shapes that only state the accumulator
// (`s1688`, `s16816`) decide only when nothing else does. Unsigned integer words stop the reading
// with kUnknown. kUnknown when no word names a type.
DataType NameDtype(std::string_view text);

// NameDtype of the name before its template arguments: `per_token_group_quant_8bit_kernel`, not the
// `c10::BFloat16` input type in `<c10::BFloat16, c10::Float8_e4m3fn>`.
DataType BaseNameDtype(std::string_view own_name);

// The same, over the `field`-th part of `text` split at '_' (0 is the part before the first '_').
DataType FieldDtype(std::string_view text, int field);

// The element type among the template arguments of `own_name`, read as C++ types: `float`,
// `c10::BFloat16`, `cutlass::float_e4m3_t`, `__nv_bfloat16`, ... Parameter lists of host functions
// inside the arguments (`foo(at::TensorIteratorBase&)`) are skipped, the parameters of lambdas
// (`{lambda(float)#1}`) read; pointers, references, casts such as `(int)4`, `int=4` values, unsigned
// and `OpaqueType<N>` (a byte width) never count. A floating-point type wins over an integer or
// bool one, which only counts when no floating-point type appears.
// A lambda right after a host function's parameter list (ATen's launch lambda) takes an element
// index: its integer parameters do not count.
//   kFirst: the first such type (the kernel's element type);
//   kNarrowest: of two or more floating-point types, the one of fewest bits (the low-precision side of
//               a conversion); kUnknown when the arguments name only one;
//   kLeading: the first type of any kind, integer or floating (CUB's key type before its value type).
enum class TemplatePick : uint8_t { kFirst, kNarrowest, kLeading };
DataType TemplateDtype(std::string_view own_name, TemplatePick pick);

// cuBLASLt's nvjet kernels, `nvjet_[smNN_]<types>_...`: the first letter of the type block is the A
// operand's type (h FP16, t BF16, s FP32, q FP8 E4M3, o FP4 E2M1).
DataType NvjetDtype(std::string_view own_name);

// "align8", "_align1", "aligna4": the A operand's vector alignment in elements; 0 when absent.
uint8_t AlignmentOf(std::string_view own_name);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_KERNEL_NAME_H_
