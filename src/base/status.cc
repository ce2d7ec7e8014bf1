#include "src/base/status.h"

namespace ampprof::base {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kIoError: return "i/o error";
    case StatusCode::kInvalidData: return "invalid data";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kResourceExhausted: return "resource exhausted";
    case StatusCode::kInternal: return "internal error";
  }
  return "unknown";
}

Status::Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {
  AMPPROF_CHECK_MSG(code != StatusCode::kOk || message_.empty(), "an OK status carries no message");
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  return Status(code_, fmt::format("{}: {}", context, message_));
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  return fmt::format("{} ({})", message_, StatusCodeName(code_));
}

}  // namespace ampprof::base
