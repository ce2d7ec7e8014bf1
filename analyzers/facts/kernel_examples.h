#ifndef AMPPROF_ANALYZERS_FACTS_KERNEL_EXAMPLES_H_
#define AMPPROF_ANALYZERS_FACTS_KERNEL_EXAMPLES_H_

// A finding's examples: the kernels that show it best are the ones that cost the most. Collect each
// kernel's time by name, then take the top few.
//
//   KernelExamples examples;
//   for (KernelRow kernel : ...) examples.Add(model.KernelName(kernel),
//   model.kernels().duration(kernel)); finding.examples = examples.Top(3);

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/time.h"

namespace ampprof::analyzers {

class KernelExamples {
 public:
  // `name` must outlive this object (model strings do).
  void Add(std::string_view name, base::DurationNs duration) {
    base::DurationNs& total = time_by_name_[name];
    total = base::SaturatingAdd(total, duration);
  }

  // The `count` names with the most time, most first; ties by name, so the order is stable.
  std::vector<std::string> Top(size_t count) const {
    std::vector<std::pair<std::string_view, base::DurationNs>> names(time_by_name_.begin(),
                                                                     time_by_name_.end());
    std::stable_sort(names.begin(), names.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<std::string> top;
    for (size_t i = 0; i < names.size() && i < count; ++i) top.emplace_back(names[i].first);
    return top;
  }

 private:
  std::map<std::string_view, base::DurationNs> time_by_name_;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_KERNEL_EXAMPLES_H_
