#include "src/pipeline/trace_export.h"

#include <unistd.h>

#include <chrono>
#include <memory>
#include <vector>

#include "analyzers/findings/registry.h"
#include "reports/export/chrome_trace_exporter.h"
#include "reports/export/nvtxt_exporter.h"
#include "src/base/logging.h"
#include "src/base/output_file.h"
#include "src/base/output_target.h"
#include "src/pipeline/analysis.h"
#include "src/pipeline/trace_inputs.h"

namespace ampprof::pipeline {
namespace {

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
  // Everything about the output that can be checked without writing is checked before the trace is
  // read: a long load must not end in "cannot write", and the output must not be the trace.
  ASSIGN_OR_RETURN(const base::OutputTarget target, base::OutputTarget::Resolve(output_path));
  ASSIGN_OR_RETURN(const TraceInputs input, ResolveTraceFile(trace_path));
  RETURN_IF_ERROR(input.RefuseOutput(target));
  ASSIGN_OR_RETURN(const LoadedTrace trace, LoadAndBuild(*input.begin()));
  const auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(const std::unique_ptr<base::OutputFile> output, base::OutputFile::Open(target));
  ExportSummary summary;
  summary.output = target.name();
  summary.to_standard_output = target.kind() == base::OutputTarget::Kind::kDescriptor && target.descriptor() == STDOUT_FILENO;
  const base::Status written = WriteExport(trace, format, output->stream(), summary);
  // A failed write is told by Commit(), with the system's reason; any other failure drops the output
  // (the target stays as it was).
  if (written.ok() || output->failed()) RETURN_IF_ERROR(output->Commit());
  RETURN_IF_ERROR(written.WithContext(target.name()));
  base::LogInfo("exported {} in {:.3f} s", target.name(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return summary;
}

}  // namespace ampprof::pipeline
