#ifndef AMPPROF_COLLECTORS_CUPTI_NAME_CACHE_H_
#define AMPPROF_COLLECTORS_CUPTI_NAME_CACHE_H_

// NameCache turns the `const char*` names in CUPTI records (kernel, NVTX marker and domain, thread
// and device names) into StringIds of a sink's pool, doing the work for each name (demangling,
// hashing into the pool) once rather than once per record.
//
// Keyed by pointer, confirmed by content. CUPTI hands out the same pointer for every record of a
// kernel (the function's name, which lives as long as its module) and pointers to its own copies of
// NVTX strings. Neither is valid forever: when a module is unloaded, or CUPTI releases marker
// strings, a later, different name can be given the same address. So a pointer hit is trusted only
// after comparing the bytes with the cache's own copy of the name. The comparison costs about what
// hashing would, but a hit skips the pool's lookup and, for kernels, the demangler. The cache never
// dereferences a CUPTI pointer except while converting the record that carries it.
//
//   NameCache kernels(NameCache::Mode::kDemangle);
//   kernel.name = kernels.Intern(cupti_kernel.name, sink.strings());
//
// Bounded: marker strings copied per record would give every record a new pointer, so after
// kMaxEntries pointers (or distinct mangled names) the maps start over. Not thread-safe: the writer
// thread owns it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "src/base/string_pool.h"

namespace ampprof::cupti {

class NameCache {
 public:
  enum class Mode : uint8_t { kAsIs, kDemangle };
  static constexpr size_t kMaxEntries = 1 << 16;

  explicit NameCache(Mode mode) : mode_(mode) {}

  // The id in `pool` of `name` (demangled in kDemangle mode); the empty string for nullptr. Given a
  // different pool than last time, the cache starts over (its ids belong to the old pool).
  base::StringId Intern(const char* name, base::StringPool& pool);

  // How many times the demangler ran (tests check that it runs once per distinct name).
  uint64_t demangler_calls() const { return demangler_calls_; }

 private:
  struct Entry {
    std::string text;  // our copy of the bytes the pointer held
    base::StringId id;
  };

  base::StringId InternText(const std::string& text, base::StringPool& pool);

  Mode mode_;
  base::StringPool* pool_ = nullptr;
  std::unordered_map<const char*, Entry> by_pointer_;
  std::unordered_map<std::string, base::StringId> by_mangled_text_;  // kDemangle only
  uint64_t demangler_calls_ = 0;
};

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_NAME_CACHE_H_
