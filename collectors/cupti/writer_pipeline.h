#ifndef AMPPROF_COLLECTORS_CUPTI_WRITER_PIPELINE_H_
#define AMPPROF_COLLECTORS_CUPTI_WRITER_PIPELINE_H_

// WriterPipeline: the collector's path from CUPTI's activity buffers to the .ampt file.
//
//   application threads (CUPTI callbacks)          writer thread
//   bufferRequested -> RequestBuffer()  <-- pool <-- buffer returned, zeroed
//   bufferCompleted -> CompleteBuffer() --> queue --> iterate(buffer) -> records -> AmptWriter ->
//   file
//
// The application's side only takes a buffer from the pool or puts one on the queue, each under a
// short lock, and never allocates after warm-up, converts, or touches the file: CUPTI calls it in
// the middle of the application's CUDA calls. The writer thread does the rest in completion order:
// it steps through a buffer's records with the RecordIterator it was given (in the collector:
// cuptiActivityGetNextRecord and ConvertRecord; in tests, a fake), feeds the AmptWriter, which
// appends a chunk whenever one is full, and hands the buffer back; when no buffer is left to write
// it flushes the writer, so every record of a completed buffer is in the file soon after. So the
// file on disk is a readable trace at every moment, and a process killed at any point leaves
// everything CUPTI handed over before the kill readable.
//
//   ASSIGN_OR_RETURN(auto writer, records::AmptWriter::Create(path, {}));
//   ASSIGN_OR_RETURN(auto pipeline, WriterPipeline::Start(std::move(writer), IterateCuptiBuffer,
//   {})); // bufferRequested:  *buffer = pipeline->RequestBuffer(); *size =
//   pipeline->buffer_bytes(); // bufferCompleted:  pipeline->CompleteBuffer(buffer, valid_size);
//   // at exit, after cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED):
//   pipeline->Stop();
//
// What is counted, into the trace's stats: buffers the pool refused (collector_buffers_denied),
// records CUPTI reports dropped (collector_dropped_records, via AddDroppedRecords), buffers that are
// not the pool's (collector_foreign_buffers: another CUPTI client's, never touched), failures caught
// on the writer thread (collector_internal_errors; the rest of that buffer is lost, the thread goes
// on), and what the AmptWriter could not write (collector_write_errors).
//
// No exception leaves this class: the application-side calls are noexcept, the writer thread
// catches everything at its boundary, and Flush()/Stop() report failures as Status.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "collectors/cupti/buffer_pool.h"
#include "collectors/records/ampt_writer.h"
#include "src/base/status.h"

namespace ampprof::cupti {

class WriterPipeline {
 public:
  // Converts the records in the first `valid_bytes` of `buffer` into `sink`. Runs on the writer
  // thread only; may throw (the pipeline catches and counts).
  using RecordIterator =
      std::function<void(const uint8_t* buffer, size_t valid_bytes, records::RecordSink& sink)>;

  struct Options {
    BufferPool::Options pool;
  };

  // Starts the writer thread. Fails only if the thread cannot be created.
  static base::StatusOr<std::unique_ptr<WriterPipeline>> Start(
      std::unique_ptr<records::AmptWriter> writer, RecordIterator iterate, const Options& options);
  ~WriterPipeline();  // Stop()
  WriterPipeline(const WriterPipeline&) = delete;
  WriterPipeline& operator=(const WriterPipeline&) = delete;

  // ---- Application side (CUPTI's buffer callbacks): cheap, never blocks on the writer. ----

  // A zeroed buffer of buffer_bytes(); nullptr when the pool is exhausted (counted) or stopped.
  uint8_t* RequestBuffer() noexcept;
  size_t buffer_bytes() const { return pool_.buffer_bytes(); }
  // Queues a buffer from RequestBuffer() for writing. After Stop() the buffer is only given back.
  void CompleteBuffer(uint8_t* buffer, size_t valid_bytes) noexcept;
  // Records CUPTI dropped (cuptiActivityGetNumDroppedRecords), added to collector_dropped_records.
  void AddDroppedRecords(uint64_t count) noexcept;
  // A metadata entry learnt while the process runs (the capture window closing, say): the writer
  // thread adds it at its next flush, or Stop() before closing the file. Dropped after Stop().
  void SetMetadata(std::string key, std::string value) noexcept;

  // ---- Control ----

  // Returns once every buffer completed before the call is written and the file is flushed; the
  // writer's status (a write error sticks).
  base::Status Flush();
  // Writes what is queued, stops the thread and closes the file. Idempotent and thread-safe; later
  // calls return the first call's status. Call from an atexit handler, not from a static destructor
  // that may run after the C++ runtime started tearing down.
  base::Status Stop();

  // For tests and the collector's own log line.
  uint64_t buffers_written() const;
  uint64_t buffers_denied() const { return pool_.denied(); }
  uint64_t buffers_after_stop() const;
  const BufferPool& pool() const { return pool_; }

 private:
  struct CompletedBuffer {
    uint8_t* data = nullptr;
    size_t valid_bytes = 0;
  };

  WriterPipeline(std::unique_ptr<records::AmptWriter> writer, RecordIterator iterate,
                 const Options& options);

  void WriterLoop() noexcept;
  void RunWriterLoop();
  void WriteBuffer(const CompletedBuffer& buffer);
  base::Status FlushWriter();
  void CopyCountersIntoStats() noexcept;
  void WritePendingMetadata();  // the writer's owner only: the writer thread, or Stop() after it
  bool FlushDue() const;  // mutex_ held

  BufferPool pool_;
  std::unique_ptr<records::AmptWriter> writer_;  // the writer thread's, until it has exited
  RecordIterator iterate_;
  std::thread thread_;

  mutable std::mutex mutex_;
  std::condition_variable work_;  // the writer thread waits for buffers, flush requests, stop
  std::condition_variable done_;  // Flush() waits for the writer thread
  // A ring of pool.max_buffers slots: there are never more buffers than that.
  std::vector<CompletedBuffer> queue_;
  size_t queue_head_ = 0;
  size_t queue_size_ = 0;
  uint64_t completed_ = 0;        // buffers queued so far
  uint64_t written_ = 0;          // buffers written so far
  uint64_t flush_requested_ = 0;  // Flush() calls so far
  uint64_t flush_done_ = 0;       // the last Flush() call served
  uint64_t flush_target_ = 0;     // the latest Flush() waits for this many buffers written
  base::Status flush_status_;
  bool stop_requested_ = false;
  bool writer_exited_ = false;  // Stop() has closed the file
  bool thread_failed_ = false;  // the writer thread ended on an exception
  uint64_t after_stop_ = 0;
  std::atomic<uint64_t> dropped_records_{0};
  std::atomic<uint64_t> foreign_buffers_{0};  // another CUPTI client's buffers, left untouched
  std::vector<std::pair<std::string, std::string>> pending_metadata_;  // mutex_

  std::mutex stop_mutex_;  // serialises Stop()
  bool stopped_ = false;
  base::Status stop_status_;
};

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_WRITER_PIPELINE_H_
