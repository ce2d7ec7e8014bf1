#ifndef AMPPROF_ANALYZERS_FACTS_AUTOTUNING_H_
#define AMPPROF_ANALYZERS_FACTS_AUTOTUNING_H_

// cuDNN autotuning in a trace: with torch.backends.cudnn.benchmark = True, the first call of each
// convolution shape runs every candidate algorithm once (cudnnFind*, or the frontend's time-sorted
// plans) and times it with a synchronisation after each. In a trace that is a burst of convolution
// kernels of distinct algorithms (fft, implicit/explicit sgemm, winograd, xmma ...), each followed by a
// blocking sync, most of which never run again. It is warm-up: the syncs are not the training loop's,
// and a report that called them a sync stall would send the user after a `.item()` that is not there.
//
//   for (const base::Interval& burst : FindAutotuning(input, device)) ...
//
// A burst is at least kMinAutotuningTrials consecutive convolution kernels of the device, each followed
// on its launching thread by a synchronise call before the next convolution is launched, with at least
// kMinAutotuningTrials distinct names, each name's launches in one run of at most four (cuDNN times an
// algorithm a few times in a row, then moves on), most of the names (more than half) never running on the
// device after the burst. A loop that synchronises after every layer fails the last two tests: its
// layers' kernels cycle and recur every step.

#include <cstddef>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

inline constexpr size_t kMinAutotuningTrials = 3;

// The device's autotuning bursts, in time order: first trial kernel start to last trial kernel end.
std::vector<base::Interval> FindAutotuning(const AnalysisInput& input, model::DeviceRow device);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_AUTOTUNING_H_
