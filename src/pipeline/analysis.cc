#include "src/pipeline/analysis.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>

#include "analyzers/analyzer.h"
#include "analyzers/compare.h"
#include "analyzers/summary.h"
#include "analyzers/timeline.h"
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

// One trace of the FP32 run, reduced to what the comparison needs.
struct BaselineRun {
  analyzers::RunProfile profile;
  std::optional<analyzers::Timeline> timeline;
  std::string path;
  TraceIdentity identity;
  bool data_loss = false;
};

analyzers::RunProfile Profile(const model::TraceModel& model) {
  const std::vector<analyzers::KernelClass> classes = analyzers::ClassifySignatures(model);
  return analyzers::ProfileRun(analyzers::AnalysisInput{model, classes});
}

// The baseline's profile and timeline: all the comparison keeps of its model.
BaselineRun ReduceBaseline(const LoadedTrace& trace, const std::string& path) {
  const std::vector<analyzers::KernelClass> classes = analyzers::ClassifySignatures(trace.model);
  const analyzers::AnalysisInput input{trace.model, classes};
  return {analyzers::ProfileRun(input), analyzers::BuildTimeline(input), path, IdentifyTrace(trace.model, path),
          trace.model.stats().HasDataLoss()};
}

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

base::StatusOr<std::vector<BaselineRun>> ProfileBaseline(const std::vector<std::string>& files, JobProgress& progress) {
  std::vector<BaselineRun> runs;
  for (const std::string& file : files) {
    progress.Start("reading the baseline", file);
    ASSIGN_OR_RETURN(const LoadedTrace trace, LoadAndBuild(file));  // one model in memory at a time
    progress.Start("profiling the baseline", file);
    runs.push_back(ReduceBaseline(trace, file));
  }
  std::stable_sort(runs.begin(), runs.end(), [](const BaselineRun& a, const BaselineRun& b) {
    return SortKey(a.identity.rank) < SortKey(b.identity.rank);
  });
  return runs;
}

struct CandidateRun {
  analyzers::Report report;
  std::optional<analyzers::RunProfile> profile;  // only when there is a baseline to compare with
};

void AttachComparison(const BaselineRun& baseline, const analyzers::RunProfile& candidate, const std::string& pairing,
                      analyzers::Report& report) {
  analyzers::ComparisonResult result = analyzers::Compare(baseline.profile, candidate);
  analyzers::Comparison& comparison = result.comparison;
  comparison.baseline.trace = baseline.path;
  comparison.baseline.label = baseline.identity.label;
  comparison.baseline.data_loss = baseline.data_loss;
  comparison.candidate.trace = report.inputs.front().path;
  comparison.candidate.label = report.label;
  comparison.candidate.data_loss = report.stats.HasDataLoss();
  std::vector<std::string> notes;
  if (!pairing.empty()) notes.push_back(pairing);
  if (baseline.data_loss) {
    notes.push_back("the FP32 trace lost records (cut short or damaged): its numbers cover what was recorded");
  }
  if (result.finding) {
    for (const std::string& note : notes) result.finding->evidence.push_back({"note", note});
    report.findings.push_back(std::move(*result.finding));
    analyzers::SortFindings(report.findings);
  }
  comparison.notes.insert(comparison.notes.begin(), notes.begin(), notes.end());
  report.comparison = std::move(comparison);
  report.baseline_timeline = baseline.timeline;
  report.checks_run.emplace_back("compare");
}

std::string RankList(const std::vector<int32_t>& ranks) {
  std::string list;
  for (int32_t rank : ranks) list += (list.empty() ? "" : ", ") + (rank < 0 ? std::string("none") : fmt::format("{}", rank));
  return list;
}

// Rank by rank when both runs have the same ranks; else the first trace of each, saying which.
void CompareRuns(const std::vector<BaselineRun>& baseline, std::vector<CandidateRun>& candidates) {
  if (baseline.empty() || candidates.empty()) return;
  std::vector<int32_t> baseline_ranks;
  std::vector<int32_t> candidate_ranks;
  for (const BaselineRun& run : baseline) baseline_ranks.push_back(run.identity.rank);
  for (const CandidateRun& run : candidates) candidate_ranks.push_back(run.report.rank);
  const bool ranked = std::none_of(baseline_ranks.begin(), baseline_ranks.end(), [](int32_t r) { return r < 0; });
  if (candidates.size() > 1 && ranked && baseline_ranks == candidate_ranks) {
    for (size_t i = 0; i < candidates.size(); ++i) {
      AttachComparison(baseline[i], *candidates[i].profile,
                       fmt::format("compared rank by rank: this is rank {} of both runs", candidate_ranks[i]),
                       candidates[i].report);
    }
    return;
  }
  std::string pairing;
  if (baseline.size() > 1 || candidates.size() > 1) {
    pairing = fmt::format(
        "the runs do not have the same ranks (AMP: {}; FP32: {}): compared the first trace of each, AMP {} with FP32 {}",
        RankList(candidate_ranks), RankList(baseline_ranks), candidates.front().report.label,
        baseline.front().identity.label);
  } else if (candidate_ranks.front() >= 0 && baseline_ranks.front() >= 0 &&
             candidate_ranks.front() != baseline_ranks.front()) {
    pairing = fmt::format("compared AMP {} with FP32 {}", candidates.front().report.label,
                          baseline.front().identity.label);
  }
  AttachComparison(baseline.front(), *candidates.front().profile, pairing, candidates.front().report);
}

}  // namespace

base::StatusOr<std::vector<std::string>> ExpandTraceInputs(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
      if (!entry.is_regular_file(error)) continue;
      const auto format = SniffTraceFormat(entry.path().string());
      if (format.ok() && *format != TraceFormat::kUnknown) {
        found.push_back(entry.path().string());
      } else {
        base::LogInfo("skipping {}: not a trace", entry.path().string());
      }
    }
    if (error) return base::IoError("{}: cannot list the directory: {}", path, error.message());
    if (found.empty()) return base::InvalidDataError("{}: no trace files in this directory", path);
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

base::StatusOr<LoadedTrace> LoadAndBuild(const std::string& path) {
  model::ModelBuilder builder;
  const auto load_start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(const TraceFormat format, LoadTrace(path, builder));
  base::LogInfo("read {} ({}) in {:.3f} s", path, TraceFormatName(format), SecondsSince(load_start));
  std::string description(TraceFormatName(format));
  if (format == TraceFormat::kAmpt) {
    description = "ampprof trace, format " + std::string(builder.Metadata("ampt_version"));
  }
  const auto build_start = std::chrono::steady_clock::now();
  model::TraceModel model = std::move(builder).Build();
  base::LogInfo("built the model in {:.3f} s: {} kernels, {} API calls, {} ranges, {} of tables",
                SecondsSince(build_start), model.kernels().size(), model.api_calls().size(),
                model.ranges().size(), base::FormatBytes(model.MemoryBytes()));
  return LoadedTrace{std::move(model), {path, std::move(description)}, format};
}

analyzers::Report Analyze(const LoadedTrace& trace) {
  analyzers::Report report;
  report.inputs = {trace.input};
  report.summary = analyzers::Summarize(trace.model);
  const std::vector<analyzers::KernelClass> classes = analyzers::ClassifySignatures(trace.model);
  const analyzers::AnalysisInput input{trace.model, classes};  // steps found once, for both
  report.findings = analyzers::RunAnalyzers(input);
  report.timeline = analyzers::BuildTimeline(input);
  for (const analyzers::AnalyzerEntry& analyzer : analyzers::AllAnalyzers()) {
    report.checks_run.emplace_back(analyzer.name);
  }
  report.stats = trace.model.stats();
  const TraceIdentity identity = IdentifyTrace(trace.model, trace.input.path);
  report.rank = identity.rank;
  report.label = identity.label;
  return report;
}

base::StatusOr<std::vector<analyzers::Report>> AnalyzeTraces(const std::vector<std::string>& paths,
                                                             const AnalyzeOptions& options) {
  const analyzers::ScopedKernelClassifier classifier(options.classifier);
  ASSIGN_OR_RETURN(const std::vector<std::string> files, ExpandTraceInputs(paths));
  std::vector<std::string> baseline_files;
  if (!options.baseline.empty()) {
    auto expanded = ExpandTraceInputs({options.baseline});
    if (!expanded.ok()) return base::Status(expanded.status().code(), "baseline " + expanded.status().message());
    baseline_files = std::move(*expanded);
  }
  JobProgress progress(options.progress, baseline_files.size() + files.size());
  // The baseline first: a bad baseline path fails before a long analysis, not after it.
  std::vector<BaselineRun> baseline;
  if (!baseline_files.empty()) {
    auto profiled = ProfileBaseline(baseline_files, progress);
    if (!profiled.ok()) {
      return base::Status(profiled.status().code(), "baseline " + profiled.status().message());
    }
    baseline = std::move(*profiled);
  }
  std::vector<CandidateRun> runs;
  for (const std::string& file : files) {
    progress.Start("reading", file);
    ASSIGN_OR_RETURN(const LoadedTrace trace, LoadAndBuild(file));  // one model in memory at a time
    progress.Start("analyzing", file);
    runs.push_back({Analyze(trace), std::nullopt});
    if (!baseline.empty()) runs.back().profile = Profile(trace.model);
  }
  std::stable_sort(runs.begin(), runs.end(), [](const CandidateRun& a, const CandidateRun& b) {
    return SortKey(a.report.rank) < SortKey(b.report.rank);
  });
  CompareRuns(baseline, runs);
  std::vector<analyzers::Report> reports;
  reports.reserve(runs.size());
  for (CandidateRun& run : runs) reports.push_back(std::move(run.report));
  return reports;
}

}  // namespace ampprof::pipeline
