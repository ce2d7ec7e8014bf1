#ifndef AMPPROF_COLLECTORS_CUPTI_API_CALL_RECORDING_H_
#define AMPPROF_COLLECTORS_CUPTI_API_CALL_RECORDING_H_

// Which CUDA runtime and driver calls CUPTI records, and the names of those outside ampprof's table.
// By default the calls of api_callbacks.h, enabled one callback id at a time, so CUPTI records those and
// nothing else; with ApiCallSet::kAll (run --api-calls all) the RUNTIME and DRIVER kinds whole, for a
// user (or a GPU check) who needs to see every call. Part of the injected collector: calls libcupti.

#include <cupti.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "collectors/cupti/collector_config.h"
#include "collectors/records/records.h"

namespace ampprof::cupti {

// Turns the recording of `set` on or off. Turning on, `refused` hears each call or kind CUPTI refuses;
// turning off ignores errors (the window is closing either way).
void SetApiCallRecording(ApiCallSet set, bool on,
                         const std::function<void(std::string_view what, CUptiResult result)>& refused);

// The name libcupti gives a callback id ("cudaEventQuery_v3020"), for calls outside api_callbacks.h.
std::optional<std::string> CuptiCallbackName(records::ApiDomain domain, uint32_t cbid);

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_API_CALL_RECORDING_H_
