#include "collectors/cupti/conversion_context.h"

#include <string>

#include "collectors/cupti/api_callbacks.h"

namespace ampprof::cupti {

base::StringId ConversionContext::ApiCallName(records::ApiDomain domain, uint32_t cbid,
                                              base::StringPool& pool, bool& named) {
  if (&pool != api_names_pool_) {
    api_names_.clear();  // the ids belonged to another pool
    api_names_pool_ = &pool;
  }
  const uint64_t key = (uint64_t{static_cast<uint8_t>(domain)} << 32) | cbid;
  auto [it, inserted] = api_names_.try_emplace(key);
  if (inserted) {
    const bool driver = domain == records::ApiDomain::kDriver;
    std::optional<std::string> name;
    if (const std::optional<std::string_view> recorded =
            driver ? DriverApiName(cbid) : RuntimeApiName(cbid)) {
      name = std::string(*recorded);
    } else if (api_name_lookup_) {
      if (std::optional<std::string> looked_up = api_name_lookup_(domain, cbid);
          looked_up && !looked_up->empty()) {
        name = std::string(WithoutVersionSuffix(*looked_up));
      }
    }
    it->second.named = name.has_value();
    it->second.id = pool.Intern(name ? *name
                                     : std::string(driver ? "driver" : "runtime") +
                                           " API call (cbid " + std::to_string(cbid) + ")");
  }
  named = it->second.named;
  return it->second.id;
}

}  // namespace ampprof::cupti
