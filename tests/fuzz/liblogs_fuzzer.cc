// libFuzzer target: the cuBLASLt, cuBLAS and cuDNN API log parsers, on text and through the file reader.
// Any input must give a Status or a LibraryLog, never a crash, a hang or a sanitizer report.

#include <string_view>

#include "collectors/liblogs/log_parser.h"
#include "tests/fuzz/fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ampprof::liblogs::Library;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (Library library : {Library::kCublasLt, Library::kCublas, Library::kCudnn}) {
    const ampprof::liblogs::LibraryLog log = ampprof::liblogs::ParseLibraryLog(library, text);
    for (const auto& call : log.calls) {
      if (!call.convolution) continue;
      static_cast<void>(call.convolution->groups());
      static_cast<void>(call.convolution->x.layout());
    }
  }
  const ampprof::fuzz::FuzzInputFile file(data, size);
  static_cast<void>(ampprof::liblogs::ParseLibraryLogFile(file.path()).ok());
  return 0;
}
