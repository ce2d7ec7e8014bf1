#include "analyzers/findings/finding_catalog.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "src/base/edit_distance.h"

namespace ampprof::analyzers {
namespace {

// One entry per finding id, in the order of ARCHITECTURE.md's "Findings" table: what code needs.
// The text about each finding (meaning, detection, evidence, fix, where it was seen) is its page,
// docs/findings/<id>.md, whose "# " heading is the title here, word for word.
//
// Default severities follow one rule: kCritical when the problem typically costs most of the step
// or decides the outcome of AMP (launch-bound steps, no Tensor Cores, the slower-than-FP32
// verdict) or is a correctness bug (a second optimizer step); kInfo when the cost is inherent to
// autocast and usually small (casts); kWarning for the rest. Analyzers raise or lower the
// severity of a finding with its evidence.
constexpr FindingInfo kCatalog[] = {
    {
        .id = "gpu.launch_bound",
        .title = "GPU idles between kernels: the host cannot launch work fast enough",
        .default_severity = Severity::kCritical,
    },
    {
        .id = "gpu.sync_stall",
        .title = "Host synchronisations drain the GPU queue during the step",
        .default_severity = Severity::kWarning,
    },
    {
        .id = "layout.nchw_nhwc",
        .title = "Convolutions spend time converting tensors between NCHW and NHWC layouts",
        .default_severity = Severity::kWarning,
    },
    {
        .id = "tensor_cores.fp32_math",
        .title = "Matmuls or convolutions still run on CUDA cores instead of Tensor Cores",
        .default_severity = Severity::kWarning,
    },
    {
        .id = "tensor_cores.misaligned",
        .title = "Tensor-Core GEMMs run slow unaligned variants: dimensions not multiples of eight",
        .default_severity = Severity::kWarning,
    },
    {
        .id = "tensor_cores.unavailable",
        .title = "The GPU has no Tensor Cores: mixed precision saves memory, not time",
        .default_severity = Severity::kCritical,
    },
    {
        .id = "conv.grouped_fallback",
        .title = "Grouped or depthwise convolutions run on slow non-Tensor-Core kernels under AMP",
        .default_severity = Severity::kWarning,
    },
    {
        .id = "amp.scaler_overhead",
        .title = "GradScaler's unscale, inf check and host sync cost a visible share of the step",
        .default_severity = Severity::kWarning,
    },
    {
        .id = "amp.cast_overhead",
        .title = "Autocast cast kernels take a noticeable share of the step",
        .default_severity = Severity::kInfo,
    },
    {
        .id = "amp.slower_than_fp32",
        .title = "The mixed-precision run is no faster than the FP32 run",
        .default_severity = Severity::kCritical,
    },
    {
        .id = "bench.warmup_in_window",
        .title = "The measured window includes warm-up work",
        .default_severity = Severity::kWarning,
    },
    {
        .id = "amp.double_optimizer_step",
        .title =
            "The optimizer steps twice per iteration, e.g. optimizer.step() after scaler.step()",
        .default_severity = Severity::kCritical,
    },
};

}  // namespace

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kCritical:
      return "critical";
  }
  return "unknown";  // only reachable with a value cast from outside the enum
}

std::span<const FindingInfo> FindingCatalog() { return kCatalog; }

const FindingInfo* FindFinding(std::string_view id) {
  for (const FindingInfo& info : kCatalog) {
    if (info.id == id) return &info;
  }
  return nullptr;
}

std::string_view FindingDoc(std::string_view id) {
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    if (doc.id == id) return doc.markdown;
  }
  return {};
}

std::string_view ClosestFindingId(std::string_view text) {
  std::string typed(text);
  std::transform(typed.begin(), typed.end(), typed.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // A user may leave out the prefix ("launch_bound") or type part of a name ("sync"): compare with
  // the part after the dot as well, and take a fragment that names one id only.
  std::string_view fragment_of;
  size_t fragment_matches = 0;
  std::string_view closest;
  size_t closest_distance = std::string_view::npos;
  for (const FindingInfo& info : kCatalog) {
    const std::string_view name = info.id.substr(info.id.find('.') + 1);
    const size_t distance =
        std::min(base::EditDistance(typed, info.id), base::EditDistance(typed, name));
    if (distance < closest_distance) {
      closest = info.id;
      closest_distance = distance;
    }
    if (typed.size() >= 3 && info.id.find(typed) != std::string_view::npos) {
      fragment_of = info.id;
      ++fragment_matches;
    }
  }
  // Up to half the typed length apart (at least 3) is a typo; further than that is another word.
  if (closest_distance <= std::max<size_t>(3, typed.size() / 2)) return closest;
  if (fragment_matches == 1) return fragment_of;
  return {};
}

}  // namespace ampprof::analyzers
