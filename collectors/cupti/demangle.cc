#include "collectors/cupti/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ampprof::cupti {

std::string Demangle(std::string_view name) {
  // Itanium names start with _Z; CUDA kernels never use the older __Z spelling.
  if (name.size() < 2 || name.size() > kMaxDemangledInput || name.substr(0, 2) != "_Z") {
    return std::string(name);
  }
  const std::string terminated(name);  // __cxa_demangle wants a C string
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(terminated.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || demangled == nullptr) return terminated;
  return std::string(demangled.get());
}

}  // namespace ampprof::cupti
