#include "tests/testing/temp_dir.h"

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "src/base/check.h"

namespace ampprof::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "ampprof-test-XXXXXX").string();
  AMPPROF_CHECK_MSG(mkdtemp(pattern.data()) != nullptr, "cannot create a temporary directory");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  AMPPROF_CHECK_MSG(in.good(), path.c_str());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFileBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  AMPPROF_CHECK_MSG(out.good(), path.c_str());
}

}  // namespace ampprof::testing
