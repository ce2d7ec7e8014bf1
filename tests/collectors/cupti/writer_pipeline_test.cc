#include "collectors/cupti/writer_pipeline.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "collectors/records/ampt_reader.h"
#include "collectors/records/record_set.h"
#include "tests/testing/temp_dir.h"

// The pipeline is tested with a test encoding in place of CUPTI's (whose buffer layout is private):
// a buffer holds 16-byte entries (u64 producer, u64 sequence), and the fake iterator turns each
// into a kernel record with stream_id = producer and correlation_id = sequence. A sequence of
// kPoison makes the iterator throw.

namespace ampprof::cupti {
namespace {

using records::RecordSet;
using testing::TempDir;

constexpr size_t kEntryBytes = 16;
constexpr uint64_t kPoison = ~uint64_t{0};

void IterateTestBuffer(const uint8_t* buffer, size_t valid_bytes, records::RecordSink& sink) {
  const base::StringId name = sink.strings().Intern("test_kernel");
  for (size_t at = 0; at + kEntryBytes <= valid_bytes; at += kEntryBytes) {
    uint64_t producer = 0;
    uint64_t sequence = 0;
    std::memcpy(&producer, buffer + at, 8);
    std::memcpy(&sequence, buffer + at + 8, 8);
    if (sequence == kPoison) throw std::runtime_error("poisoned buffer");
    records::KernelRecord kernel;
    kernel.start = static_cast<base::TimeNs>(1'000 + sequence);
    kernel.end = kernel.start + 10;
    kernel.stream_id = static_cast<uint32_t>(producer);
    kernel.correlation_id = static_cast<uint32_t>(sequence);
    kernel.name = name;
    sink.Add(kernel);
  }
}

// Fills `buffer` with entries (producer, first), (producer, first + 1), ...; returns the bytes
// used.
size_t FillTestBuffer(uint8_t* buffer, size_t capacity, uint64_t producer, uint64_t first,
                      size_t count) {
  size_t used = 0;
  for (size_t i = 0; i < count && used + kEntryBytes <= capacity; ++i, used += kEntryBytes) {
    const uint64_t sequence = first + i;
    std::memcpy(buffer + used, &producer, 8);
    std::memcpy(buffer + used + 8, &sequence, 8);
  }
  return used;
}

std::unique_ptr<WriterPipeline> StartPipeline(const std::string& path,
                                              const BufferPool::Options& pool,
                                              size_t chunk_bytes = 64 * 1024) {
  auto writer = records::AmptWriter::Create(path, {.chunk_bytes = chunk_bytes, .overwrite = false});
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return nullptr;
  auto pipeline = WriterPipeline::Start(std::move(*writer), IterateTestBuffer, {.pool = pool});
  EXPECT_TRUE(pipeline.ok()) << pipeline.status().ToString();
  return pipeline.ok() ? std::move(*pipeline) : nullptr;
}

// Requests a buffer, fills it with `count` entries and completes it; false if the pool said no.
bool ProduceBuffer(WriterPipeline& pipeline, uint64_t producer, uint64_t first, size_t count) {
  uint8_t* buffer = pipeline.RequestBuffer();
  if (buffer == nullptr) return false;
  pipeline.CompleteBuffer(buffer,
                          FillTestBuffer(buffer, pipeline.buffer_bytes(), producer, first, count));
  return true;
}

// ProduceBuffer, waiting for the writer to give a buffer back when the pool is out.
void ProduceBufferWaiting(WriterPipeline& pipeline, uint64_t producer, uint64_t first,
                          size_t count) {
  while (!ProduceBuffer(pipeline, producer, first, count)) std::this_thread::yield();
}

RecordSet ReadBack(const std::string& path) {
  RecordSet set;
  const base::Status status = records::ReadAmptFile(path, set);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return set;
}

TEST(WriterPipelineTest, ConcurrentProducersLandExactlyOnce) {
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  // Few, small buffers, so that the four producers outrun the writer and meet the pool's bound too.
  auto pipeline =
      StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 6, .preallocated_buffers = 2});
  ASSERT_NE(pipeline, nullptr);
  constexpr int kProducers = 4;
  constexpr int kBuffersEach = 300;
  constexpr size_t kEntriesPerBuffer = 4096 / kEntryBytes;
  std::atomic<uint64_t> refusals{0};
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int b = 0; b < kBuffersEach;) {
        if (ProduceBuffer(*pipeline, p, uint64_t(b) * kEntriesPerBuffer, kEntriesPerBuffer)) {
          ++b;
        } else {
          refusals.fetch_add(1);  // CUPTI would drop these records; the test producer retries
          std::this_thread::yield();
        }
      }
    });
  }
  for (std::thread& producer : producers) producer.join();
  ASSERT_TRUE(pipeline->Stop().ok());
  EXPECT_EQ(pipeline->buffers_written(), uint64_t{kProducers} * kBuffersEach);
  EXPECT_EQ(pipeline->buffers_denied(), refusals.load());
  EXPECT_LE(pipeline->pool().allocated(), 6u);

  const RecordSet set = ReadBack(path);
  ASSERT_EQ(set.kernels.size(), size_t{kProducers} * kBuffersEach * kEntriesPerBuffer);
  std::map<std::pair<uint32_t, uint32_t>, int> seen;
  for (const records::KernelRecord& kernel : set.kernels)
    ++seen[{kernel.stream_id, kernel.correlation_id}];
  EXPECT_EQ(seen.size(), set.kernels.size());  // no record twice
  for (int p = 0; p < kProducers; ++p) {
    for (uint32_t s = 0; s < kBuffersEach * kEntriesPerBuffer; ++s) {
      ASSERT_EQ((seen[{uint32_t(p), s}]), 1) << "producer " << p << " sequence " << s;
    }
  }
  EXPECT_EQ(set.stats().Get(base::Stat::kCollectorBuffersDenied),
            static_cast<int64_t>(refusals.load()));
}

TEST(WriterPipelineTest, PoolExhaustionIsCountedInTheTrace) {
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  auto pipeline =
      StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 2, .preallocated_buffers = 2});
  ASSERT_NE(pipeline, nullptr);
  uint8_t* first = pipeline->RequestBuffer();
  uint8_t* second = pipeline->RequestBuffer();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(pipeline->RequestBuffer(), nullptr);  // the writer has both: CUPTI would drop records
  EXPECT_EQ(pipeline->buffers_denied(), 1u);
  pipeline->CompleteBuffer(first, FillTestBuffer(first, 4096, 0, 0, 10));
  pipeline->CompleteBuffer(second, FillTestBuffer(second, 4096, 0, 10, 10));
  pipeline->AddDroppedRecords(250);  // what cuptiActivityGetNumDroppedRecords would report
  ASSERT_TRUE(pipeline->Stop().ok());

  const RecordSet set = ReadBack(path);
  EXPECT_EQ(set.kernels.size(), 20u);
  EXPECT_EQ(set.stats().Get(base::Stat::kCollectorBuffersDenied), 1);
  EXPECT_EQ(set.stats().Get(base::Stat::kCollectorDroppedRecords), 250);
  EXPECT_TRUE(set.stats().HasDataLoss());
}

TEST(WriterPipelineTest, FlushWritesEverythingCompletedBeforeIt) {
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  auto pipeline =
      StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 4, .preallocated_buffers = 1});
  ASSERT_NE(pipeline, nullptr);
  for (int b = 0; b < 10; ++b) ProduceBufferWaiting(*pipeline, 0, uint64_t(b) * 100, 100);
  ASSERT_TRUE(pipeline->Flush().ok());
  EXPECT_EQ(pipeline->buffers_written(), 10u);
  EXPECT_EQ(ReadBack(path).kernels.size(), 1000u);  // while the pipeline still runs
  ASSERT_TRUE(ProduceBuffer(*pipeline, 0, 1000, 5));
  ASSERT_TRUE(pipeline->Flush().ok());
  EXPECT_EQ(ReadBack(path).kernels.size(), 1005u);
  ASSERT_TRUE(pipeline->Flush().ok());  // nothing new: returns at once
  ASSERT_TRUE(pipeline->Stop().ok());
}

// The collector never calls Flush() while the process runs: the records of each buffer CUPTI hands
// over must reach the file by themselves, not wait in the writer for a chunk to fill until exit,
// or a process killed later loses them. Polled, since the writer thread gets there on its own time.
TEST(WriterPipelineTest, RecordsOfACompletedBufferReachTheFileWithoutAFlush) {
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  auto pipeline =
      StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 4, .preallocated_buffers = 1});
  ASSERT_NE(pipeline, nullptr);
  ASSERT_TRUE(ProduceBuffer(*pipeline, 0, 0, 10));  // 10 records: far less than a 64 KiB chunk
  size_t on_disk = 0;
  for (int attempt = 0; attempt < 500 && on_disk < 10; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    on_disk = ReadBack(path).kernels.size();
  }
  EXPECT_EQ(on_disk, 10u);
  ASSERT_TRUE(pipeline->Stop().ok());
}

TEST(WriterPipelineTest, MetadataLearntWhileRunningReachesTheFile) {
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  auto pipeline =
      StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 2, .preallocated_buffers = 1});
  ASSERT_NE(pipeline, nullptr);
  pipeline->SetMetadata("capture_started_ns", "100");
  ASSERT_TRUE(pipeline->Flush().ok());
  EXPECT_EQ(ReadBack(path).metadata["capture_started_ns"], "100");  // while the pipeline runs
  pipeline->SetMetadata("capture_stopped_ns", "200");             // written by Stop()
  ASSERT_TRUE(pipeline->Stop().ok());
  pipeline->SetMetadata("too_late", "x");  // after Stop(): dropped, harmlessly
  const RecordSet set = ReadBack(path);
  EXPECT_EQ(set.metadata.at("capture_stopped_ns"), "200");
  EXPECT_EQ(set.metadata.count("too_late"), 0u);
}

TEST(WriterPipelineTest, FlushFromManyThreadsWhileProducing) {
  TempDir dir;
  auto pipeline = StartPipeline(
      dir.File("trace.ampt"), {.buffer_bytes = 4096, .max_buffers = 8, .preallocated_buffers = 8});
  ASSERT_NE(pipeline, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int b = 0; b < 50; ++b) {
        ProduceBufferWaiting(*pipeline, t, uint64_t(b) * 10, 10);
        if (b % 10 == 0) {
          EXPECT_TRUE(pipeline->Flush().ok());
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_TRUE(pipeline->Flush().ok());
  EXPECT_EQ(pipeline->buffers_written(), 150u);
  ASSERT_TRUE(pipeline->Stop().ok());
}

TEST(WriterPipelineTest, StopIsIdempotentAndLateBuffersAreHandledSafely) {
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  auto pipeline =
      StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 2, .preallocated_buffers = 1});
  ASSERT_NE(pipeline, nullptr);
  ASSERT_TRUE(ProduceBuffer(*pipeline, 0, 0, 3));
  uint8_t* late = pipeline->RequestBuffer();
  ASSERT_NE(late, nullptr);
  const base::Status first = pipeline->Stop();
  ASSERT_TRUE(first.ok()) << first.ToString();
  EXPECT_EQ(pipeline->Stop(), first);
  // CUPTI completing a buffer after the file closed (a flush racing exit): given back, not written.
  pipeline->CompleteBuffer(late, FillTestBuffer(late, 4096, 0, 3, 3));
  EXPECT_EQ(pipeline->buffers_after_stop(), 1u);
  EXPECT_EQ(pipeline->RequestBuffer(), nullptr);
  EXPECT_EQ(pipeline->Flush(), first);
  EXPECT_EQ(ReadBack(path).kernels.size(), 3u);
}

TEST(WriterPipelineTest, StopFromTwoThreadsAtOnce) {
  TempDir dir;
  auto pipeline = StartPipeline(
      dir.File("trace.ampt"), {.buffer_bytes = 4096, .max_buffers = 2, .preallocated_buffers = 1});
  ASSERT_NE(pipeline, nullptr);
  ASSERT_TRUE(ProduceBuffer(*pipeline, 0, 0, 3));
  std::thread other([&] { EXPECT_TRUE(pipeline->Stop().ok()); });
  EXPECT_TRUE(pipeline->Stop().ok());
  other.join();
}

TEST(WriterPipelineTest, DestructionStopsAndClosesTheFile) {
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  {
    auto pipeline =
        StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 2, .preallocated_buffers = 1});
    ASSERT_NE(pipeline, nullptr);
    ASSERT_TRUE(ProduceBuffer(*pipeline, 0, 0, 7));
  }
  EXPECT_EQ(ReadBack(path).kernels.size(), 7u);
}

TEST(WriterPipelineTest, AFailingBufferIsCountedAndWritingGoesOn) {
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  auto pipeline =
      StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 2, .preallocated_buffers = 1});
  ASSERT_NE(pipeline, nullptr);
  ASSERT_TRUE(ProduceBuffer(*pipeline, 0, 0, 5));
  uint8_t* poisoned = pipeline->RequestBuffer();
  ASSERT_NE(poisoned, nullptr);
  size_t used = FillTestBuffer(poisoned, 4096, 0, 5, 2);
  used += FillTestBuffer(poisoned + used, 4096 - used, 0, kPoison, 1);
  pipeline->CompleteBuffer(poisoned, used);
  ProduceBufferWaiting(*pipeline, 0, 100, 5);
  ASSERT_TRUE(pipeline->Stop().ok());

  const RecordSet set = ReadBack(path);
  EXPECT_EQ(set.kernels.size(), 12u);  // 5, the 2 before the failure, 5
  EXPECT_EQ(set.stats().Get(base::Stat::kCollectorInternalErrors), 1);
}

TEST(WriterPipelineTest, StartNeedsAWriterAndAnIterator) {
  TempDir dir;
  auto writer = records::AmptWriter::Create(dir.File("trace.ampt"), {});
  ASSERT_TRUE(writer.ok());
  EXPECT_FALSE(WriterPipeline::Start(nullptr, IterateTestBuffer, {}).ok());
  EXPECT_FALSE(WriterPipeline::Start(std::move(*writer), nullptr, {}).ok());
}

// ---- A process that dies while writing ----

// Runs in a forked child: writes buffers of kChildEntries records, one producer, sequence numbers
// in order, forever; after every kReportEvery buffers it flushes and writes the number of records
// flushed to `report_fd`. Never returns.
constexpr size_t kChildEntries = 200;
constexpr int kReportEvery = 20;

[[noreturn]] void WriteUntilKilled(const std::string& path, int report_fd, size_t chunk_bytes) {
  auto pipeline = StartPipeline(
      path, {.buffer_bytes = 8192, .max_buffers = 4, .preallocated_buffers = 4}, chunk_bytes);
  if (pipeline == nullptr) _exit(10);
  for (uint64_t buffer = 0;; ++buffer) {
    ProduceBufferWaiting(*pipeline, 0, buffer * kChildEntries, kChildEntries);
    if ((buffer + 1) % kReportEvery == 0) {
      if (!pipeline->Flush().ok()) _exit(11);
      const uint64_t flushed = (buffer + 1) * kChildEntries;
      if (write(report_fd, &flushed, sizeof(flushed)) != sizeof(flushed)) _exit(12);
    }
  }
}

// The records read back are sequences 0..n-1, each once: a prefix of what the child wrote.
void ExpectReadablePrefix(const RecordSet& set, uint64_t at_least) {
  EXPECT_GE(set.kernels.size(), at_least);
  std::vector<int> seen(set.kernels.size(), 0);
  for (const records::KernelRecord& kernel : set.kernels) {
    ASSERT_LT(kernel.correlation_id, seen.size())
        << "a gap before sequence " << kernel.correlation_id;
    ++seen[kernel.correlation_id];
  }
  for (size_t s = 0; s < seen.size(); ++s) ASSERT_EQ(seen[s], 1) << "sequence " << s;
}

TEST(WriterPipelineTest, KilledWriterLeavesAReadablePrefix) {
  TempDir dir;
  const std::string path = dir.File("killed.ampt");
  int report[2];
  ASSERT_EQ(pipe(report), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(report[0]);
    WriteUntilKilled(path, report[1], 16 * 1024);
  }
  close(report[1]);
  uint64_t flushed = 0;
  for (int reports = 0; reports < 5; ++reports) {
    ASSERT_EQ(read(report[0], &flushed, sizeof(flushed)), static_cast<ssize_t>(sizeof(flushed)));
  }
  ASSERT_EQ(kill(child, SIGKILL), 0);  // mid-stream: the child keeps writing between reports
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  close(report[0]);

  // Whether the kill landed between chunks or inside one, the file reads without error; a torn last
  // chunk is reported as data loss.
  const RecordSet set = ReadBack(path);
  ExpectReadablePrefix(set, flushed);
  if (set.stats().Get(base::Stat::kAmptTruncatedTail) != 0) {
    EXPECT_TRUE(set.stats().HasDataLoss());
  }
}

TEST(WriterPipelineTest, WriterCutInsideAChunkReportsTruncationAsDataLoss) {
  // A file-size limit that is not on a chunk boundary: the write that crosses it is cut short and
  // the next one kills the child (SIGXFSZ), so the file ends inside a chunk, every time.
  TempDir dir;
  const std::string path = dir.File("cut.ampt");
  int report[2];
  ASSERT_EQ(pipe(report), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(report[0]);
    const rlimit no_core{0, 0};
    const rlimit file_size{100'003, 100'003};
    if (setrlimit(RLIMIT_CORE, &no_core) != 0 || setrlimit(RLIMIT_FSIZE, &file_size) != 0)
      _exit(13);
    WriteUntilKilled(path, report[1], 16 * 1024);
  }
  close(report[1]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ) << status;
  close(report[0]);
  struct stat file {};
  ASSERT_EQ(stat(path.c_str(), &file), 0);
  EXPECT_EQ(file.st_size, 100'003);

  const RecordSet set = ReadBack(path);
  ExpectReadablePrefix(set, 1);
  EXPECT_EQ(set.stats().Get(base::Stat::kAmptTruncatedTail), 1);
  EXPECT_GT(set.stats().Get(base::Stat::kAmptSalvagedRecords), 0);
  EXPECT_TRUE(set.stats().HasDataLoss());
}

TEST(WriterPipelineTest, AnotherCuptiClientsBufferIsNeitherReadNorZeroedAndIsCounted) {
  // On an H100 a program that was itself a CUPTI client had its 1 MiB buffer completed to the
  // collector, which zeroed it as one of its own 8 MiB buffers: the program died of SIGSEGV.
  TempDir dir;
  const std::string path = dir.File("trace.ampt");
  auto pipeline =
      StartPipeline(path, {.buffer_bytes = 4096, .max_buffers = 2, .preallocated_buffers = 1});
  ASSERT_NE(pipeline, nullptr);
  ASSERT_TRUE(ProduceBuffer(*pipeline, 0, 0, 3));
  std::vector<uint8_t> foreign(1024, 0xAB);  // smaller than the pool's buffers, as it was
  const size_t used = FillTestBuffer(foreign.data(), foreign.size(), 0, 100, 2);
  pipeline->CompleteBuffer(foreign.data(), used);
  ASSERT_TRUE(pipeline->Stop().ok());
  const RecordSet set = ReadBack(path);
  EXPECT_EQ(set.kernels.size(), 3u);  // the foreign buffer's records are not ours to read
  EXPECT_EQ(set.stats().Get(base::Stat::kCollectorForeignBuffers), 1);
  EXPECT_TRUE(set.stats().HasDataLoss());
  EXPECT_EQ(foreign.back(), 0xAB);  // untouched past what its owner wrote
}

}  // namespace
}  // namespace ampprof::cupti
