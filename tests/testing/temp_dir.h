#ifndef AMPPROF_TESTS_TESTING_TEMP_DIR_H_
#define AMPPROF_TESTS_TESTING_TEMP_DIR_H_

// A private temporary directory, removed with everything in it when the object goes away.
//
//   TempDir dir;
//   std::string path = dir.File("trace.ampt");

#include <string>
#include <string_view>
#include <vector>

namespace ampprof::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

std::vector<uint8_t> ReadFileBytes(const std::string& path);
void WriteFileBytes(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace ampprof::testing

#endif  // AMPPROF_TESTS_TESTING_TEMP_DIR_H_
