#ifndef AMPPROF_ANALYZERS_FINDINGS_FINDING_H_
#define AMPPROF_ANALYZERS_FINDINGS_FINDING_H_

// A Finding: one diagnosed problem, with the numbers that prove it and the step time that fixing it
// would save. Its id names an entry of the finding catalog (finding_catalog.h), which holds what it
// means and how to fix it in general; the finding holds what is specific to this trace.
//
// Numbers are typed values, never preformatted prose: a Statement is a sentence with {key}
// placeholders and the values that fill them, and each reporter formats the values (reports/common),
// so a duration is the same text in every view and a number in JSON.
//
//   Finding finding;
//   finding.id = "layout.nchw_nhwc";
//   finding.severity = Severity::kWarning;
//   finding.verdict = Statement("{kernels} NCHW<->NHWC conversion kernels take {share} of the step",
//                               {Count("kernels", 12), Fraction("share", 0.026)});
//   finding.evidence.push_back({"their time", Statement("{time} per step", {Duration("time", 2'310)})});
//   finding.saving = Saving::Exact(2'310, 0.026, "removing the conversions");

#include <cstdint>
#include <string>
#include <vector>

#include "analyzers/findings/finding_catalog.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

enum class Unit : uint8_t {
  kDuration,  // nanoseconds
  kBytes,
  kCount,     // an integer count
  kFraction,  // a share, 0..1, shown as a percentage
  kRatio,     // a multiplier, shown as "1.52x"
  kNumber,    // a real number, shown with one decimal (kernels per step, ...)
};

struct Quantity {
  std::string key;  // a placeholder name, stable for scripts: "idle_ns", "share"
  double value = 0.0;
  Unit unit = Unit::kCount;
};

inline Quantity Duration(std::string key, base::DurationNs ns) { return {std::move(key), static_cast<double>(ns), Unit::kDuration}; }
inline Quantity Bytes(std::string key, uint64_t bytes) { return {std::move(key), static_cast<double>(bytes), Unit::kBytes}; }
inline Quantity Count(std::string key, uint64_t count) { return {std::move(key), static_cast<double>(count), Unit::kCount}; }
inline Quantity Fraction(std::string key, double share) { return {std::move(key), share, Unit::kFraction}; }
inline Quantity Ratio(std::string key, double ratio) { return {std::move(key), ratio, Unit::kRatio}; }
inline Quantity Number(std::string key, double value) { return {std::move(key), value, Unit::kNumber}; }

// A sentence whose numbers are values: "{idle} in {gaps:gap}" with idle and gaps given. Text outside
// braces is literal; "{{" and "}}" are literal braces. Every placeholder names one of `values`;
// "{key:noun}" (or "{key:singular|plural}") has the reports put the noun after the count, in the number
// the count asks for.
struct Statement {
  std::string text;
  std::vector<Quantity> values;

  Statement() = default;
  Statement(std::string sentence, std::vector<Quantity> numbers = {})
      : text(std::move(sentence)), values(std::move(numbers)) {}
  Statement(const char* sentence) : text(sentence) {}  // NOLINT: a sentence without numbers reads as one
  // The value named `key`, or nullptr.
  const Quantity* Find(std::string_view key) const;
};

struct Evidence {
  std::string label;  // "idle, waiting for launches"
  Statement value;    // "{idle} in {gaps} gaps ({share} of the step)"
};

// What fixing the finding would save, stated per measured step (or per run, when the trace marks no
// steps), from the step account. A what-if, not a promise: `basis` says which.
struct Saving {
  base::DurationNs ns = 0;        // the saving per step (or per run): the best estimate, or the upper end
  base::DurationNs low_ns = 0;    // the lower end of a range; == ns when the estimate is one number
  double fraction = 0.0;          // the saved share of the analysed window (of the mean measured step)
  double low_fraction = 0.0;
  std::string basis;              // the documented what-if, one line: "the idle time of the launch waits"

  static Saving Exact(base::DurationNs ns, double fraction, std::string basis) {
    return {ns, ns, fraction, fraction, std::move(basis)};
  }
  static Saving Range(base::DurationNs low_ns, base::DurationNs high_ns, double low_fraction, double high_fraction,
                      std::string basis) {
    return {high_ns, low_ns, high_fraction, low_fraction, std::move(basis)};
  }
  bool none() const { return ns <= 0; }
  bool is_range() const { return low_ns != ns; }
};

// What a Location points at on the timeline.
enum class LocationKind : uint8_t {
  kIdleGap,        // the GPU idle, for another reason than the ones below (the host busy with other work)
  kLaunchWait,     // the GPU idle, waiting for the host to launch the next kernel
  kHostSync,       // the GPU idle after a host synchronisation drained its queue
  kKernel,         // one kernel
  kCommunication,  // a stretch of communication kernels that no compute hides
  kStep,           // a training step
  kAutotuning,     // a burst of cuDNN algorithm trials
};

// A place in the trace that a finding is about: an interval in the trace's clock (the model's
// nanoseconds, as the exports write them), what it is, and where. Views draw findings there rather
// than over the whole analysed window.
struct Location {
  base::Interval interval;  // [start, end)
  LocationKind kind = LocationKind::kKernel;
  int64_t device_id = -1;  // the GPU (the trace's id), or -1 when not on one GPU
  int64_t stream_id = -1;  // the CUDA stream, or -1 when not on one stream (idle gaps, steps)
  std::string label;       // a short name: the kernel's, "after cudaStreamSynchronize", "step 3"
};

// A finding keeps this many locations, the most telling (the longest) first; the rest are counted.
inline constexpr size_t kMaxLocations = 16;

struct Finding {
  std::string id;  // a catalog id
  Severity severity = Severity::kWarning;
  int64_t device_id = -1;  // the GPU it is about (the trace's id, any uint32), or -1 for the run as a whole
  Statement verdict;       // one line, with the numbers
  std::vector<Evidence> evidence;
  std::vector<std::string> examples;  // kernels, ops or steps that show it, most telling first
  Saving saving;                      // none (0) for findings that are not about step time
  // The fix for this trace, in one sentence, and the code to paste when there is some; when the
  // analyzer leaves them empty, the report assembly fills the page's first "How to fix it" sentence.
  std::string fix;
  std::string fix_code;
  // Where in the trace it shows (finding_locations.h), longest first, at most kMaxLocations; empty for
  // findings about the run as a whole. `locations_left_out` counts the places not kept.
  std::vector<Location> locations;
  uint64_t locations_left_out = 0;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FINDING_H_
