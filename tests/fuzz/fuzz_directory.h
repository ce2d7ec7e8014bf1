#ifndef AMPPROF_TESTS_FUZZ_FUZZ_DIRECTORY_H_
#define AMPPROF_TESTS_FUZZ_FUZZ_DIRECTORY_H_

// A fuzz input as a directory of a few entries, for the directory expansion (src/pipeline/
// trace_inputs.h): files with any name and content, symbolic links to other entries, to themselves
// or to nothing, subdirectories, named pipes, files without read permission.
//
// The input is a sequence of entries, each
//   [kind: 1 byte][name length: 1 byte][name][content length: 3 bytes, big-endian][content]
// read until the data ends (a cut entry is dropped). The kind is taken modulo the number of kinds;
// a symbolic link's content is its target. Names are made safe for one directory level ('/' and NUL
// become '_', "", "." and ".." become "entry-N"); an entry whose name is taken is dropped.
// make_dir_seed.cc writes seeds in this form.

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ampprof::fuzz {

enum class EntryKind : uint8_t {
  kFile,
  kSymbolicLink,  // to the entry (or nothing) its content names
  kLinkToItself,
  kSubdirectory,
  kNamedPipe,
  kUnreadableFile,  // mode 000 (root reads it anyway)
  kCount,
};

struct FuzzEntry {
  EntryKind kind = EntryKind::kFile;
  std::string name;
  std::string content;
};

inline constexpr size_t kMaxFuzzEntries = 8;

inline std::vector<FuzzEntry> DecodeFuzzEntries(const uint8_t* data, size_t size) {
  std::vector<FuzzEntry> entries;
  size_t at = 0;
  while (entries.size() < kMaxFuzzEntries && at + 2 <= size) {
    FuzzEntry entry;
    entry.kind = static_cast<EntryKind>(data[at] % static_cast<uint8_t>(EntryKind::kCount));
    const size_t name_length = data[at + 1];
    at += 2;
    if (at + name_length + 3 > size) break;
    entry.name.assign(reinterpret_cast<const char*>(data + at), name_length);
    at += name_length;
    const size_t content_length =
        (size_t{data[at]} << 16) | (size_t{data[at + 1]} << 8) | data[at + 2];
    at += 3;
    if (at + content_length > size) break;
    entry.content.assign(reinterpret_cast<const char*>(data + at), content_length);
    at += content_length;
    for (char& c : entry.name) {
      if (c == '/' || c == '\0') c = '_';
    }
    if (entry.name.empty() || entry.name == "." || entry.name == "..") {
      entry.name = "entry-" + std::to_string(entries.size());
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

inline std::string EncodeFuzzEntry(const FuzzEntry& entry) {
  std::string bytes;
  bytes.push_back(static_cast<char>(entry.kind));
  bytes.push_back(static_cast<char>(entry.name.size()));
  bytes += entry.name;
  const size_t length = entry.content.size();
  bytes.push_back(static_cast<char>((length >> 16) & 0xff));
  bytes.push_back(static_cast<char>((length >> 8) & 0xff));
  bytes.push_back(static_cast<char>(length & 0xff));
  bytes += entry.content;
  return bytes;
}

// The entries made real in a fresh directory (in /dev/shm, a tmpfs, when there is one), removed
// with everything in it when the object goes away.
class FuzzDirectory {
 public:
  explicit FuzzDirectory(const std::vector<FuzzEntry>& entries) {
    std::string pattern = (std::filesystem::is_directory("/dev/shm")
                               ? "/dev/shm"
                               : std::filesystem::temp_directory_path().string()) +
                          "/ampprof-fuzz-dir-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    path_ = pattern;
    for (const FuzzEntry& entry : entries) Make(entry);
  }
  ~FuzzDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  FuzzDirectory(const FuzzDirectory&) = delete;
  FuzzDirectory& operator=(const FuzzDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  void Make(const FuzzEntry& entry) {
    const std::string path = path_ + "/" + entry.name;
    switch (entry.kind) {
      case EntryKind::kFile:
      case EntryKind::kUnreadableFile: {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) return;  // the name is taken
        for (size_t done = 0; done < entry.content.size();) {
          const ssize_t wrote =
              ::write(fd, entry.content.data() + done, entry.content.size() - done);
          if (wrote <= 0) std::abort();
          done += static_cast<size_t>(wrote);
        }
        ::close(fd);
        if (entry.kind == EntryKind::kUnreadableFile) ::chmod(path.c_str(), 0);
        return;
      }
      case EntryKind::kSymbolicLink:
        (void)::symlink(entry.content.empty() ? "nowhere" : entry.content.c_str(), path.c_str());
        return;
      case EntryKind::kLinkToItself:
        (void)::symlink(entry.name.c_str(), path.c_str());
        return;
      case EntryKind::kSubdirectory:
        (void)::mkdir(path.c_str(), 0755);
        return;
      case EntryKind::kNamedPipe:
        (void)::mkfifo(path.c_str(), 0600);
        return;
      case EntryKind::kCount:
        return;
    }
  }

  std::string path_;
};

}  // namespace ampprof::fuzz

#endif  // AMPPROF_TESTS_FUZZ_FUZZ_DIRECTORY_H_
