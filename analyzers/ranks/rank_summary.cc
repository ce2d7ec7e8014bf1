#include "analyzers/ranks/rank_summary.h"

#include <fmt/format.h>

#include "src/base/utf8.h"

namespace ampprof::analyzers {
namespace {

Statement ValidStatement(const Statement& statement) {
  Statement valid = statement;
  valid.text = base::ValidUtf8(statement.text);
  for (Quantity& value : valid.values) value.key = base::ValidUtf8(value.key);
  return valid;
}

// The process the trace is of: the one with a rank, else the first with a pid.
const model::Process* TracedProcess(const model::TraceModel& model) {
  const model::Process* traced = nullptr;
  for (const model::Process& process : model.processes()) {
    if (process.rank >= 0) return &process;
    if (traced == nullptr && process.pid != 0) traced = &process;
  }
  return traced;
}

// A 64-bit mix (SplitMix64's finaliser): every input bit moves every output bit.
uint64_t Mix(uint64_t hash, uint64_t value) {
  uint64_t z = hash ^ (value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

base::DurationNs RankSummary::host_wait_ns() const {
  return idle[GapCause::kHostLaunch] + idle[GapCause::kHostSync] + idle[GapCause::kHostOther];
}

base::DurationNs RankSummary::collective_ns() const {
  base::DurationNs total = 0;
  for (const RankCollective& collective : communication) total = base::SaturatingAdd(total, collective.kernel_ns);
  return total;
}

std::string TraceFingerprint(const model::TraceModel& model) {
  const model::KernelTable& kernels = model.kernels();
  uint64_t hash = Mix(0, kernels.size());
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    const model::KernelRow row(i);
    hash = Mix(hash, static_cast<uint64_t>(kernels.start[row]));
    hash = Mix(hash, static_cast<uint64_t>(kernels.end[row]));
  }
  return fmt::format("{:016x}", hash);
}

RankSummary SummarizeRank(const AnalysisInput& input, const Report& report) {
  const model::TraceModel& model = input.model;
  RankSummary summary;
  if (!report.inputs.empty()) {
    summary.trace = base::ValidUtf8(report.inputs.front().path);
    summary.format = base::ValidUtf8(report.inputs.front().format);
  }
  summary.label = base::ValidUtf8(report.label);
  summary.rank = report.rank;
  for (const model::Process& process : model.processes()) {
    if (process.world_size > 0) summary.world_size = process.world_size;
  }
  summary.backend = base::ValidUtf8(model.Metadata("distributed_backend"));
  if (const model::Process* process = TracedProcess(model)) {
    summary.pid = process->pid;
    if (process->hostname != base::kEmptyStringId) summary.hostname = base::ValidUtf8(model.Text(process->hostname));
  }
  const TraceSummary& trace = report.summary;
  summary.workload = base::ValidUtf8(trace.workload);
  summary.fingerprint = TraceFingerprint(model);

  if (trace.primary_device < trace.devices.size()) {
    const DeviceSummary& device = trace.devices[trace.primary_device];
    summary.gpu = base::ValidUtf8(device.name);
    if (device.account) {
      const AccountSummary& account = *device.account;
      summary.basis = account.basis;
      summary.step_source = account.basis == "measured steps" ? base::ValidUtf8(trace.step_source) : std::string();
      summary.steps = account.steps;
      summary.window_ns = account.window.duration();
      summary.median_step_ns = account.median_step_ns;
      summary.p90_step_ns = account.p90_step_ns;
      summary.compute_ns = account.compute_ns;
      summary.exposed_communication_ns = account.exposed_communication_ns;
      summary.overlapped_communication_ns = account.overlapped_communication_ns;
      summary.copy_ns = account.copy_ns;
      summary.idle = account.idle;
      for (const CollectiveTime& collective : account.communication) {
        summary.communication.push_back({base::ValidUtf8(collective.collective), collective.kernels,
                                         collective.kernel_ns, collective.exposed_ns, collective.overlapped_ns,
                                         collective.shortest_ns, collective.median_ns});
      }
    }
  }

  for (const Finding& finding : report.findings) {
    RankFinding kept;
    kept.id = base::ValidUtf8(finding.id);
    kept.severity = finding.severity;
    kept.device_id = finding.device_id;
    kept.verdict = ValidStatement(finding.verdict);
    kept.saving = finding.saving;
    kept.saving.basis = base::ValidUtf8(finding.saving.basis);
    summary.findings.push_back(std::move(kept));
  }
  for (const std::string& check : report.checks_run) summary.checks_run.push_back(base::ValidUtf8(check));
  summary.data_loss = report.stats.HasDataLoss();
  for (const base::StatEntry& entry : report.stats.NonZero()) {
    summary.stats.emplace_back(std::string(entry.info->name), entry.value);
  }
  return summary;
}

}  // namespace ampprof::analyzers
