#ifndef AMPPROF_COLLECTORS_CUPTI_COLLECTOR_H_
#define AMPPROF_COLLECTORS_CUPTI_COLLECTOR_H_

// Collector: the CUPTI side of libampprof_inject.so. The CUDA driver calls InitializeInjection
// (injection.cc) once per process, during the first CUDA call; that calls Collector::Initialize,
// which subscribes to CUPTI, opens this process's trace file, and starts recording when the capture
// window (capture_window.h) says so. From then on CUPTI's buffer callbacks feed the WriterPipeline
// (writer_pipeline.h), which appends records to the file as buffers complete.
//
// Rules, because this runs inside someone else's training job:
//   - No exception leaves a function CUPTI or the C library calls: every entry point catches.
//   - Nothing here ever ends the process or changes its exit status; a failure turns the collector
//     off after one line on stderr ("ampprof collector: ...").
//   - pid guard: a forked child inherits this object but not CUPTI's threads; it never calls CUPTI
//     (the pthread_atfork child handler switches the collector off, and every entry point compares
//     getpid() with the pid that initialised it).
//   - One clock: CUPTI stamps every record, CPU and GPU, through Timestamp() (CLOCK_MONOTONIC in
//     ns), registered before any activity kind is enabled.
//   - The window's end detaches CUPTI (cuptiFinalize from a CUDA API exit callback, as CUPTI asks)
//     so the rest of the run is not slowed down; the trace file is complete at that point.
//   - Exit: an atexit handler disables the activity kinds, forces CUPTI to hand over every buffer
//     (cuptiActivityFlushAll(FORCED)), writes them and closes the file. A process killed before
//     that (SIGKILL, a crash, Python dying of an uncaught KeyboardInterrupt, which skips the C
//     library's atexit handlers) leaves what the writer had already appended: every buffer CUPTI
//     handed over. CUPTI's own periodic flush hands over only full buffers, so a thread of ours
//     also calls cuptiActivityFlushAll(0) every kFlushPeriodMs, which hands over the partly filled
//     buffers whose records are complete: what is lost is about one period (docs/reliability.md;
//     not yet measured on a GPU).
//   - Under another CUPTI subscriber (Nsight Systems, a second injection), CUPTI refuses a second
//     one: the collector records nothing, writes a trace file that says so (metadata
//     collector_mode), and the launcher reports it. NVTX ranges still reach the other tool.

#include <cstdint>

namespace ampprof::cupti {

// How often buffers are handed over while the process runs: CUPTI's worker thread hands over the full
// ones (cuptiActivityFlushPeriod), the collector's flush thread the partly filled ones whose records
// are complete (cuptiActivityFlushAll(0)), so that records reach the file while the process runs.
inline constexpr uint32_t kFlushPeriodMs = 1000;

// Returns what InitializeInjection returns to the driver: 1, always (a collector that turned itself
// off is not the driver's problem). Idempotent.
int InitializeCollector() noexcept;

// What the exit handler does (stop recording, force CUPTI's last buffers out, write, close), for a
// caller that knows the process is ending before the C library's exit handlers run: the PyTorch
// shim's Python atexit function, through ampprof_collector_finish. True when this call finished the
// trace; false when the collector is off, in another process (a fork), or already finished.
bool FinishCollectorForExit() noexcept;

// Counts NVTX's calls of InitializeInjectionNvtx2 (one per copy of NVTX in the process: the program's,
// cuBLAS's, torch's...) and how many libcupti accepted; the trace's metadata says both, so that a
// trace without ranges tells whether NVTX ever reached CUPTI. Any thread, before or after the
// collector starts.
void NoteNvtxInjection(bool accepted) noexcept;

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_COLLECTOR_H_
