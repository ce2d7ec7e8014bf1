#ifndef AMPPROF_COLLECTORS_KINETO_KINETO_IMPORTER_H_
#define AMPPROF_COLLECTORS_KINETO_KINETO_IMPORTER_H_

// Imports a PyTorch profiler (Kineto) Chrome-trace JSON file, plain or gzip-compressed, into records.
//
//   RETURN_IF_ERROR(kineto::ImportKinetoTrace("worker0.pt.trace.json.gz", builder));
//
// What becomes what:
//   kernel / Kernel                 KernelRecord (device, stream, correlation, grid, block, registers,
//                                   shared memory)
//   cuda_runtime / Runtime          ApiCallRecord, runtime domain (cbid, correlation)
//   cuda_driver                     ApiCallRecord, driver domain
//   gpu_memcpy / Memcpy             MemcpyRecord (kind and memory kinds from the name, bytes)
//   gpu_memset / Memset             MemsetRecord
//   cuda_sync                       SyncRecord
//   cpu_op / Operator               RangeRecord kCpuOp; args keep "Input Dims" and "Input type" as JSON
//   user_annotation                 RangeRecord kUserAnnotation (ProfilerStep#N is one)
//   "M" process_name / thread_name  ProcessRecord / ThreadRecord names
//   deviceProperties (computeProperties in 2021 files)   DeviceRecord
//   distributedInfo                 ProcessRecord rank and world size
// Not read: gpu_user_annotation (the same annotations drawn on the GPU timeline), python_function,
// ac2g flows (the correlation id already links launches to kernels), Trace spans, instants.
//
// Kineto writes GPU events with pid = device index. Correlation ids are per process, so GPU records
// take the pid of the traced process (the first CPU-side event's); until it is known they wait in a
// small buffer. In a file of several processes, each GPU record goes to the process that launched it
// (gpu_process_attribution.h; what stays ambiguous is counted in correlation_ambiguous_process). Timestamps are the file's own microseconds, converted exactly to nanoseconds; the
// file's baseTimeNanoseconds, when present, is kept as metadata.
//
// Errors (returned, naming the file and the byte offset): not JSON, not a trace, broken structure,
// corrupt gzip data, a file cut before its first event. Data loss (a stat, reading succeeds): a file cut
// after some events (json_truncated). Bad events are skipped and counted (json_invalid_events); events
// and members over 2 MiB are skipped without being held (json_oversized_values); strings over 64 KiB
// are cut (strings_truncated).

#include <string>

#include "collectors/kineto/event_blocks.h"
#include "collectors/records/record_sink.h"
#include "src/base/status.h"

namespace ampprof::kineto {

// options.threads > 1 splits the event array into blocks parsed on that many threads (event_blocks.h):
// the same records in the same order, and the same errors, as with one thread.
base::Status ImportKinetoTrace(const std::string& path, records::RecordSink& sink,
                               const EventBlockOptions& options = {});

}  // namespace ampprof::kineto

#endif  // AMPPROF_COLLECTORS_KINETO_KINETO_IMPORTER_H_
