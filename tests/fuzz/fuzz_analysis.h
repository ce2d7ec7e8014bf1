#ifndef AMPPROF_TESTS_FUZZ_FUZZ_ANALYSIS_H_
#define AMPPROF_TESTS_FUZZ_FUZZ_ANALYSIS_H_

// What `ampprof analyze` does with a model an importer accepted: every analyzer, then every report
// format into a sink. The importer targets call this, so a fuzzed input that reads as a trace also
// exercises the analyzers and the reporters on whatever odd values the importer let through.

#include <ostream>
#include <span>
#include <streambuf>
#include <utility>

#include "reports/html/html_reporter.h"
#include "reports/json/json_reporter.h"
#include "reports/markdown/markdown_reporter.h"
#include "reports/text/text_reporter.h"
#include "src/model/trace_model.h"
#include "src/pipeline/analysis.h"

namespace ampprof::fuzz {

// Discards what it is given (std::ostream with no buffer sets badbit and reporters stop early).
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

inline void AnalyzeAndReport(model::TraceModel model, pipeline::TraceFormat format) {
  pipeline::LoadedTrace trace;
  trace.model = std::move(model);
  trace.input = {"fuzz-input", "fuzz"};
  trace.format = format;
  const analyzers::Report report = pipeline::Analyze(trace);
  const std::span<const analyzers::Report> reports(&report, 1);
  NullBuffer buffer;
  std::ostream sink(&buffer);
  reports::RenderText(reports, sink, {.color = true, .verbose = true});
  reports::RenderJson(reports, sink, {});
  reports::RenderMarkdown(reports, sink);
  reports::RenderHtml(reports, sink, {});
}

}  // namespace ampprof::fuzz

#endif  // AMPPROF_TESTS_FUZZ_FUZZ_ANALYSIS_H_
