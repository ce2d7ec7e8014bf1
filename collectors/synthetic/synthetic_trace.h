#ifndef AMPPROF_COLLECTORS_SYNTHETIC_SYNTHETIC_TRACE_H_
#define AMPPROF_COLLECTORS_SYNTHETIC_SYNTHETIC_TRACE_H_

// A generator of synthetic traces that look like a mixed-precision training loop on one H100: for the
// demo, for benchmarks at any size, and for tests that need volume. It is a record source like any
// importer, so it writes to any RecordSink (an AmptWriter to make a file, a ModelBuilder directly).
//
// Each step is what a small autocast + GradScaler model does: per layer an FP32->FP16 weight cast, a
// Tensor-Core GEMM and an activation; backward GEMMs; GradScaler's unscale kernel, its 4-byte
// device-to-host copy and the stream synchronisation it forces; the optimizer and the scale update; an
// all-reduce on a second stream. Kernel names are real (taken from public H100 and V100 traces). Host
// launch costs are a few microseconds, so short kernels leave the GPU idle between launches, as in a
// launch-bound run. Records are emitted the way CUPTI delivers them: API calls as they happen, kernels in
// per-stream batches, so the stream is close to, but not exactly, in time order.
//
//   SyntheticTraceOptions options;
//   options.kernels = 1'000'000;
//   RETURN_IF_ERROR(GenerateSyntheticTrace(options, writer));
//
// Deterministic: the same options give the same records on every platform.
//
// With `precision = kFp32` it writes the same loop without autocast and GradScaler, for comparisons
// (`ampprof analyze amp.ampt --baseline fp32.ampt`): FP32 SIMT GEMMs (about three times the FP16
// Tensor-Core kernels' time), FP32 elementwise kernels, no casts, no unscale, no found_inf read.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "collectors/records/record_sink.h"
#include "src/base/status.h"
#include "src/base/time.h"

namespace ampprof::synthetic {

enum class SyntheticPrecision : uint8_t { kAmp, kFp32 };

struct SyntheticTraceOptions {
  uint64_t kernels = 5'000;  // generation stops at the end of the step that reaches this many
  uint32_t layers = 8;       // linear layers of the model: 7 kernels each, plus 6 per step
  uint64_t seed = 1;
  SyntheticPrecision precision = SyntheticPrecision::kAmp;

  // Kernel names for stress tests (0: the real names as they are). Every name is its real name,
  // then, with `kernel_name_variants` N, "_v<i mod N>" for the i-th launch (N at least `kernels`:
  // every kernel a name of its own), then "_" and 'x's up to `kernel_name_bytes` (deep template
  // instantiations run to tens of KiB).
  uint64_t kernel_name_variants = 0;
  uint32_t kernel_name_bytes = 0;

  // Called after each step's records are delivered, with the step's index; false ends the loop
  // there. Kernels are delivered in batches, as CUPTI hands them over, so up to a batch per stream
  // is still held back when it is called; the loop delivers them when it ends.
  std::function<bool(uint64_t step)> after_step{};

  // One rank of a data-parallel job (GenerateSyntheticJob sets these): the process states its rank and
  // world size, and every step ends its backward pass with a gradient all-reduce that all ranks join.
  int32_t rank = -1;
  int32_t world_size = 0;
  // This rank's GPU kernels take `compute_scale` times as long (a slower GPU, more data), and its host
  // work between launches `host_scale` times as long (a busier host, a slower data loader).
  double compute_scale = 1.0;
  double host_scale = 1.0;
};

base::Status GenerateSyntheticTrace(const SyntheticTraceOptions& options, records::RecordSink& sink);

// A synchronous data-parallel job: rank i runs the loop with ranks[i], all in lockstep on one clock.
// Each step's all-reduce starts on each rank when its gradients are ready and ends on all ranks
// together, when the last rank has joined (a collective kernel ends only when every rank has joined),
// and the optimizer waits for it; so a slow rank shows as its peers' longer all-reduce kernels, as in a
// real job. Two passes, so that a thousand ranks need not be open at once: SyntheticCollectiveEnds
// runs every rank without keeping a record and returns each step's all-reduce end; then
// GenerateSyntheticRank writes one rank at a time with them. The ranks must run the same loop
// (kernels, layers, precision).
//
//   ASSIGN_OR_RETURN(std::vector<base::TimeNs> ends, SyntheticCollectiveEnds(ranks));
//   for (size_t r = 0; r < ranks.size(); ++r) RETURN_IF_ERROR(GenerateSyntheticRank(ranks[r], ends, writer_r));
base::StatusOr<std::vector<base::TimeNs>> SyntheticCollectiveEnds(std::span<const SyntheticTraceOptions> ranks);
base::Status GenerateSyntheticRank(const SyntheticTraceOptions& rank, std::span<const base::TimeNs> collective_ends,
                                   records::RecordSink& sink);

}  // namespace ampprof::synthetic

#endif  // AMPPROF_COLLECTORS_SYNTHETIC_SYNTHETIC_TRACE_H_
