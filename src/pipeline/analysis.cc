#include "src/pipeline/analysis.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/report/assemble.h"
#include "src/base/format.h"
#include "src/base/logging.h"
#include "src/model/model_builder.h"
#include "src/pipeline/trace_loader.h"

namespace ampprof::pipeline {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The rank a file's name states ("sampled_rank-0.json.gz", "trace_rank3.ampt"), or -1.
int32_t RankFromFileName(const std::string& path) {
  static const std::regex kRank(R"(rank[-_]?([0-9]{1,6}))", std::regex::icase);
  const std::string name = std::filesystem::path(path).filename().string();
  std::smatch match;
  if (!std::regex_search(name, match, kRank)) return -1;
  return std::stoi(match[1].str());
}

struct TraceIdentity {
  int32_t rank = -1;
  std::string label;
};

// Who this trace is: the rank the trace records, else the rank its file name states, else its process.
TraceIdentity IdentifyTrace(const model::TraceModel& model, const std::string& path) {
  for (const model::Process& process : model.processes()) {
    if (process.rank >= 0) {
      return {process.rank, process.world_size > 0 ? fmt::format("rank {} of {}", process.rank, process.world_size)
                                                   : fmt::format("rank {}", process.rank)};
    }
  }
  if (const int32_t rank = RankFromFileName(path); rank >= 0) {
    return {rank, fmt::format("rank {} (from the file name)", rank)};
  }
  for (const model::Process& process : model.processes()) {
    if (process.pid != 0) return {-1, fmt::format("pid {}", process.pid)};
  }
  return {-1, std::filesystem::path(path).filename().string()};
}

// Ranks in order; traces without a rank after them, in the order given.
int32_t SortKey(int32_t rank) { return rank < 0 ? INT32_MAX : rank; }


// Progress in units of the job: two per trace (read and build; analyse), baseline traces first.
class JobProgress {
 public:
  JobProgress(base::Progress* progress, size_t traces) : progress_(progress), total_(2 * traces) {}
  JobProgress(const JobProgress&) = delete;
  JobProgress& operator=(const JobProgress&) = delete;
  ~JobProgress() {
    if (progress_ != nullptr) progress_->Done();  // on failure too: the error line must not share a line with the bar
  }
  void Start(std::string_view verb, const std::string& path) {
    if (progress_ == nullptr) return;
    progress_->Update(fmt::format("{} {}", verb, std::filesystem::path(path).filename().string()), done_, total_);
    ++done_;
  }

 private:
  base::Progress* progress_;
  size_t total_;
  size_t done_ = 0;
};

base::StatusOr<std::vector<analyzers::BaselineRun>> ProfileBaseline(const TraceInputs& files, JobProgress& progress) {
  std::vector<analyzers::BaselineRun> runs;
  for (const TraceFile& file : files) {
    progress.Start("reading the baseline", file.name);
    auto trace = LoadAndBuild(file);  // one model in memory at a time
    if (!trace.ok()) {
      RETURN_IF_ERROR(files.Skip(file, trace.status()));
      continue;
    }
    progress.Start("profiling the baseline", file.name);
    const analyzers::AnalysisInput input(trace->model, trace->library_logs.logs);
    runs.push_back(analyzers::ReduceBaseline(input, IdentifyRun(*trace)));
  }
  std::stable_sort(runs.begin(), runs.end(), [](const analyzers::BaselineRun& a, const analyzers::BaselineRun& b) {
    return SortKey(a.profile.identity.rank) < SortKey(b.profile.identity.rank);
  });
  return runs;
}

std::string RankList(const std::vector<int32_t>& ranks) {
  std::string list;
  for (int32_t rank : ranks) list += (list.empty() ? "" : ", ") + (rank < 0 ? std::string("none") : fmt::format("{}", rank));
  return list;
}

// Rank by rank when both runs have the same ranks; else the first trace of each, saying which.
std::vector<analyzers::Report> CompareRuns(const std::vector<analyzers::BaselineRun>& baseline,
                                           std::vector<analyzers::TraceAnalysis> candidates) {
  std::vector<analyzers::Report> reports;
  if (baseline.empty() || candidates.empty()) {
    for (analyzers::TraceAnalysis& candidate : candidates) reports.push_back(std::move(candidate.report));
    return reports;
  }
  std::vector<int32_t> baseline_ranks;
  std::vector<int32_t> candidate_ranks;
  for (const analyzers::BaselineRun& run : baseline) baseline_ranks.push_back(run.profile.identity.rank);
  for (const analyzers::TraceAnalysis& run : candidates) candidate_ranks.push_back(run.report.rank);
  auto all_ranked = [](const std::vector<int32_t>& ranks) {
    return std::none_of(ranks.begin(), ranks.end(), [](int32_t r) { return r < 0; });
  };
  // Directories: each trace against the other run's trace of its rank; a rank only one run has is
  // named, not compared with another rank's work.
  std::map<int32_t, size_t> baseline_of_rank;
  for (size_t i = 0; i < baseline_ranks.size(); ++i) baseline_of_rank.try_emplace(baseline_ranks[i], i);
  const bool paired = (candidates.size() > 1 || baseline.size() > 1) && all_ranked(baseline_ranks) &&
                      all_ranked(candidate_ranks) &&
                      std::any_of(candidate_ranks.begin(), candidate_ranks.end(),
                                  [&](int32_t rank) { return baseline_of_rank.contains(rank); });
  if (paired) {
    std::vector<int32_t> amp_only;
    std::vector<int32_t> fp32_only;
    for (int32_t rank : candidate_ranks) {
      if (!baseline_of_rank.contains(rank)) amp_only.push_back(rank);
    }
    for (int32_t rank : baseline_ranks) {
      if (std::find(candidate_ranks.begin(), candidate_ranks.end(), rank) == candidate_ranks.end()) {
        fp32_only.push_back(rank);
      }
    }
    std::string unpaired;
    if (!amp_only.empty()) unpaired += fmt::format("AMP rank(s) {} (no FP32 trace)", RankList(amp_only));
    if (!fp32_only.empty()) {
      unpaired += fmt::format("{}FP32 rank(s) {} (no AMP trace)", unpaired.empty() ? "" : ", ", RankList(fp32_only));
    }
    for (size_t i = 0; i < candidates.size(); ++i) {
      const auto match = baseline_of_rank.find(candidate_ranks[i]);
      if (match == baseline_of_rank.end()) {
        reports.push_back(std::move(candidates[i].report));
        continue;
      }
      std::string pairing = fmt::format("compared rank by rank: this is rank {} of both runs", candidate_ranks[i]);
      if (!unpaired.empty()) pairing += "; unpaired, so not compared: " + unpaired;
      reports.push_back(analyzers::WithComparison(std::move(candidates[i]), baseline[match->second], pairing));
    }
    return reports;
  }
  std::string pairing;
  if (baseline.size() > 1 || candidates.size() > 1) {
    pairing = fmt::format(
        "the runs do not have the same ranks (AMP: {}; FP32: {}): compared the first trace of each, AMP {} with FP32 {}",
        RankList(candidate_ranks), RankList(baseline_ranks), candidates.front().report.label,
        baseline.front().profile.identity.label);
  }
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i == 0) {
      reports.push_back(analyzers::WithComparison(std::move(candidates[i]), baseline.front(), pairing));
    } else {
      reports.push_back(std::move(candidates[i].report));
    }
  }
  return reports;
}

}  // namespace

base::StatusOr<LoadedTrace> LoadAndBuild(const TraceFile& file, unsigned import_threads) {
  model::ModelBuilder builder;
  const auto load_start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(const TraceFormat format, LoadTrace(file.path, builder, file.name, import_threads));
  base::LogInfo("read {} ({}) in {:.3f} s", file.name, TraceFormatName(format), SecondsSince(load_start));
  std::string description(TraceFormatName(format));
  if (format == TraceFormat::kAmpt) {
    description = "ampprof trace, format " + std::string(builder.Metadata("ampt_version"));
  }
  const auto build_start = std::chrono::steady_clock::now();
  model::TraceModel model = std::move(builder).Build();
  base::LogInfo("built the model in {:.3f} s: {} kernels, {} API calls, {} ranges, {} of tables",
                SecondsSince(build_start), model.kernels().size(), model.api_calls().size(),
                model.ranges().size(), base::FormatBytes(model.MemoryBytes()));
  LibraryLogFiles library_logs = ReadLibraryLogsBeside(file, model);
  return LoadedTrace{std::move(model), {file.name, std::move(description)}, format, std::move(library_logs)};
}

std::vector<analyzers::ReportInput> ReportInputsOf(const LoadedTrace& trace, const analyzers::AnalysisInput& input) {
  std::vector<analyzers::ReportInput> inputs = {trace.input};
  const std::vector<analyzers::LibraryCallAttachment>& attached = input.library_calls().attachments();
  for (size_t i = 0; i < trace.library_logs.paths.size() && i < attached.size(); ++i) {
    const analyzers::LibraryCallAttachment& log = attached[i];
    inputs.push_back({trace.library_logs.paths[i],
                      fmt::format("{} API log: {} of {} call{} attached to kernels",
                                  liblogs::LibraryName(trace.library_logs.logs[i].library), log.matches.size(),
                                  log.calls, log.calls == 1 ? "" : "s"),
                      /*library_log=*/true});
  }
  return inputs;
}

analyzers::RunIdentity IdentifyRun(const LoadedTrace& trace) {
  const TraceIdentity identity = IdentifyTrace(trace.model, trace.input.path);
  analyzers::RunIdentity run;
  run.trace = trace.input.path;
  run.label = identity.label;
  run.rank = identity.rank;
  for (const model::Process& process : trace.model.processes()) {
    if (process.world_size > 0) run.world_size = process.world_size;
  }
  run.data_loss = trace.model.stats().HasDataLoss();
  return run;
}

analyzers::Report Analyze(const LoadedTrace& trace) {
  const analyzers::AnalysisInput input(trace.model, trace.library_logs.logs);
  return analyzers::AnalyzeTrace(input, IdentifyRun(trace), ReportInputsOf(trace, input)).report;
}

base::StatusOr<std::vector<analyzers::Report>> AnalyzeTraces(const std::vector<std::string>& paths,
                                                             const AnalyzeOptions& options) {
  const analyzers::ScopedKernelClassifier classifier(options.classifier);
  ASSIGN_OR_RETURN(const TraceInputs files, ExpandTraceInputs(paths));
  TraceInputs baseline_files;
  if (!options.baseline.empty()) {
    auto expanded = ExpandTraceInputs({options.baseline});
    if (!expanded.ok()) return base::Status(expanded.status().code(), "baseline " + expanded.status().message());
    baseline_files = std::move(*expanded);
  }
  if (options.before_reading) RETURN_IF_ERROR(options.before_reading(files, baseline_files));
  JobProgress progress(options.progress, baseline_files.size() + files.size());
  // The baseline first: a bad baseline path fails before a long analysis, not after it.
  std::vector<analyzers::BaselineRun> baseline;
  if (!baseline_files.empty()) {
    auto profiled = ProfileBaseline(baseline_files, progress);
    if (!profiled.ok()) {
      return base::Status(profiled.status().code(), "baseline " + profiled.status().message());
    }
    baseline = std::move(*profiled);
  }
  std::vector<analyzers::TraceAnalysis> runs;
  for (const TraceFile& file : files) {
    progress.Start("reading", file.name);
    auto trace = LoadAndBuild(file);  // one model in memory at a time
    if (!trace.ok()) {
      RETURN_IF_ERROR(files.Skip(file, trace.status()));
      continue;
    }
    progress.Start("analyzing", file.name);
    // Classes, steps, the account and the library calls: once per trace.
    const analyzers::AnalysisInput input(trace->model, trace->library_logs.logs);
    runs.push_back(analyzers::AnalyzeTrace(input, IdentifyRun(*trace), ReportInputsOf(*trace, input)));
  }
  std::stable_sort(runs.begin(), runs.end(), [](const analyzers::TraceAnalysis& a, const analyzers::TraceAnalysis& b) {
    return SortKey(a.report.rank) < SortKey(b.report.rank);
  });
  return CompareRuns(baseline, std::move(runs));
}

}  // namespace ampprof::pipeline
