// Writes a seed for the directory fuzzer (fuzz_directory.h): the given files as entries, then the
// cases a directory of traces meets: a loop of symbolic links, a broken link, a link to the first
// file, a subdirectory, a named pipe, an unreadable copy of the first file.
//   make_dir_seed SEED FILE...

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fuzz/fuzz_directory.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SEED FILE...\n", argv[0]);
    return 1;
  }
  using ampprof::fuzz::EncodeFuzzEntry;
  using ampprof::fuzz::EntryKind;
  std::string seed;
  std::string first_name;
  std::string first_content;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    if (!in) {
      std::fprintf(stderr, "%s: cannot read\n", argv[i]);
      return 1;
    }
    const std::string name = std::filesystem::path(argv[i]).filename().string().substr(0, 255);
    if (content.str().size() >= (size_t{1} << 24)) {
      std::fprintf(stderr, "%s: too large for a seed entry (16 MiB)\n", argv[i]);
      return 1;
    }
    if (first_name.empty()) {
      first_name = name;
      first_content = content.str();
    }
    seed += EncodeFuzzEntry({EntryKind::kFile, name, content.str()});
  }
  seed += EncodeFuzzEntry({EntryKind::kLinkToItself, "loop", ""});
  seed += EncodeFuzzEntry({EntryKind::kSymbolicLink, "broken.ampt", "nowhere.ampt"});
  seed += EncodeFuzzEntry({EntryKind::kSymbolicLink, "link", first_name});
  seed += EncodeFuzzEntry({EntryKind::kSubdirectory, "old", ""});
  seed += EncodeFuzzEntry({EntryKind::kNamedPipe, "live.pipe", ""});
  seed += EncodeFuzzEntry({EntryKind::kUnreadableFile, "locked", first_content});
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << seed;
  return out ? 0 : 1;
}
