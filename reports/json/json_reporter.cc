#include "reports/json/json_reporter.h"

#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "analyzers/findings/finding_catalog.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/report/verdict.h"
#include "analyzers/report/workload_outcome.h"
#include "reports/common/statement_text.h"
#include "reports/json/job_json.h"
#include "reports/json/json_writer.h"
#include "reports/json/statement_json.h"

namespace ampprof::reports {
namespace {

using analyzers::Report;

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

void WriteSaving(JsonWriter& json, const analyzers::Saving& saving) {
  json.Field("saving_ns", saving.ns).Field("saving_fraction", saving.fraction);
  json.Key("saving")
      .BeginObject()
      .Field("low_ns", saving.low_ns)
      .Field("high_ns", saving.ns)
      .Field("low_fraction", saving.low_fraction)
      .Field("high_fraction", saving.fraction)
      .Field("basis", saving.basis)
      .EndObject();
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
  WriteOptionalString(json, "nothing_to_diagnose", verdict.nothing_to_diagnose);
  json.Field("text", verdict.text).EndObject();
}

// Where the finding shows in the trace, in the trace's clock (nanoseconds, as the trace records
// them).
void WriteLocations(JsonWriter& json, const analyzers::Finding& finding) {
  json.Key("locations").BeginArray();
  for (const analyzers::Location& location : finding.locations) {
    json.BeginObject()
        .Field("start_ns", location.interval.start)
        .Field("end_ns", location.interval.end)
        .Field("kind", analyzers::LocationKindKey(location.kind));
    json.Key("device");
    location.device_id >= 0 ? json.Int(location.device_id) : json.Null();
    json.Key("stream");
    location.stream_id >= 0 ? json.Int(location.stream_id) : json.Null();
    json.Field("label", location.label).EndObject();
  }
  json.EndArray();
  json.Field("locations_left_out", finding.locations_left_out);
}

void WriteFindings(JsonWriter& json, const Report& report) {
  json.Key("findings").BeginArray();
  for (const analyzers::Finding& finding : report.findings) {
    json.BeginObject().Field("id", finding.id).Field("severity", analyzers::SeverityName(finding.severity));
    const analyzers::FindingInfo* info = analyzers::FindFinding(finding.id);
    WriteOptionalString(json, "title", info == nullptr ? std::string_view() : info->title);
    json.Key("device_id");
    finding.device_id >= 0 ? json.Int(finding.device_id) : json.Null();
    WriteStatement(json, "verdict", finding.verdict);
    WriteSaving(json, finding.saving);
    json.Key("evidence").BeginArray();
    for (const analyzers::Evidence& evidence : finding.evidence) {
      json.BeginObject().Field("label", evidence.label);
      WriteStatement(json, "value", evidence.value);
      json.EndObject();
    }
    json.EndArray();
    json.Key("examples").BeginArray();
    for (const std::string& example : finding.examples) json.String(example);
    json.EndArray();
    WriteOptionalString(json, "fix", finding.fix);
    WriteOptionalString(json, "fix_code", finding.fix_code);
    json.Field("explain", fmt::format("ampprof explain {}", finding.id));
    WriteLocations(json, finding);
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

void WriteAccount(JsonWriter& json, const analyzers::AccountSummary& account) {
  json.BeginObject().Field("basis", account.basis).Field("steps", static_cast<uint64_t>(account.steps));
  WriteInterval(json, "window", account.window);
  json.Field("median_step_ns", account.median_step_ns)
      .Field("p90_step_ns", account.p90_step_ns)
      .Field("busy_ns", account.busy_ns)
      .Field("busy_fraction", account.busy_fraction)
      .Field("compute_ns", account.compute_ns)
      .Field("exposed_communication_ns", account.exposed_communication_ns)
      .Field("overlapped_communication_ns", account.overlapped_communication_ns)
      .Field("copy_ns", account.copy_ns);
  json.Key("idle_ns").BeginObject();
  for (analyzers::GapCause cause : analyzers::kAllGapCauses) json.Field(analyzers::GapCauseKey(cause), account.idle[cause]);
  json.EndObject();
  json.Key("gaps").BeginObject();
  for (analyzers::GapCause cause : analyzers::kAllGapCauses) json.Field(analyzers::GapCauseKey(cause), account.gaps[cause]);
  json.EndObject();
  json.Key("rows").BeginArray();
  for (const analyzers::AccountRow& row : account.rows) {
    json.BeginObject()
        .Field("key", row.key)
        .Field("label", row.label)
        .Field("total_ns", row.total_ns)
        .Field("per_step_ns", row.per_step_ns)
        .Field("share", row.share)
        .Field("kernels", row.kernels)
        .EndObject();
  }
  json.EndArray();
  json.Key("communication").BeginArray();
  for (const analyzers::CollectiveTime& collective : account.communication) {
    json.BeginObject()
        .Field("collective", collective.collective)
        .Field("kernels", collective.kernels)
        .Field("kernel_ns", collective.kernel_ns)
        .Field("exposed_ns", collective.exposed_ns)
        .Field("overlapped_ns", collective.overlapped_ns)
        .Field("shortest_ns", collective.shortest_ns)
        .Field("median_ns", collective.median_ns)
        .EndObject();
  }
  json.EndArray();
  json.EndObject();
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
  json.Key("account");
  if (device.account) {
    WriteAccount(json, *device.account);
  } else {
    json.Null();
  }
  json.Key("peak_allocated_bytes");
  device.peak_allocated_bytes ? json.Uint(*device.peak_allocated_bytes) : json.Null();
  json.Key("memory");
  if (device.peak_allocated_bytes || device.peak_reserved_bytes) {
    json.BeginObject().Field("source", device.memory_source);
    auto peak = [&](std::string_view key, const std::optional<uint64_t>& bytes, int32_t step) {
      json.Key(key);
      if (!bytes) {
        json.Null();
        return;
      }
      json.BeginObject().Field("bytes", *bytes).Key("step");
      step >= 0 ? json.Int(step) : json.Null();
      json.EndObject();
    };
    peak("peak_allocated", device.peak_allocated_bytes, device.peak_allocated_step);
    peak("peak_reserved", device.peak_reserved_bytes, device.peak_reserved_step);
    json.EndObject();
  } else {
    json.Null();
  }
  json.EndObject();
}

void WriteRunKind(JsonWriter& json, const analyzers::TraceSummary& s) {
  json.Key("run_kind").BeginObject().Field("kind", analyzers::RunKindId(s.run_kind));
  WriteOptionalString(json, "evidence", s.run_kind_evidence);
  json.EndObject();
}

void WriteOps(JsonWriter& json, const analyzers::OpTable& table) {
  json.Key("ops").BeginObject();
  json.Field("device_id", table.device_id)
      .Field("steps", static_cast<uint64_t>(table.steps))
      .Field("kernels", table.kernels)
      .Field("attributed_kernels", table.attributed_kernels)
      .Field("kernel_ns", table.kernel_ns)
      .Field("attributed_ns", table.attributed_ns)
      .Field("distinct_ops", static_cast<uint64_t>(table.distinct_ops));
  json.Key("rows").BeginArray();
  for (const analyzers::OpRow& row : table.rows) {
    json.BeginObject().Field("name", row.name);
    WriteOptionalString(json, "shapes", row.shapes);
    WriteOptionalString(json, "input_type", row.input_type);
    json.Field("backward", row.backward);
    WriteOptionalString(json, "forward", row.forward);
    json.Field("calls", row.calls)
        .Field("kernels", row.kernels)
        .Field("kernel_ns", row.kernel_ns)
        .Field("per_step_ns", row.per_step_ns)
        .Field("share", row.share);
    WriteOptionalString(json, "unit", row.unit);
    json.EndObject();
  }
  json.EndArray().EndObject();
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
  json.Field("kernel_time_ns", s.kernel_time_ns).Field("account_basis", s.account_basis);
  WriteSteps(json, s);
  WriteRunKind(json, s);
  json.Key("devices").BeginArray();
  for (const analyzers::DeviceSummary& device : s.devices) WriteDevice(json, device);
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
  json.Field("time_ns", run.time_ns)
      .Field("gpu_time_ns", run.gpu_time_ns)
      .Field("busy_fraction", run.busy_fraction)
      .Field("kernels_per_unit", run.kernels_per_unit)
      .Field("reduced_precision", run.reduced_precision)
      .Field("data_loss", run.data_loss);
  json.Key("peak_allocated_bytes");
  run.peak_allocated_bytes ? json.Uint(*run.peak_allocated_bytes) : json.Null();
  json.Key("peak_reserved_bytes");
  run.peak_reserved_bytes ? json.Uint(*run.peak_reserved_bytes) : json.Null();
  json.EndObject();
}

std::string_view RunPairKey(analyzers::RunPair pair) {
  switch (pair) {
    case analyzers::RunPair::kFp32VsMixed: return "fp32_vs_mixed";
    case analyzers::RunPair::kSwapped: return "swapped";
    case analyzers::RunPair::kBothFp32: return "both_fp32";
    case analyzers::RunPair::kBothMixed: return "both_mixed";
  }
  return "unknown";
}

void WriteComparison(JsonWriter& json, const analyzers::Comparison& c) {
  json.Key("comparison").BeginObject();
  json.Field("basis", c.basis == analyzers::CompareBasis::kMedianStep ? "median_step" : "whole_run");
  json.Field("pair", RunPairKey(c.pair));
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
  json.Key("warnings").BeginArray();
  for (const analyzers::Statement& warning : c.warnings) json.String(RenderStatement(warning));
  json.EndArray();
  json.Key("notes").BeginArray();
  for (const analyzers::Statement& note : c.notes) json.String(RenderStatement(note));
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
  if (report.ops) WriteOps(json, *report.ops);
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

void RenderJson(const analyzers::JobReport& job, std::span<const Report> reports, std::ostream& out,
                const JsonOptions& options) {
  JsonWriter json(out);
  json.BeginObject().Field("schema_version", kJsonSchemaVersion);
  if (!options.generator.empty()) json.Field("generator", options.generator);
  json.Key("job");
  WriteJob(json, job);
  json.Key("reports").BeginArray();
  for (const Report& report : reports) WriteReport(json, report);
  json.EndArray().EndObject();
}

}  // namespace ampprof::reports
