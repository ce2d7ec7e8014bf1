#include "src/pipeline/job_analysis.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/ranks/job_report.h"
#include "analyzers/report/assemble.h"
#include "reports/json/rank_summary_json.h"
#include "src/pipeline/analysis.h"

namespace ampprof::pipeline {
namespace {

// What one input gave: its summaries (one per rank), its report when kept, or the error it failed with.
struct Outcome {
  std::optional<base::Status> error;
  std::vector<analyzers::RankSummary> summaries;
  std::optional<analyzers::Report> report;
  bool summary_file = false;
};

// The first bytes of `path`, enough to tell a rank summary from a trace.
std::string Head(const std::string& path) {
  std::string head(256, '\0');
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  const ssize_t got = ::read(fd, head.data(), head.size());
  ::close(fd);
  head.resize(got > 0 ? static_cast<size_t>(got) : 0);
  return head;
}

// Progress shared by the threads: one unit per input.
class SharedProgress {
 public:
  SharedProgress(base::Progress* progress, size_t total) : progress_(progress), total_(total) {}
  SharedProgress(const SharedProgress&) = delete;
  SharedProgress& operator=(const SharedProgress&) = delete;
  ~SharedProgress() {
    if (progress_ != nullptr) progress_->Done();
  }
  void Start(const std::string& name) {
    if (progress_ == nullptr) return;
    const std::lock_guard lock(mutex_);
    progress_->Update(fmt::format("analyzing {}", std::filesystem::path(name).filename().string()), done_, total_);
    ++done_;
  }

 private:
  base::Progress* progress_;
  size_t total_;
  size_t done_ = 0;
  std::mutex mutex_;
};

class Mapper {
 public:
  Mapper(const JobAnalysisOptions& options, unsigned import_threads)
      : options_(options), import_threads_(import_threads) {}

  Outcome Map(const TraceFile& file) const {
    Outcome outcome;
    if (reports::LooksLikeRankSummary(Head(file.path))) {
      auto read = reports::ReadRankSummaries(file.path, file.name);
      if (!read.ok()) {
        outcome.error = read.status();
      } else {
        outcome.summaries = std::move(*read);
        outcome.summary_file = true;
      }
      return outcome;
    }
    auto trace = LoadAndBuild(file, import_threads_);  // one model per thread at a time
    if (!trace.ok()) {
      outcome.error = trace.status();
      return outcome;
    }
    const analyzers::AnalysisInput input(trace->model, trace->library_logs.logs);
    analyzers::TraceAnalysis analysis = analyzers::AnalyzeTrace(input, IdentifyRun(*trace), ReportInputsOf(*trace, input));
    outcome.summaries.push_back(analyzers::SummarizeRank(input, analysis.report));
    if (Keep(outcome.summaries.back())) outcome.report = std::move(analysis.report);
    return outcome;
  }

 private:
  // JobAnalysisOptions: every report asked for, the rank asked for, and the first ranked trace's
  // (while it is not yet known whether the input is a job).
  bool Keep(const analyzers::RankSummary& summary) const {
    if (options_.all_reports || !analyzers::IsRankOfAJob(summary)) return true;
    if (options_.rank >= 0 && summary.rank == options_.rank) return true;
    return ranked_seen_.fetch_add(1) == 0;
  }

  const JobAnalysisOptions& options_;
  const unsigned import_threads_;
  mutable std::atomic<size_t> ranked_seen_{0};
};

int32_t SortKey(int32_t rank) { return rank < 0 ? INT32_MAX : rank; }

}  // namespace

unsigned DefaultJobs() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

base::StatusOr<JobAnalysis> AnalyzeJob(const std::vector<std::string>& paths, const JobAnalysisOptions& options) {
  const analyzers::ScopedKernelClassifier classifier(options.classifier);
  ASSIGN_OR_RETURN(const TraceInputs files, ExpandTraceInputs(paths));
  if (options.before_reading) RETURN_IF_ERROR(options.before_reading(files));
  const std::vector<TraceFile> inputs(files.begin(), files.end());
  std::vector<Outcome> outcomes(inputs.size());
  const unsigned jobs = options.jobs == 0 ? DefaultJobs() : options.jobs;
  const size_t threads = std::clamp<size_t>(inputs.size(), 1, jobs);
  // Fewer traces than threads: the spare threads split each trace's import (one trace with -j 8: its
  // import on 8 threads). With as many traces as threads or more, each import has one.
  const Mapper mapper(options, static_cast<unsigned>(jobs / threads));
  {
    SharedProgress progress(options.progress, inputs.size());
    std::atomic<size_t> next{0};
    const auto work = [&] {
      for (size_t i = next.fetch_add(1); i < inputs.size(); i = next.fetch_add(1)) {
        progress.Start(inputs[i].name);
        outcomes[i] = mapper.Map(inputs[i]);
      }
    };
    std::vector<std::jthread> workers;
    for (size_t t = 1; t < threads; ++t) workers.emplace_back(work);
    work();  // this thread is one of them
  }
  JobAnalysis analysis;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Outcome& outcome = outcomes[i];
    if (outcome.error) {
      RETURN_IF_ERROR(files.Skip(inputs[i], *outcome.error));  // in input order, as one thread would
      continue;
    }
    if (outcome.summary_file) analysis.from_summary_files += outcome.summaries.size();
    for (analyzers::RankSummary& summary : outcome.summaries) analysis.summaries.push_back(std::move(summary));
    if (outcome.report) analysis.reports.push_back(std::move(*outcome.report));
  }
  std::stable_sort(analysis.reports.begin(), analysis.reports.end(),
                   [](const analyzers::Report& a, const analyzers::Report& b) { return SortKey(a.rank) < SortKey(b.rank); });
  return analysis;
}

}  // namespace ampprof::pipeline
