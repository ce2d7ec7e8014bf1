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

#include "collectors/records/record_sink.h"
#include "src/base/status.h"

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
};

base::Status GenerateSyntheticTrace(const SyntheticTraceOptions& options, records::RecordSink& sink);

}  // namespace ampprof::synthetic

#endif  // AMPPROF_COLLECTORS_SYNTHETIC_SYNTHETIC_TRACE_H_
