// libFuzzer target: a directory given as the traces, as `ampprof analyze DIR` takes it. The input
// becomes a few entries (files with names and contents, symbolic links, loops of them,
// subdirectories, named pipes, unreadable files: fuzz_directory.h) in a fresh directory; the
// directory expansion lists and sniffs them, an output named after the first entry is checked
// against the inputs, and whatever is left is loaded (a file that fails to load is skipped),
// analysed and rendered as text, JSON and Markdown. A hang (a FIFO opened for a blocking read) is a
// finding through libFuzzer's -timeout.

#include <span>
#include <string>

#include "reports/json/json_reporter.h"
#include "reports/markdown/markdown_reporter.h"
#include "reports/text/text_reporter.h"
#include "src/base/logging.h"
#include "src/base/output_target.h"
#include "src/pipeline/analysis.h"
#include "tests/fuzz/fuzz_analysis.h"
#include "tests/fuzz/fuzz_directory.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The warnings naming each skipped entry would be most of the run's output and time.
  ampprof::base::SetLogLevel(ampprof::base::LogLevel::kError);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ampprof;
  const std::vector<fuzz::FuzzEntry> entries = fuzz::DecodeFuzzEntries(data, size);
  const fuzz::FuzzDirectory directory(entries);
  const std::string output =
      directory.path() + "/" + (entries.empty() ? "report.txt" : entries.front().name);
  // Checked as analyze checks its -o, but the analysis goes on either way: the first entry is
  // usually a trace, and a refusal would end most runs before the loading, which is what is fuzzed
  // here.
  const auto check_output = [&](const pipeline::TraceInputs& traces, const pipeline::TraceInputs&) {
    if (const auto target = base::OutputTarget::Resolve(output); target.ok()) {
      (void)traces.RefuseOutput(*target);
    }
    return base::OkStatus();
  };
  const auto reports =
      pipeline::AnalyzeTraces({directory.path()}, {.before_reading = check_output});
  if (!reports.ok()) return 0;
  fuzz::NullBuffer buffer;
  std::ostream sink(&buffer);
  // Not the HTML page: it took two thirds of each run here, and the importer targets render it for
  // every trace they accept; what this target adds is several reports from one directory.
  reports::RenderText(*reports, sink, {.color = true, .verbose = true});
  reports::RenderJson(*reports, sink, {});
  reports::RenderMarkdown(*reports, sink);
  return 0;
}
