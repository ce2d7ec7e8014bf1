#include "src/pipeline/trace_export.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "analyzers/findings/registry.h"
#include "reports/export/chrome_trace_exporter.h"
#include "reports/export/nvtxt_exporter.h"
#include "src/base/logging.h"
#include "src/pipeline/analysis.h"

namespace ampprof::pipeline {
namespace {

// Removes a partly written output, unless it is not a regular file (/dev/stdout, a pipe).
void RemovePartialOutput(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error)) std::filesystem::remove(path, error);
}

base::Status WriteExport(const LoadedTrace& trace, ExportFormat format, std::ostream& out,
                         ExportSummary& summary) {
  const analyzers::AnalysisInput analysis(trace.model);
  const std::vector<analyzers::Finding> findings = analyzers::RunAnalyzers(analysis);
  const std::optional<analyzers::Steps>& steps = analysis.steps();
  summary.kernels = trace.model.kernels().size();
  summary.steps = steps ? steps->intervals.size() : 0;
  summary.findings = findings.size();
  const reports::ExportInput input{trace.model, steps, findings, trace.input.path};
  switch (format) {
    case ExportFormat::kChromeTrace:
      return reports::WriteChromeTrace(input, out);
    case ExportFormat::kNvtxt: {
      // Nsight Systems' SQLite export keeps the report's clock: nanoseconds from the session's
      // start, which ImportNvtxt calls a Relative time base. Other traces keep their own clock
      // (Manual).
      summary.nsys_timebase = trace.format == TraceFormat::kNsysSqlite;
      const reports::NvtxtOptions options{summary.nsys_timebase ? reports::NvtxtTimeBase::kRelative
                                                                : reports::NvtxtTimeBase::kManual};
      return reports::WriteNvtxt(input, options, out);
    }
  }
  return base::InternalError("unknown export format");
}

}  // namespace

std::optional<ExportFormat> ExportFormatNamed(std::string_view name) {
  if (name == "chrome") return ExportFormat::kChromeTrace;
  if (name == "nvtxt") return ExportFormat::kNvtxt;
  return std::nullopt;
}

base::StatusOr<ExportSummary> ExportTrace(const std::string& trace_path, ExportFormat format,
                                          const std::string& output_path) {
  std::ofstream out(output_path, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!out) return base::IoError("{}: cannot write: {}", output_path, std::strerror(errno));
  auto trace = LoadAndBuild(trace_path);
  if (!trace.ok()) {
    out.close();
    RemovePartialOutput(output_path);
    return trace.status();
  }
  const auto start = std::chrono::steady_clock::now();
  ExportSummary summary;
  base::Status written = WriteExport(*trace, format, out, summary);
  out.close();
  if (written.ok() && !out) written = base::IoError("cannot close the file");
  if (!written.ok()) {
    RemovePartialOutput(output_path);
    return written.WithContext(output_path);
  }
  base::LogInfo("exported {} in {:.3f} s", output_path,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return summary;
}

}  // namespace ampprof::pipeline
