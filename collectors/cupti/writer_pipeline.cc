#include "collectors/cupti/writer_pipeline.h"

#include <exception>
#include <utility>

namespace ampprof::cupti {

base::StatusOr<std::unique_ptr<WriterPipeline>> WriterPipeline::Start(
    std::unique_ptr<records::AmptWriter> writer, RecordIterator iterate, const Options& options) {
  if (writer == nullptr || !iterate)
    return base::InvalidArgumentError("the writer pipeline needs a writer and an iterator");
  std::unique_ptr<WriterPipeline> pipeline(
      new WriterPipeline(std::move(writer), std::move(iterate), options));
  try {
    pipeline->thread_ = std::thread([raw = pipeline.get()] { raw->WriterLoop(); });
  } catch (const std::exception& error) {
    // The pipeline's destructor closes the file.
    return base::InternalError("cannot start the trace writer thread: {}", error.what());
  }
  return pipeline;
}

WriterPipeline::WriterPipeline(std::unique_ptr<records::AmptWriter> writer, RecordIterator iterate,
                               const Options& options)
    : pool_(options.pool), writer_(std::move(writer)), iterate_(std::move(iterate)) {
  queue_.resize(pool_.max_buffers());
}

WriterPipeline::~WriterPipeline() { static_cast<void>(Stop()); }

// ---- Application side ----

uint8_t* WriterPipeline::RequestBuffer() noexcept {
  {
    std::lock_guard lock(mutex_);
    if (stop_requested_) return nullptr;  // the file is closing: CUPTI drops what it cannot store
  }
  return pool_.Acquire();
}

void WriterPipeline::CompleteBuffer(uint8_t* buffer, size_t valid_bytes) noexcept {
  if (buffer == nullptr) return;
  if (!pool_.Owns(buffer)) {
    // Another CUPTI client's buffer: neither read (its owner may be using it) nor zeroed nor kept.
    foreign_buffers_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (!stop_requested_ && queue_size_ < queue_.size()) {
      queue_[(queue_head_ + queue_size_) % queue_.size()] = {buffer, valid_bytes};
      ++queue_size_;
      ++completed_;
      work_.notify_one();
      return;
    }
    // Too late to write (the ring holds every pool buffer, so it is never full otherwise).
    ++after_stop_;
  }
  pool_.Release(buffer);
}

void WriterPipeline::AddDroppedRecords(uint64_t count) noexcept {
  dropped_records_.fetch_add(count, std::memory_order_relaxed);
}

void WriterPipeline::SetMetadata(std::string key, std::string value) noexcept {
  try {
    std::lock_guard lock(mutex_);
    if (writer_exited_) return;
    pending_metadata_.emplace_back(std::move(key), std::move(value));
    flush_target_ = completed_;
    ++flush_requested_;  // so the writer thread wakes up and writes it without waiting for a buffer
    work_.notify_one();
  } catch (...) {
    // Out of memory: the entry is lost, the trace is not.
  }
}

// ---- Control ----

base::Status WriterPipeline::Flush() {
  std::unique_lock lock(mutex_);
  if (writer_exited_) return stop_status_;
  const uint64_t ticket = ++flush_requested_;
  flush_target_ = completed_;
  work_.notify_one();
  done_.wait(lock, [&] { return flush_done_ >= ticket || writer_exited_ || thread_failed_; });
  if (flush_done_ < ticket) {
    return writer_exited_ ? stop_status_ : base::InternalError("the trace writer thread failed");
  }
  return flush_status_;
}

base::Status WriterPipeline::Stop() {
  std::lock_guard stop_lock(stop_mutex_);
  if (stopped_) return stop_status_;
  {
    std::lock_guard lock(mutex_);
    stop_requested_ = true;
    work_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  // The writer thread has exited: the writer is ours now.
  WritePendingMetadata();
  CopyCountersIntoStats();
  base::Status status = writer_->Close();
  {
    std::lock_guard lock(mutex_);
    stop_status_ = status;
    writer_exited_ = true;
  }
  done_.notify_all();
  stopped_ = true;
  return status;
}

uint64_t WriterPipeline::buffers_written() const {
  std::lock_guard lock(mutex_);
  return written_;
}

uint64_t WriterPipeline::buffers_after_stop() const {
  std::lock_guard lock(mutex_);
  return after_stop_;
}

// ---- Writer thread ----

bool WriterPipeline::FlushDue() const {
  return flush_requested_ > flush_done_ && written_ >= flush_target_;
}

void WriterPipeline::WriterLoop() noexcept {
  try {
    RunWriterLoop();
  } catch (...) {
    // Nothing in the loop is expected to throw (conversion and flushing catch their own failures);
    // if something did, the thread ends, later buffers are refused or given back, and Flush() stops
    // waiting.
    std::lock_guard lock(mutex_);
    thread_failed_ = true;
    done_.notify_all();
  }
}

void WriterPipeline::RunWriterLoop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return queue_size_ > 0 || stop_requested_ || FlushDue(); });
    // A flush is served as soon as the buffers it waits for are written, even while more keep
    // coming.
    if (FlushDue()) {
      const uint64_t ticket = flush_requested_;
      lock.unlock();
      base::Status status = FlushWriter();
      lock.lock();
      flush_status_ = std::move(status);
      flush_done_ = ticket;
      done_.notify_all();
      continue;
    }
    if (queue_size_ > 0) {
      const CompletedBuffer buffer = queue_[queue_head_];
      queue_head_ = (queue_head_ + 1) % queue_.size();
      --queue_size_;
      lock.unlock();
      WriteBuffer(buffer);
      pool_.Release(buffer.data);
      lock.lock();
      ++written_;
      // Once the queue is drained, what the buffers held goes to the file, not only whole chunks:
      // the AmptWriter would otherwise keep up to a chunk of each record kind (and the metadata)
      // in memory until exit, and a killed process would lose it.
      if (queue_size_ == 0) {
        lock.unlock();
        static_cast<void>(FlushWriter());  // a write error sticks in the writer; Stop() reports it
        lock.lock();
      }
      continue;
    }
    if (stop_requested_) return;  // and the queue is empty; Stop() closes the file
  }
}

void WriterPipeline::WriteBuffer(const CompletedBuffer& buffer) {
  try {
    iterate_(buffer.data, buffer.valid_bytes, *writer_);
  } catch (...) {
    // A bug or std::bad_alloc: the rest of this buffer is lost, the next one may do better.
    writer_->stats().Increment(base::Stat::kCollectorInternalErrors);
  }
}

base::Status WriterPipeline::FlushWriter() {
  WritePendingMetadata();
  CopyCountersIntoStats();
  return writer_->Flush();
}

void WriterPipeline::WritePendingMetadata() {
  std::vector<std::pair<std::string, std::string>> entries;
  {
    std::lock_guard lock(mutex_);
    entries.swap(pending_metadata_);
  }
  for (const auto& [key, value] : entries) writer_->SetMetadata(key, value);
}

// The counters the application side keeps (atomics, lock-free) go into the writer's stats, which
// only the writer thread touches, before the stats are written.
void WriterPipeline::CopyCountersIntoStats() noexcept {
  base::Stats& stats = writer_->stats();
  stats.Set(base::Stat::kCollectorBuffersDenied, static_cast<int64_t>(pool_.denied()));
  stats.Set(base::Stat::kCollectorDroppedRecords,
            static_cast<int64_t>(dropped_records_.load(std::memory_order_relaxed)));
  stats.Set(base::Stat::kCollectorForeignBuffers,
            static_cast<int64_t>(foreign_buffers_.load(std::memory_order_relaxed)));
}

}  // namespace ampprof::cupti
