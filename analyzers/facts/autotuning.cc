#include "analyzers/facts/autotuning.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ampprof::analyzers {
namespace {

// cuDNN synchronises right after timing an algorithm; a trial's sync is among the next few calls of its
// thread (an event record, a helper launch or two). The bound keeps a long thread cheap.
constexpr int kMaxCallsAfterTrial = 32;
// The most times cuDNN runs one algorithm in a row while timing it (a warm-up run and three timed ones).
constexpr size_t kMaxRunsPerAlgorithm = 4;

bool IsConvolutionMath(const KernelClass& k) {
  return k.category == KernelCategory::kConvolution && k.math != MathUnit::kNotApplicable;
}

bool IsSynchronize(std::string_view name) { return name.find("Synchronize") != std::string_view::npos; }

// Whether a synchronise call follows `launch` on its thread before the launch of another convolution.
bool FollowedBySync(const model::TraceModel& model, model::ApiCallRow launch,
                    const std::unordered_set<uint32_t>& convolution_launches) {
  const model::ApiCallTable& calls = model.api_calls();
  const model::Thread& thread = model.thread(calls.thread[launch]);
  int walked = 0;
  for (uint32_t row = launch.value + 1; row < thread.api_calls.end_value && walked < kMaxCallsAfterTrial;
       ++row, ++walked) {
    if (convolution_launches.contains(row)) return false;
    if (IsSynchronize(model.Text(calls.name[model::ApiCallRow(row)]))) return true;
  }
  return false;
}

// cuDNN times each candidate algorithm once or a few times in a row (the frontend's median of three),
// so within a burst the launches of one algorithm are contiguous and few. A loop that synchronises after
// every layer cycles through its layers instead: its names come back.
template <typename NameOf>
bool EachNameInOneShortRun(const std::vector<model::KernelRow>& convolutions, size_t begin, size_t end,
                           NameOf name_of) {
  std::unordered_set<uint32_t> finished;  // names whose run has ended
  size_t run = 0;
  for (size_t k = begin; k < end; ++k) {
    const uint32_t name = name_of(convolutions[k]);
    if (k > begin && name == name_of(convolutions[k - 1])) {
      if (++run > kMaxRunsPerAlgorithm) return false;
      continue;
    }
    if (k > begin) finished.insert(name_of(convolutions[k - 1]));
    if (finished.contains(name)) return false;
    run = 1;
  }
  return true;
}

}  // namespace

std::vector<base::Interval> FindAutotuning(const AnalysisInput& input, model::DeviceRow device) {
  const model::TraceModel& model = input.model;
  const model::KernelTable& kernels = model.kernels();
  std::vector<model::KernelRow> convolutions;
  std::unordered_set<uint32_t> convolution_launches;
  for (model::KernelRow kernel : model.device(device).kernels) {
    if (!IsConvolutionMath(input.ClassOf(kernel))) continue;
    convolutions.push_back(kernel);
    if (kernels.launch[kernel].valid()) convolution_launches.insert(kernels.launch[kernel].value);
  }
  if (convolutions.size() < kMinAutotuningTrials) return {};
  // The last position of each name in the device's convolution sequence: a trial whose name recurs
  // after its burst is the algorithm cuDNN picked (or a layer of a loop that syncs every layer).
  std::unordered_map<uint32_t, size_t> last_position;
  auto name_of = [&](model::KernelRow kernel) { return model.signature(kernels.signature[kernel]).name.value; };
  for (size_t i = 0; i < convolutions.size(); ++i) last_position[name_of(convolutions[i])] = i;

  std::vector<base::Interval> bursts;
  size_t i = 0;
  while (i < convolutions.size()) {
    size_t end = i;
    while (end < convolutions.size() && kernels.launch[convolutions[end]].valid() &&
           FollowedBySync(model, kernels.launch[convolutions[end]], convolution_launches)) {
      ++end;
    }
    if (end - i >= kMinAutotuningTrials && EachNameInOneShortRun(convolutions, i, end, name_of)) {
      std::unordered_set<uint32_t> names;
      for (size_t k = i; k < end; ++k) names.insert(name_of(convolutions[k]));
      const size_t only_here = static_cast<size_t>(std::count_if(
          names.begin(), names.end(), [&](uint32_t name) { return last_position[name] < end; }));
      if (names.size() >= kMinAutotuningTrials && 2 * only_here > names.size()) {
        base::TimeNs last_end = kernels.end[convolutions[i]];
        for (size_t k = i; k < end; ++k) last_end = std::max(last_end, kernels.end[convolutions[k]]);
        bursts.push_back({kernels.start[convolutions[i]], last_end});
      }
    }
    i = std::max(end, i + 1);
  }
  return bursts;
}

}  // namespace ampprof::analyzers
