#include "collectors/cupti/api_call_recording.h"

#include <fmt/format.h>

#include <array>

#include "collectors/cupti/api_callbacks.h"

namespace ampprof::cupti {
namespace {

constexpr std::array kApiKinds = {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER};

}  // namespace

void SetApiCallRecording(ApiCallSet set, bool on,
                         const std::function<void(std::string_view what, CUptiResult result)>& refused) {
  const auto check = [&](std::string_view what, CUptiResult result) {
    if (on && result != CUPTI_SUCCESS) refused(what, result);
  };
  if (set == ApiCallSet::kAll) {
    for (const CUpti_ActivityKind kind : kApiKinds) {
      check(fmt::format("kind {}", static_cast<int>(kind)), on ? cuptiActivityEnable(kind) : cuptiActivityDisable(kind));
    }
    return;
  }
  const uint8_t enable = on ? 1 : 0;
  for (const ApiCallback& call : RuntimeApiCallbacks()) check(call.name, cuptiActivityEnableRuntimeApi(call.cbid, enable));
  for (const ApiCallback& call : DriverApiCallbacks()) check(call.name, cuptiActivityEnableDriverApi(call.cbid, enable));
}

std::optional<std::string> CuptiCallbackName(records::ApiDomain domain, uint32_t cbid) {
  const char* name = nullptr;
  const CUpti_CallbackDomain cupti_domain =
      domain == records::ApiDomain::kDriver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
  if (cuptiGetCallbackName(cupti_domain, cbid, &name) != CUPTI_SUCCESS || name == nullptr) return std::nullopt;
  return std::string(name);
}

}  // namespace ampprof::cupti
