#ifndef AMPPROF_SRC_PIPELINE_STANDARD_INPUT_COPY_H_
#define AMPPROF_SRC_PIPELINE_STANDARD_INPUT_COPY_H_

// A trace read from standard input ("-"), copied whole into a private temporary file first: the
// readers need a file they can seek in and open by name (SQLite does), which a pipe is not.
//
//   ASSIGN_OR_RETURN(std::unique_ptr<StandardInputCopy> copy, StandardInputCopy::Create());
//   LoadTrace(copy->path(), builder, "standard input");
//
// The copy is made in $TMPDIR (else /tmp), readable by its owner only, and removed when the object
// goes away, or when a signal stops ampprof (removal_on_signal.h). Memory stays at one block
// whatever the size of the trace.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "src/base/file_identity.h"
#include "src/base/removal_on_signal.h"
#include "src/base/status.h"

namespace ampprof::pipeline {

class StandardInputCopy {
 public:
  static constexpr std::string_view kName = "standard input";

  // Reads standard input to its end. Errors: it cannot be read, or the copy cannot be written (a
  // full temporary directory), naming the reason.
  static base::StatusOr<std::unique_ptr<StandardInputCopy>> Create();
  ~StandardInputCopy();
  StandardInputCopy(const StandardInputCopy&) = delete;
  StandardInputCopy& operator=(const StandardInputCopy&) = delete;

  const std::string& path() const { return path_; }
  // The regular file standard input was redirected from ("< trace.json"), if it was one: an output
  // must not replace it.
  const std::optional<base::FileIdentity>& source() const { return source_; }

 private:
  explicit StandardInputCopy(std::string path) : path_(std::move(path)), removal_(path_) {}

  std::string path_;
  base::RemovalOnSignal removal_;
  std::optional<base::FileIdentity> source_;
};

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_STANDARD_INPUT_COPY_H_
