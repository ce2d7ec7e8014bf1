#ifndef AMPPROF_TESTS_PIPELINE_KINETO_WRITER_H_
#define AMPPROF_TESTS_PIPELINE_KINETO_WRITER_H_

// Small synthetic PyTorch profiler (Kineto JSON) traces for pipeline tests: each launch is an optional
// cpu_op (with Input Dims and Input type when given) around a cudaLaunchKernel, linked to its kernel by
// External id and correlation, laid end to end on GPU 0 of an A100.
//
//   KinetoWriter trace(/*pid=*/14102, /*tid=*/22711);
//   trace.Op("aten::mm", R"([[512, 1000], [1000, 1000]])", R"(["float", "float"])").Launch(kSgemm, 100);
//   Write(dir, "trace.json", trace.Json());

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace ampprof::testing {

class KinetoWriter {
 public:
  KinetoWriter(uint32_t pid, uint32_t tid) : pid_(pid), tid_(tid) {}

  // The next launch runs inside this op (once); dims and types are JSON arrays, "" for none. `parent`
  // (optional) encloses the op, as aten::cdist encloses its aten::mm.
  KinetoWriter& Op(std::string_view name, std::string_view dims = "", std::string_view types = "",
                   std::string_view parent = "") {
    op_ = name;
    dims_ = dims;
    types_ = types;
    parent_ = parent;
    return *this;
  }

  // One kernel of `duration_us`, launched through cudaLaunchKernel (inside the op given last, if any).
  KinetoWriter& Launch(std::string_view kernel, int64_t duration_us) {
    const int id = correlation_++;
    if (!parent_.empty()) {
      Add(fmt::format(R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": 30}})",
                      parent_, pid_, tid_, t_ - 2));
    }
    if (!op_.empty()) {
      std::string args = fmt::format(R"("External id": {})", id);
      if (!dims_.empty()) args += fmt::format(R"(, "Input Dims": {})", dims_);
      if (!types_.empty()) args += fmt::format(R"(, "Input type": {})", types_);
      Add(fmt::format(R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": 20, )"
                      R"("args": {{{}}}}})",
                      op_, pid_, tid_, t_, args));
    }
    Add(fmt::format(R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": {}, "tid": {}, )"
                    R"("ts": {}, "dur": 5, "args": {{"External id": {}, "correlation": {}}}}})",
                    pid_, tid_, t_ + 5, id, id));
    Add(fmt::format(R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 0, "tid": 7, "ts": {}, "dur": {}, )"
                    R"("args": {{"External id": {}, "device": 0, "stream": 7, "correlation": {}}}}})",
                    kernel, gpu_, duration_us, id, id));
    gpu_ += duration_us + 1;
    t_ += 40;
    if (gpu_ > t_) t_ = gpu_;
    op_.clear();
    parent_.clear();
    return *this;
  }

  std::string Json() const {
    return fmt::format(R"({{"schemaVersion": 1, "deviceProperties": [{{"id": 0, "name": "NVIDIA A100-SXM4-40GB", )"
                       R"("totalGlobalMem": 42505273344, "computeMajor": 8, "computeMinor": 0, "numSms": 108}}], )"
                       R"("traceEvents": [{}]}})",
                       events_);
  }

 private:
  void Add(const std::string& event) { events_ += (events_.empty() ? "" : ",\n") + event; }

  uint32_t pid_;
  uint32_t tid_;
  std::string events_;
  std::string op_, dims_, types_, parent_;
  int64_t t_ = 1'000'000;
  int64_t gpu_ = 1'000'012;
  int correlation_ = 100;
};

}  // namespace ampprof::testing

#endif  // AMPPROF_TESTS_PIPELINE_KINETO_WRITER_H_
