#include "reports/json/job_json.h"

#include <string>

#include "analyzers/findings/finding_catalog.h"
#include "analyzers/ranks/job_statements.h"
#include "reports/common/statement_text.h"
#include "reports/json/statement_json.h"

namespace ampprof::reports {
namespace {

using analyzers::JobReport;

void OptionalString(JsonWriter& json, std::string_view key, std::string_view value) {
  json.Key(key);
  value.empty() ? json.Null() : json.String(value);
}

void WriteStragglers(JsonWriter& json, const JobReport& job) {
  const analyzers::StragglerVerdict& verdict = job.stragglers;
  json.Key("stragglers").BeginObject().Field("judged", verdict.judged);
  OptionalString(json, "not_judged", verdict.not_judged);
  json.Key("ranks").BeginArray();
  for (const analyzers::Straggler& s : verdict.stragglers) {
    json.BeginObject().Key("rank");
    s.rank >= 0 ? json.Int(s.rank) : json.Null();
    json.Field("label", s.label)
        .Field("cause", analyzers::StragglerCauseName(s.cause))
        .Field("own_ns", s.own_ns)
        .Field("peers_ns", s.peers_ns)
        .Field("excess_ns", s.excess_ns)
        .Field("excess_fraction", s.excess_share)
        .Field("collectives_ns", s.collectives_ns)
        .Field("peers_collectives_ns", s.peers_collectives_ns)
        .Field("wait_ns", s.wait_ns);
    WriteStatement(json, "text", analyzers::DescribeStraggler(s));
    json.EndObject();
  }
  json.EndArray();
  json.Key("imbalance");
  if (verdict.imbalance) {
    const analyzers::Imbalance& i = *verdict.imbalance;
    json.BeginObject()
        .Field("cause", analyzers::StragglerCauseName(i.cause))
        .Field("min_ns", i.min_ns)
        .Field("max_ns", i.max_ns)
        .Field("min_of", i.min_label)
        .Field("max_of", i.max_label)
        .Field("spread_fraction", i.spread_share)
        .Field("wait_ns", i.wait_ns);
    WriteStatement(json, "text", analyzers::DescribeImbalance(i));
    json.EndObject();
  } else {
    json.Null();
  }
  if (verdict.stragglers.empty() && !verdict.imbalance) {
    WriteStatement(json, "text", analyzers::DescribeNoStraggler(verdict));
  } else {
    json.Key("text").Null();
  }
  json.EndObject();
}

void WriteFindings(JsonWriter& json, const JobReport& job) {
  json.Key("findings").BeginArray();
  for (const analyzers::MergedFinding& f : job.findings) {
    json.BeginObject().Field("id", f.id).Field("severity", analyzers::SeverityName(f.severity));
    const analyzers::FindingInfo* info = analyzers::FindFinding(f.id);
    OptionalString(json, "title", info == nullptr ? std::string_view() : info->title);
    json.Key("ranks").BeginArray();
    for (int32_t rank : f.ranks) json.Int(rank);
    json.EndArray();
    json.Key("unranked").BeginArray();
    for (const std::string& label : f.unranked) json.String(label);
    json.EndArray();
    json.Field("on", analyzers::DescribeRanks(f, job)).Field("count", static_cast<uint64_t>(f.count()));
    json.Key("saving")
        .BeginObject()
        .Field("low_ns", f.low_ns)
        .Field("high_ns", f.high_ns)
        .Field("low_fraction", f.low_fraction)
        .Field("high_fraction", f.high_fraction)
        .Field("per_step", f.per_step)
        .Field("text", DescribeSaving(analyzers::MergedSaving(f), f.per_step))
        .EndObject();
    WriteStatement(json, "verdict", f.verdict);
    json.Field("verdict_of", f.verdict_label);
    json.EndObject();
  }
  json.EndArray();
}

void WriteRows(JsonWriter& json, const JobReport& job) {
  json.Key("rows").BeginArray();
  for (const analyzers::RankRow& row : job.rows) {
    json.BeginObject().Key("rank");
    row.rank >= 0 ? json.Int(row.rank) : json.Null();
    json.Field("label", row.label)
        .Field("trace", row.trace)
        .Field("per_step", row.has_steps)
        .Field("steps", row.steps)
        .Field("duplicate", row.duplicate)
        .Field("data_loss", row.data_loss);
    for (analyzers::Measure measure : analyzers::kAllMeasures) {
      json.Field(std::string(analyzers::MeasureKey(measure)) + "_ns", row.Of(measure));
    }
    json.Key("idle_by_cause_ns").BeginObject();
    for (analyzers::GapCause cause : analyzers::kAllGapCauses) json.Field(analyzers::GapCauseKey(cause), row.idle[cause]);
    json.EndObject();
    json.Field("busy_fraction", row.busy_fraction);
    json.Key("top_finding");
    if (row.top_finding) {
      json.BeginObject()
          .Field("id", row.top_finding->id)
          .Field("severity", analyzers::SeverityName(row.top_finding->severity))
          .Field("saving_ns", row.top_finding->saving.ns)
          .Field("saving_fraction", row.top_finding->saving.fraction)
          .EndObject();
    } else {
      json.Null();
    }
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace

void WriteJob(JsonWriter& json, const JobReport& job) {
  json.BeginObject();
  WriteStatement(json, "verdict", analyzers::DescribeJob(job));
  json.Field("traces", static_cast<uint64_t>(job.traces)).Field("ranks", static_cast<uint64_t>(job.ranks)).Key("world_size");
  job.world_size > 0 ? json.Int(job.world_size) : json.Null();
  OptionalString(json, "backend", job.backend);
  json.Field("per_step", job.per_step).Field("median_step_ns", job.median_step_ns);
  json.Key("notes").BeginArray();
  for (const analyzers::Statement& note : job.notes) json.String(RenderStatement(note));
  json.EndArray();
  WriteStragglers(json, job);
  WriteFindings(json, job);
  json.Key("spread").BeginArray();
  for (const analyzers::MeasureSpread& s : job.spread) {
    json.BeginObject()
        .Field("measure", analyzers::MeasureKey(s.measure))
        .Field("label", analyzers::MeasureLabel(s.measure))
        .Field("min_ns", s.min_ns)
        .Field("median_ns", s.median_ns)
        .Field("max_ns", s.max_ns)
        .Field("min_of", s.min_label)
        .Field("max_of", s.max_label)
        .EndObject();
  }
  json.EndArray();
  WriteRows(json, job);
  json.EndObject();
}

}  // namespace ampprof::reports
