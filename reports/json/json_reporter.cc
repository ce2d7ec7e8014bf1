#include "reports/json/json_reporter.h"

#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "analyzers/findings/finding_catalog.h"
#include "analyzers/findings/finding_fix.h"
#include "analyzers/report/verdict.h"
#include "analyzers/report/workload_outcome.h"
#include "reports/json/json_writer.h"

namespace ampprof::reports {
namespace {

using analyzers::Report;

// Stable keys for the idle causes of idle_gaps.h (GapCauseName is the prose the text report prints).
std::string_view GapCauseKey(analyzers::GapCause cause) {
  switch (cause) {
    case analyzers::GapCause::kHostLaunch: return "host_launch";
    case analyzers::GapCause::kHostSync: return "host_sync";
    case analyzers::GapCause::kHostOther: return "host_other";
    case analyzers::GapCause::kQueued: return "queued";
    case analyzers::GapCause::kUnattributed: return "unattributed";
  }
  return "unattributed";
}

void WriteInterval(JsonWriter& json, std::string_view key, const std::optional<base::Interval>& interval) {
  json.Key(key);
  if (!interval) {
    json.Null();
    return;
  }
  json.BeginObject()
      .Field("start_ns", interval->start)
      .Field("end_ns", interval->end)
      .Field("duration_ns", interval->duration())
      .EndObject();
}

void WriteOptionalString(JsonWriter& json, std::string_view key, std::string_view value) {
  json.Key(key);
  if (value.empty()) {
    json.Null();
  } else {
    json.String(value);
  }
}

void WriteVerdict(JsonWriter& json, const Report& report) {
  const analyzers::Verdict verdict = analyzers::JudgeReport(report);
  json.Key("verdict").BeginObject();
  json.Key("worst_severity");
  if (verdict.worst) {
    json.String(analyzers::SeverityName(*verdict.worst));
  } else {
    json.Null();
  }
  json.Field("critical", static_cast<uint64_t>(verdict.critical))
      .Field("warning", static_cast<uint64_t>(verdict.warnings))
      .Field("info", static_cast<uint64_t>(verdict.infos));
  WriteOptionalString(json, "start_with", verdict.start_with);
  json.Field("text", verdict.text).EndObject();
}

void WriteFindings(JsonWriter& json, const Report& report) {
  json.Key("findings").BeginArray();
  for (const analyzers::Finding& finding : report.findings) {
    json.BeginObject().Field("id", finding.id).Field("severity", analyzers::SeverityName(finding.severity));
    const analyzers::FindingInfo* info = analyzers::FindFinding(finding.id);
    WriteOptionalString(json, "title", info == nullptr ? std::string_view() : info->title);
    json.Field("verdict", finding.verdict).Field("time_ns", finding.time_ns);
    json.Key("evidence").BeginArray();
    for (const analyzers::Evidence& evidence : finding.evidence) {
      json.BeginObject().Field("label", evidence.label).Field("value", evidence.value).EndObject();
    }
    json.EndArray();
    json.Key("examples").BeginArray();
    for (const std::string& example : finding.examples) json.String(example);
    json.EndArray();
    WriteOptionalString(json, "fix", analyzers::FindingFix(finding.id));
    json.Field("explain", fmt::format("ampprof explain {}", finding.id));
    json.EndObject();
  }
  json.EndArray();
  json.Key("checks_run").BeginArray();
  for (const std::string& check : report.checks_run) json.String(check);
  json.EndArray();
}

void WriteSteps(JsonWriter& json, const analyzers::TraceSummary& s) {
  json.Key("steps");
  if (s.steps == 0) {
    json.Null();
    return;
  }
  json.BeginObject()
      .Field("count", s.steps)
      .Field("warmup", s.warmup_steps)
      .Field("source", s.step_source)
      .Field("median_ns", s.median_step_ns)
      .Field("p90_ns", s.p90_step_ns);
  json.Key("first").BeginArray();
  for (const analyzers::StepTime& step : s.step_times) {
    json.BeginObject()
        .Field("index", step.index)
        .Field("start_ns", step.interval.start)
        .Field("duration_ns", step.interval.duration())
        .Field("warmup", step.warmup)
        .EndObject();
  }
  json.EndArray().EndObject();
}

void WriteDevice(JsonWriter& json, const analyzers::DeviceSummary& device) {
  json.BeginObject().Field("pid", device.pid).Field("device_id", device.device_id);
  WriteOptionalString(json, "name", device.name);
  json.Key("compute_capability");
  if (device.compute_major > 0) {
    json.String(fmt::format("{}.{}", device.compute_major, device.compute_minor));
  } else {
    json.Null();
  }
  json.Key("sm_count");
  device.sm_count > 0 ? json.Uint(device.sm_count) : json.Null();
  json.Key("global_memory_bytes");
  device.global_memory_bytes > 0 ? json.Uint(device.global_memory_bytes) : json.Null();
  json.Field("kernels", device.kernels).Field("streams_with_kernels", device.streams_with_kernels);
  WriteInterval(json, "span", device.span);
  json.Field("busy_ns", device.busy_ns).Field("busy_fraction", device.busy_fraction);
  json.Key("idle_ns").BeginObject();
  for (size_t c = 0; c < analyzers::kGapCauses; ++c) {
    const auto cause = static_cast<analyzers::GapCause>(c);
    json.Field(GapCauseKey(cause), device.idle_by_cause[cause]);
  }
  json.EndObject();
  json.Key("peak_allocated_bytes");
  device.peak_allocated_bytes ? json.Uint(*device.peak_allocated_bytes) : json.Null();
  json.EndObject();
}

void WriteSummary(JsonWriter& json, const analyzers::TraceSummary& s) {
  json.Key("summary").BeginObject();
  WriteOptionalString(json, "workload", s.workload);
  json.Key("processes").BeginArray();
  for (const analyzers::ProcessSummary& process : s.process_list) {
    json.BeginObject().Field("pid", process.pid);
    WriteOptionalString(json, "command", process.command);
    json.Key("rank");
    process.rank >= 0 ? json.Int(process.rank) : json.Null();
    json.Key("world_size");
    process.world_size > 0 ? json.Int(process.world_size) : json.Null();
    json.EndObject();
  }
  json.EndArray();
  json.Key("records")
      .BeginObject()
      .Field("kernels", s.kernels)
      .Field("api_calls", s.api_calls)
      .Field("memcpys", s.memcpys)
      .Field("memsets", s.memsets)
      .Field("syncs", s.syncs)
      .Field("ranges", s.ranges)
      .Field("marks", s.marks)
      .Field("memory_events", s.memory_events)
      .Field("threads", s.threads)
      .EndObject();
  json.Key("host")
      .BeginObject()
      .Field("synchronize_calls", s.synchronize_calls)
      .Field("pageable_copies", s.pageable_copies)
      .Field("pageable_copy_bytes", s.pageable_copy_bytes)
      .EndObject();
  WriteInterval(json, "gpu_span", s.gpu_span);
  json.Field("kernel_time_ns", s.kernel_time_ns);
  WriteSteps(json, s);
  json.Key("devices").BeginArray();
  for (const analyzers::DeviceSummary& device : s.devices) WriteDevice(json, device);
  json.EndArray();
  json.Key("categories").BeginArray();
  for (const analyzers::CategoryTimeSummary& category : s.categories) {
    json.BeginObject()
        .Field("category", category.category)
        .Field("kernels", category.kernels)
        .Field("total_ns", category.total_ns)
        .Field("share_of_kernel_time", category.share_of_kernel_time)
        .EndObject();
  }
  json.EndArray();
  json.Key("top_kernels").BeginArray();
  for (const analyzers::KernelTimeSummary& kernel : s.top_kernels) {
    json.BeginObject().Field("name", kernel.name);
    WriteOptionalString(json, "kind", kernel.kind);
    json.Field("launches", kernel.count)
        .Field("total_ns", kernel.total_ns)
        .Field("share_of_kernel_time", kernel.share_of_kernel_time)
        .EndObject();
  }
  json.EndArray();
  json.EndObject();
}

void WriteComparedRun(JsonWriter& json, std::string_view key, const analyzers::ComparedRun& run) {
  json.Key(key).BeginObject().Field("trace", run.trace);
  WriteOptionalString(json, "label", run.label);
  WriteOptionalString(json, "device", run.device);
  json.Field("steps", static_cast<uint64_t>(run.steps)).Field("warmup_steps", static_cast<uint64_t>(run.warmup_steps));
  WriteOptionalString(json, "step_source", run.step_source);
  json.Field("time_ns", run.time_ns).Key("range_step_ns");
  run.range_step_ns > 0 ? json.Int(run.range_step_ns) : json.Null();
  json.Field("gpu_time_ns", run.gpu_time_ns)
      .Field("busy_fraction", run.busy_fraction)
      .Field("kernels_per_unit", run.kernels_per_unit)
      .Field("reduced_precision", run.reduced_precision)
      .Field("data_loss", run.data_loss)
      .EndObject();
}

void WriteComparison(JsonWriter& json, const analyzers::Comparison& c) {
  json.Key("comparison").BeginObject();
  json.Field("basis", c.basis == analyzers::CompareBasis::kMedianStep ? "median_step" : "whole_run");
  json.Key("speedup");
  c.speedup > 0.0 ? json.Double(c.speedup) : json.Null();
  WriteComparedRun(json, "baseline", c.baseline);
  WriteComparedRun(json, "candidate", c.candidate);
  json.Key("rows").BeginArray();
  for (const analyzers::ComparisonRow& row : c.rows) {
    json.BeginObject()
        .Field("label", row.label)
        .Field("baseline_ns", row.baseline_ns)
        .Field("candidate_ns", row.candidate_ns)
        .Field("change_ns", row.change_ns());
    WriteOptionalString(json, "explained_by", row.explained_by);
    json.EndObject();
  }
  json.EndArray();
  json.Key("notes").BeginArray();
  for (const std::string& note : c.notes) json.String(note);
  json.EndArray();
  json.EndObject();
}

void WriteDataQuality(JsonWriter& json, const base::Stats& stats) {
  json.Key("data_quality").BeginObject().Field("data_loss", stats.HasDataLoss());
  json.Key("stats").BeginArray();
  for (const base::StatEntry& entry : stats.NonZero()) {
    json.BeginObject()
        .Field("name", entry.info->name)
        .Field("severity", base::SeverityName(entry.info->severity))
        .Field("value", entry.value)
        .Field("description", entry.info->description)
        .EndObject();
  }
  json.EndArray().EndObject();
}

void WriteWorkloadOutcome(JsonWriter& json, const analyzers::WorkloadOutcome& outcome) {
  json.Key("workload_outcome").BeginObject().Field("exit_status", outcome.ShellStatus()).Key("exit_code");
  outcome.signal == 0 ? json.Int(outcome.exit_code) : json.Null();
  json.Key("signal");
  outcome.signal != 0 ? json.Int(outcome.signal) : json.Null();
  WriteOptionalString(json, "signal_name", outcome.signal != 0 ? analyzers::SignalName(outcome.signal) : "");
  json.Field("text", analyzers::DescribeOutcome(outcome)).EndObject();
}

void WriteReport(JsonWriter& json, const Report& report) {
  json.BeginObject().Field("label", report.label).Key("rank");
  report.rank >= 0 ? json.Int(report.rank) : json.Null();
  json.Key("inputs").BeginArray();
  for (const analyzers::ReportInput& input : report.inputs) {
    json.BeginObject().Field("path", input.path).Field("format", input.format).EndObject();
  }
  json.EndArray();
  if (report.workload_outcome) WriteWorkloadOutcome(json, *report.workload_outcome);
  WriteVerdict(json, report);
  WriteFindings(json, report);
  if (report.comparison) WriteComparison(json, *report.comparison);
  WriteSummary(json, report.summary);
  WriteDataQuality(json, report.stats);
  json.EndObject();
}

}  // namespace

void RenderJson(std::span<const Report> reports, std::ostream& out, const JsonOptions& options) {
  JsonWriter json(out);
  json.BeginObject().Field("schema_version", kJsonSchemaVersion);
  if (!options.generator.empty()) json.Field("generator", options.generator);
  json.Key("reports").BeginArray();
  for (const Report& report : reports) WriteReport(json, report);
  json.EndArray().EndObject();
}

}  // namespace ampprof::reports
