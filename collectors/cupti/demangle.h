#ifndef AMPPROF_COLLECTORS_CUPTI_DEMANGLE_H_
#define AMPPROF_COLLECTORS_CUPTI_DEMANGLE_H_

// Kernel names as a person reads them. CUPTI reports C++ kernels mangled
// ("_ZN2at6native29vectorized_elementwise_kernel..."); Nsight Systems exports and PyTorch profiler
// traces carry them demangled, and the kernel classifier and the reports expect what the importers
// give, so the collector demangles too, with the C++ runtime's demangler (libstdc++ spelling:
// "{lambda(float)#1}", "std::array<char*, 2ul>"; the classifier matches on substrings either
// demangler keeps).
//
//   Demangle("_Z6kernelPf")                  // "kernel(float*)"
//   Demangle("nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN")  // unchanged: not a mangled name
//
// Names that are not Itanium-mangled (extern "C" kernels: cuBLAS, xmma, nvjet, cuDNN's sm90_*),
// names the demangler rejects, and names longer than kMaxDemangledInput are returned unchanged. The
// limit bounds the demangler's time and stack on pathological input (Kineto uses the same cut-off).
//
// Costs a malloc and a walk over the name: call it once per distinct name (NameCache does).

#include <string>
#include <string_view>

namespace ampprof::cupti {

inline constexpr size_t kMaxDemangledInput = 8192;

std::string Demangle(std::string_view name);

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_DEMANGLE_H_
