#include "collectors/cupti/conversion_context.h"

#include <string>

#include "collectors/cupti/api_callbacks.h"

namespace ampprof::cupti {

base::StringId ConversionContext::ApiCallName(records::ApiDomain domain, uint32_t cbid,
                                              base::StringPool& pool, bool& in_table) {
  if (&pool != api_names_pool_) {
    api_names_.clear();  // the ids belonged to another pool
    api_names_pool_ = &pool;
  }
  const uint64_t key = (uint64_t{static_cast<uint8_t>(domain)} << 32) | cbid;
  auto [it, inserted] = api_names_.try_emplace(key);
  if (inserted) {
    const bool driver = domain == records::ApiDomain::kDriver;
    const std::optional<std::string_view> name =
        driver ? DriverApiName(cbid) : RuntimeApiName(cbid);
    it->second.in_table = name.has_value();
    it->second.id = name ? pool.Intern(*name)
                         : pool.Intern(std::string(driver ? "driver" : "runtime") +
                                       " API call (cbid " + std::to_string(cbid) + ")");
  }
  in_table = it->second.in_table;
  return it->second.id;
}

}  // namespace ampprof::cupti
