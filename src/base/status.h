#ifndef AMPPROF_SRC_BASE_STATUS_H_
#define AMPPROF_SRC_BASE_STATUS_H_

// Status and StatusOr<T>: the result of operations that can fail on input ampprof does not control
// (files, command lines, the environment). Broken invariants use CHECK instead, and bad *data* inside an
// otherwise readable trace is counted in Stats and skipped.
//
//   StatusOr<Header> ReadHeader(File& file) {
//     RETURN_IF_ERROR(file.ReadExactly(buffer, 16));
//     if (!HasMagic(buffer)) return InvalidDataError("not an .ampt file (wrong magic)");
//     ...
//   }
//   ASSIGN_OR_RETURN(Header header, ReadHeader(file));
//
// Messages are one line, lower case, without a trailing period; callers add context such as the file
// name with WithContext() so the user sees "trace.ampt: not an .ampt file (wrong magic)".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "src/base/check.h"

namespace ampprof::base {

enum class StatusCode : uint8_t {
  kOk,
  kInvalidArgument,    // the caller (usually the user, through the CLI) asked for something invalid
  kNotFound,           // a file or named thing does not exist
  kIoError,            // the operating system refused a read or write
  kInvalidData,        // input bytes are malformed (wrong magic, corrupt chunk, bad JSON)
  kUnsupported,        // well-formed input this version cannot handle (newer major format version)
  kResourceExhausted,  // a limit was hit (input claims more than ampprof will allocate)
  kInternal,           // a bug in ampprof
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message);

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with "<context>: ", e.g. the file being read. No-op on an OK status.
  Status WithContext(std::string_view context) const;
  std::string ToString() const;

  friend bool operator==(const Status&, const Status&) = default;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }

template <typename... Args>
Status MakeError(StatusCode code, fmt::format_string<Args...> format, Args&&... args) {
  return Status(code, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
Status InvalidArgumentError(fmt::format_string<Args...> format, Args&&... args) {
  return MakeError(StatusCode::kInvalidArgument, format, std::forward<Args>(args)...);
}
template <typename... Args>
Status NotFoundError(fmt::format_string<Args...> format, Args&&... args) {
  return MakeError(StatusCode::kNotFound, format, std::forward<Args>(args)...);
}
template <typename... Args>
Status IoError(fmt::format_string<Args...> format, Args&&... args) {
  return MakeError(StatusCode::kIoError, format, std::forward<Args>(args)...);
}
template <typename... Args>
Status InvalidDataError(fmt::format_string<Args...> format, Args&&... args) {
  return MakeError(StatusCode::kInvalidData, format, std::forward<Args>(args)...);
}
template <typename... Args>
Status UnsupportedError(fmt::format_string<Args...> format, Args&&... args) {
  return MakeError(StatusCode::kUnsupported, format, std::forward<Args>(args)...);
}
template <typename... Args>
Status ResourceExhaustedError(fmt::format_string<Args...> format, Args&&... args) {
  return MakeError(StatusCode::kResourceExhausted, format, std::forward<Args>(args)...);
}
template <typename... Args>
Status InternalError(fmt::format_string<Args...> format, Args&&... args) {
  return MakeError(StatusCode::kInternal, format, std::forward<Args>(args)...);
}

// Holds either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    AMPPROF_CHECK_MSG(!status_.ok(), "StatusOr constructed from an OK status without a value");
  }
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  T& value() & { return CheckedValue(); }
  const T& value() const& { return const_cast<StatusOr*>(this)->CheckedValue(); }
  T&& value() && { return std::move(CheckedValue()); }
  T& operator*() & { return CheckedValue(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &CheckedValue(); }
  const T* operator->() const { return &value(); }

 private:
  T& CheckedValue() {
    AMPPROF_CHECK_MSG(value_.has_value(), status_.message().c_str());
    return *value_;
  }

  Status status_;
  std::optional<T> value_;
};

}  // namespace ampprof::base

#define AMPPROF_STATUS_CONCAT_INNER(a, b) a##b
#define AMPPROF_STATUS_CONCAT(a, b) AMPPROF_STATUS_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function if `expr` is not OK.
#define RETURN_IF_ERROR(expr)                                   \
  do {                                                          \
    ::ampprof::base::Status ampprof_status_ = (expr);           \
    if (!ampprof_status_.ok()) return ampprof_status_;          \
  } while (false)

// `ASSIGN_OR_RETURN(Type name, Function());` declares `name` from the value, or returns the error.
#define ASSIGN_OR_RETURN(lhs, expr) \
  AMPPROF_ASSIGN_OR_RETURN_IMPL(AMPPROF_STATUS_CONCAT(ampprof_status_or_, __LINE__), lhs, expr)
#define AMPPROF_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()

#endif  // AMPPROF_SRC_BASE_STATUS_H_
