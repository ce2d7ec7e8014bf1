#ifndef AMPPROF_COLLECTORS_CUPTI_CONVERSION_CONTEXT_H_
#define AMPPROF_COLLECTORS_CUPTI_CONVERSION_CONTEXT_H_

// ConversionContext: what converting one process's CUPTI records needs to remember between records.
//   - the traced process's pid: CUPTI's GPU records (kernels, copies, syncs) carry none;
//   - the device of each CUDA context, from CONTEXT records: synchronisation records name a
//     context, not a device;
//   - name caches, so that each kernel name is demangled once and each string interned once;
//   - the interned names of API calls, by domain and callback id.
//
//   ConversionContext context(getpid());
//   while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS)
//     ConvertRecord(record, context, sink);
//
// One context serves one sink (its ids belong to that sink's string pool) and one thread: the
// collector's writer thread.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "collectors/cupti/name_cache.h"
#include "collectors/records/records.h"
#include "src/base/string_pool.h"

namespace ampprof::cupti {

class ConversionContext {
 public:
  explicit ConversionContext(uint32_t pid) : pid_(pid) {}

  uint32_t pid() const { return pid_; }

  void NoteContextDevice(uint32_t context_id, uint32_t device_id) {
    device_of_context_[context_id] = device_id;
  }
  std::optional<uint32_t> DeviceOfContext(uint32_t context_id) const {
    const auto it = device_of_context_.find(context_id);
    if (it == device_of_context_.end()) return std::nullopt;
    return it->second;
  }

  NameCache& kernel_names() { return kernel_names_; }  // demangled
  NameCache& names() { return names_; }                // as CUPTI gives them

  // Names the calls outside the callback table, which are recorded only when every call is
  // (AMPPROF_API_CALLS=all): the collector asks libcupti (cuptiGetCallbackName); tests give a map.
  using ApiNameLookup =
      std::function<std::optional<std::string>(records::ApiDomain domain, uint32_t cbid)>;
  void SetApiNameLookup(ApiNameLookup lookup) { api_name_lookup_ = std::move(lookup); }

  // The interned name of an API call: from the callback table (api_callbacks.h), else from the
  // lookup (without its version suffix), else a made-up "runtime API call (cbid 17)" with `named`
  // false.
  base::StringId ApiCallName(records::ApiDomain domain, uint32_t cbid, base::StringPool& pool,
                             bool& named);

 private:
  struct ApiName {
    base::StringId id;
    bool named = false;
  };

  uint32_t pid_;
  std::unordered_map<uint32_t, uint32_t> device_of_context_;
  NameCache kernel_names_{NameCache::Mode::kDemangle};
  NameCache names_{NameCache::Mode::kAsIs};
  ApiNameLookup api_name_lookup_;
  const base::StringPool* api_names_pool_ = nullptr;
  std::unordered_map<uint64_t, ApiName> api_names_;  // (domain << 32 | cbid) -> name
};

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_CONVERSION_CONTEXT_H_
