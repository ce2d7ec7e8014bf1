#include "reports/json/rank_summary_json.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <simdjson.h>

#include "reports/json/json_writer.h"

namespace ampprof::reports {
namespace {

namespace dom = simdjson::dom;

// A summary is a few KiB per rank; this is some 200,000 ranks, and bounds the memory a file that is no
// summary can make the parser take.
constexpr std::streamoff kMaxSummaryBytes = std::streamoff{1} << 30;
// Times in a summary are at most a year: a reduction adds a few of them (compute and host wait, every
// cause of idle), which must not overflow 64 bits whatever a file says.
constexpr int64_t kMaxSummaryDurationNs = int64_t{365} * 24 * 3600 * 1'000'000'000;
using analyzers::GapCause;
using analyzers::RankSummary;

// ---- Writing ----

std::string_view UnitName(analyzers::Unit unit) {
  switch (unit) {
    case analyzers::Unit::kDuration: return "duration";
    case analyzers::Unit::kBytes: return "bytes";
    case analyzers::Unit::kCount: return "count";
    case analyzers::Unit::kFraction: return "fraction";
    case analyzers::Unit::kRatio: return "ratio";
    case analyzers::Unit::kNumber: return "number";
  }
  return "number";
}

void WriteStatement(JsonWriter& json, std::string_view key, const analyzers::Statement& statement) {
  json.Key(key).BeginObject().Field("text", statement.text);
  json.Key("values").BeginArray();
  for (const analyzers::Quantity& value : statement.values) {
    json.BeginObject().Field("key", value.key).Field("unit", UnitName(value.unit)).Field("value", value.value).EndObject();
  }
  json.EndArray().EndObject();
}

void WriteAccount(JsonWriter& json, const RankSummary& s) {
  json.Key("account").BeginObject();
  json.Field("basis", s.basis)
      .Field("step_source", s.step_source)
      .Field("steps", s.steps)
      .Field("window_ns", s.window_ns)
      .Field("median_step_ns", s.median_step_ns)
      .Field("p90_step_ns", s.p90_step_ns)
      .Field("compute_ns", s.compute_ns)
      .Field("exposed_communication_ns", s.exposed_communication_ns)
      .Field("overlapped_communication_ns", s.overlapped_communication_ns)
      .Field("copy_ns", s.copy_ns);
  json.Key("idle_ns").BeginObject();
  for (GapCause cause : analyzers::kAllGapCauses) json.Field(analyzers::GapCauseKey(cause), s.idle[cause]);
  json.EndObject();
  json.Key("communication").BeginArray();
  for (const analyzers::RankCollective& c : s.communication) {
    json.BeginObject()
        .Field("collective", c.collective)
        .Field("kernels", c.kernels)
        .Field("kernel_ns", c.kernel_ns)
        .Field("exposed_ns", c.exposed_ns)
        .Field("overlapped_ns", c.overlapped_ns)
        .Field("shortest_ns", c.shortest_ns)
        .Field("median_ns", c.median_ns)
        .EndObject();
  }
  json.EndArray().EndObject();
}

void WriteFinding(JsonWriter& json, const analyzers::RankFinding& finding) {
  json.BeginObject()
      .Field("id", finding.id)
      .Field("severity", analyzers::SeverityName(finding.severity))
      .Field("device_id", finding.device_id);
  WriteStatement(json, "verdict", finding.verdict);
  json.Key("saving")
      .BeginObject()
      .Field("ns", finding.saving.ns)
      .Field("low_ns", finding.saving.low_ns)
      .Field("fraction", finding.saving.fraction)
      .Field("low_fraction", finding.saving.low_fraction)
      .Field("basis", finding.saving.basis)
      .EndObject();
  json.EndObject();
}

void WriteRank(JsonWriter& json, const RankSummary& s) {
  json.BeginObject()
      .Field("trace", s.trace)
      .Field("format", s.format)
      .Field("label", s.label)
      .Field("rank", s.rank)
      .Field("world_size", s.world_size)
      .Field("backend", s.backend)
      .Field("hostname", s.hostname)
      .Field("pid", s.pid)
      .Field("workload", s.workload)
      .Field("gpu", s.gpu)
      .Field("fingerprint", s.fingerprint);
  WriteAccount(json, s);
  json.Key("findings").BeginArray();
  for (const analyzers::RankFinding& finding : s.findings) WriteFinding(json, finding);
  json.EndArray();
  json.Key("checks_run").BeginArray();
  for (const std::string& check : s.checks_run) json.String(check);
  json.EndArray();
  json.Field("data_loss", s.data_loss);
  json.Key("stats").BeginObject();
  for (const auto& [name, value] : s.stats) json.Field(name, value);
  json.EndObject();
  json.EndObject();
}

// ---- Reading ----

// The members of one JSON object, read with errors that say where: "ranks[3].account.steps".
class Fields {
 public:
  Fields(dom::object object, std::string where) : object_(object), where_(std::move(where)) {}

  base::StatusOr<dom::element> Get(std::string_view key) const {
    dom::element element;
    if (object_[key].get(element)) return base::InvalidDataError("{}.{}: missing", where_, key);
    return element;
  }
  base::StatusOr<std::string> String(std::string_view key) const {
    ASSIGN_OR_RETURN(const dom::element element, Get(key));
    std::string_view value;
    if (element.get_string().get(value)) return Wrong(key, "a string");
    return std::string(value);
  }
  base::StatusOr<int64_t> Int(std::string_view key) const {
    ASSIGN_OR_RETURN(const dom::element element, Get(key));
    int64_t value = 0;
    if (element.get_int64().get(value)) return Wrong(key, "an integer");
    return value;
  }
  // A time in nanoseconds: an integer from 0 to kMaxSummaryDurationNs.
  base::StatusOr<int64_t> Duration(std::string_view key) const {
    ASSIGN_OR_RETURN(const int64_t value, Int(key));
    if (value < 0 || value > kMaxSummaryDurationNs) {
      return base::InvalidDataError("{}.{}: {} ns is not a duration from 0 to a year", where_, key, value);
    }
    return value;
  }
  base::StatusOr<uint64_t> Uint(std::string_view key) const {
    ASSIGN_OR_RETURN(const dom::element element, Get(key));
    uint64_t value = 0;
    if (element.get_uint64().get(value)) return Wrong(key, "an unsigned integer");
    return value;
  }
  base::StatusOr<double> Double(std::string_view key) const {
    ASSIGN_OR_RETURN(const dom::element element, Get(key));
    double value = 0;
    if (element.get_double().get(value)) return Wrong(key, "a number");
    return value;
  }
  base::StatusOr<bool> Bool(std::string_view key) const {
    ASSIGN_OR_RETURN(const dom::element element, Get(key));
    bool value = false;
    if (element.get_bool().get(value)) return Wrong(key, "true or false");
    return value;
  }
  base::StatusOr<Fields> Object(std::string_view key) const {
    ASSIGN_OR_RETURN(const dom::element element, Get(key));
    dom::object value;
    if (element.get_object().get(value)) return Wrong(key, "an object");
    return Fields(value, fmt::format("{}.{}", where_, key));
  }
  base::StatusOr<dom::array> Array(std::string_view key) const {
    ASSIGN_OR_RETURN(const dom::element element, Get(key));
    dom::array value;
    if (element.get_array().get(value)) return Wrong(key, "an array");
    return value;
  }
  std::string Where(std::string_view key) const { return fmt::format("{}.{}", where_, key); }
  dom::object object() const { return object_; }

 private:
  base::Status Wrong(std::string_view key, std::string_view expected) const {
    return base::InvalidDataError("{}.{}: expected {}", where_, key, expected);
  }

  dom::object object_;
  std::string where_;
};

base::StatusOr<int32_t> Int32(const Fields& fields, std::string_view key) {
  ASSIGN_OR_RETURN(const int64_t value, fields.Int(key));
  if (value < INT32_MIN || value > INT32_MAX) return base::InvalidDataError("{}: out of range", fields.Where(key));
  return static_cast<int32_t>(value);
}

base::StatusOr<uint32_t> Uint32(const Fields& fields, std::string_view key) {
  ASSIGN_OR_RETURN(const uint64_t value, fields.Uint(key));
  if (value > UINT32_MAX) return base::InvalidDataError("{}: out of range", fields.Where(key));
  return static_cast<uint32_t>(value);
}

base::StatusOr<analyzers::Unit> UnitNamed(std::string_view name, const std::string& where) {
  for (analyzers::Unit unit : {analyzers::Unit::kDuration, analyzers::Unit::kBytes, analyzers::Unit::kCount,
                               analyzers::Unit::kFraction, analyzers::Unit::kRatio, analyzers::Unit::kNumber}) {
    if (UnitName(unit) == name) return unit;
  }
  return base::InvalidDataError("{}: unknown unit '{}'", where, name);
}

base::StatusOr<analyzers::Severity> SeverityNamed(std::string_view name, const std::string& where) {
  for (analyzers::Severity severity :
       {analyzers::Severity::kInfo, analyzers::Severity::kWarning, analyzers::Severity::kCritical}) {
    if (analyzers::SeverityName(severity) == name) return severity;
  }
  return base::InvalidDataError("{}: unknown severity '{}'", where, name);
}

// Each element of `array` as an object, with its place for messages.
template <typename Read>
base::Status ForEachObject(dom::array array, const std::string& where, Read&& read) {
  size_t index = 0;
  for (dom::element element : array) {
    const std::string place = fmt::format("{}[{}]", where, index++);
    dom::object object;
    if (element.get_object().get(object)) return base::InvalidDataError("{}: expected an object", place);
    RETURN_IF_ERROR(read(Fields(object, place)));
  }
  return base::OkStatus();
}

base::StatusOr<analyzers::Statement> ReadStatement(const Fields& parent, std::string_view key) {
  ASSIGN_OR_RETURN(const Fields fields, parent.Object(key));
  analyzers::Statement statement;
  ASSIGN_OR_RETURN(statement.text, fields.String("text"));
  ASSIGN_OR_RETURN(const dom::array values, fields.Array("values"));
  RETURN_IF_ERROR(ForEachObject(values, parent.Where(key) + ".values", [&](const Fields& value) -> base::Status {
    analyzers::Quantity quantity;
    ASSIGN_OR_RETURN(quantity.key, value.String("key"));
    ASSIGN_OR_RETURN(const std::string unit, value.String("unit"));
    ASSIGN_OR_RETURN(quantity.unit, UnitNamed(unit, value.Where("unit")));
    ASSIGN_OR_RETURN(quantity.value, value.Double("value"));
    statement.values.push_back(std::move(quantity));
    return base::OkStatus();
  }));
  return statement;
}

base::Status ReadAccount(const Fields& rank, RankSummary& s) {
  ASSIGN_OR_RETURN(const Fields account, rank.Object("account"));
  ASSIGN_OR_RETURN(s.basis, account.String("basis"));
  ASSIGN_OR_RETURN(s.step_source, account.String("step_source"));
  ASSIGN_OR_RETURN(s.steps, account.Uint("steps"));
  ASSIGN_OR_RETURN(s.window_ns, account.Duration("window_ns"));
  ASSIGN_OR_RETURN(s.median_step_ns, account.Duration("median_step_ns"));
  ASSIGN_OR_RETURN(s.p90_step_ns, account.Duration("p90_step_ns"));
  ASSIGN_OR_RETURN(s.compute_ns, account.Duration("compute_ns"));
  ASSIGN_OR_RETURN(s.exposed_communication_ns, account.Duration("exposed_communication_ns"));
  ASSIGN_OR_RETURN(s.overlapped_communication_ns, account.Duration("overlapped_communication_ns"));
  ASSIGN_OR_RETURN(s.copy_ns, account.Duration("copy_ns"));
  ASSIGN_OR_RETURN(const Fields idle, account.Object("idle_ns"));
  for (GapCause cause : analyzers::kAllGapCauses) {
    ASSIGN_OR_RETURN(s.idle[cause], idle.Duration(analyzers::GapCauseKey(cause)));
  }
  ASSIGN_OR_RETURN(const dom::array communication, account.Array("communication"));
  return ForEachObject(communication, account.Where("communication"), [&](const Fields& c) -> base::Status {
    analyzers::RankCollective collective;
    ASSIGN_OR_RETURN(collective.collective, c.String("collective"));
    ASSIGN_OR_RETURN(collective.kernels, c.Uint("kernels"));
    ASSIGN_OR_RETURN(collective.kernel_ns, c.Duration("kernel_ns"));
    ASSIGN_OR_RETURN(collective.exposed_ns, c.Duration("exposed_ns"));
    ASSIGN_OR_RETURN(collective.overlapped_ns, c.Duration("overlapped_ns"));
    ASSIGN_OR_RETURN(collective.shortest_ns, c.Duration("shortest_ns"));
    ASSIGN_OR_RETURN(collective.median_ns, c.Duration("median_ns"));
    s.communication.push_back(std::move(collective));
    return base::OkStatus();
  });
}

base::Status ReadFindings(const Fields& rank, RankSummary& s) {
  ASSIGN_OR_RETURN(const dom::array findings, rank.Array("findings"));
  return ForEachObject(findings, rank.Where("findings"), [&](const Fields& f) -> base::Status {
    analyzers::RankFinding finding;
    ASSIGN_OR_RETURN(finding.id, f.String("id"));
    ASSIGN_OR_RETURN(const std::string severity, f.String("severity"));
    ASSIGN_OR_RETURN(finding.severity, SeverityNamed(severity, f.Where("severity")));
    ASSIGN_OR_RETURN(finding.device_id, Int32(f, "device_id"));
    ASSIGN_OR_RETURN(finding.verdict, ReadStatement(f, "verdict"));
    ASSIGN_OR_RETURN(const Fields saving, f.Object("saving"));
    ASSIGN_OR_RETURN(finding.saving.ns, saving.Duration("ns"));
    ASSIGN_OR_RETURN(finding.saving.low_ns, saving.Duration("low_ns"));
    ASSIGN_OR_RETURN(finding.saving.fraction, saving.Double("fraction"));
    ASSIGN_OR_RETURN(finding.saving.low_fraction, saving.Double("low_fraction"));
    ASSIGN_OR_RETURN(finding.saving.basis, saving.String("basis"));
    s.findings.push_back(std::move(finding));
    return base::OkStatus();
  });
}

base::StatusOr<RankSummary> ReadRank(const Fields& rank) {
  RankSummary s;
  ASSIGN_OR_RETURN(s.trace, rank.String("trace"));
  ASSIGN_OR_RETURN(s.format, rank.String("format"));
  ASSIGN_OR_RETURN(s.label, rank.String("label"));
  ASSIGN_OR_RETURN(s.rank, Int32(rank, "rank"));
  ASSIGN_OR_RETURN(s.world_size, Int32(rank, "world_size"));
  ASSIGN_OR_RETURN(s.backend, rank.String("backend"));
  ASSIGN_OR_RETURN(s.hostname, rank.String("hostname"));
  ASSIGN_OR_RETURN(s.pid, Uint32(rank, "pid"));
  ASSIGN_OR_RETURN(s.workload, rank.String("workload"));
  ASSIGN_OR_RETURN(s.gpu, rank.String("gpu"));
  ASSIGN_OR_RETURN(s.fingerprint, rank.String("fingerprint"));
  RETURN_IF_ERROR(ReadAccount(rank, s));
  RETURN_IF_ERROR(ReadFindings(rank, s));
  ASSIGN_OR_RETURN(const dom::array checks, rank.Array("checks_run"));
  for (dom::element check : checks) {
    std::string_view id;
    if (check.get_string().get(id)) return base::InvalidDataError("{}: expected strings", rank.Where("checks_run"));
    s.checks_run.emplace_back(id);
  }
  ASSIGN_OR_RETURN(s.data_loss, rank.Bool("data_loss"));
  ASSIGN_OR_RETURN(const Fields stats, rank.Object("stats"));
  for (dom::key_value_pair stat : stats.object()) {
    int64_t value = 0;
    if (stat.value.get_int64().get(value)) {
      return base::InvalidDataError("{}: expected an integer", stats.Where(stat.key));
    }
    s.stats.emplace_back(std::string(stat.key), value);
  }
  return s;
}

}  // namespace

void WriteRankSummaries(std::span<const RankSummary> summaries, std::ostream& out,
                        const RankSummaryJsonOptions& options) {
  JsonWriter json(out);
  json.BeginObject().Field("schema", kRankSummarySchema).Field("schema_version", kRankSummarySchemaVersion);
  if (!options.generator.empty()) json.Field("generator", options.generator);
  json.Key("ranks").BeginArray();
  for (const RankSummary& summary : summaries) WriteRank(json, summary);
  json.EndArray().EndObject();
}

base::StatusOr<std::vector<RankSummary>> ParseRankSummaries(std::string_view json, std::string_view name) {
  dom::parser parser;
  dom::element document;
  const simdjson::padded_string padded(json);
  if (const auto error = parser.parse(padded).get(document)) {
    return base::InvalidDataError("{}: invalid JSON: {}", name, simdjson::error_message(error));
  }
  dom::object object;
  std::string_view schema;
  if (document.get_object().get(object) || object["schema"].get_string().get(schema) || schema != kRankSummarySchema) {
    return base::InvalidDataError("{}: not an ampprof rank summary (no \"schema\": \"{}\")", name, kRankSummarySchema);
  }
  const Fields top(object, "");
  auto version = top.Int("schema_version");
  if (!version.ok()) return base::InvalidDataError("{}: {}", name, version.status().message());
  if (*version > kRankSummarySchemaVersion || *version < 1) {
    return base::InvalidDataError("{}: rank summary schema version {} is not one this ampprof reads (1 to {})", name,
                                  *version, kRankSummarySchemaVersion);
  }
  auto ranks = top.Array("ranks");
  if (!ranks.ok()) return base::InvalidDataError("{}: {}", name, ranks.status().message());
  std::vector<RankSummary> summaries;
  const base::Status status = ForEachObject(*ranks, "ranks", [&](const Fields& rank) -> base::Status {
    ASSIGN_OR_RETURN(RankSummary summary, ReadRank(rank));
    summaries.push_back(std::move(summary));
    return base::OkStatus();
  });
  if (!status.ok()) return base::InvalidDataError("{}: {}", name, status.message());
  return summaries;
}

base::StatusOr<std::vector<RankSummary>> ReadRankSummaries(const std::string& path, std::string_view name) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return base::IoError("{}: cannot open", name);
  file.seekg(0, std::ios::end);
  if (const std::streamoff size = file.tellg(); size > kMaxSummaryBytes) {
    return base::InvalidDataError("{}: {} bytes is too large for a rank summary (at most {} MiB)", name, size,
                                  kMaxSummaryBytes >> 20);
  }
  file.seekg(0, std::ios::beg);
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return base::IoError("{}: cannot read", name);
  return ParseRankSummaries(text.view(), name);
}

bool LooksLikeRankSummary(std::string_view head) {
  size_t i = 0;
  const auto skip_blank = [&] {
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
  };
  if (head.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  skip_blank();
  if (i >= head.size() || head[i++] != '{') return false;
  skip_blank();
  if (head.substr(i, 8) != "\"schema\"") return false;
  i += 8;
  skip_blank();
  if (i >= head.size() || head[i++] != ':') return false;
  skip_blank();
  return head.substr(i).starts_with(fmt::format("\"{}\"", kRankSummarySchema));
}

}  // namespace ampprof::reports
