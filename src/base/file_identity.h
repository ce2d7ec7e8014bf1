#ifndef AMPPROF_SRC_BASE_FILE_IDENTITY_H_
#define AMPPROF_SRC_BASE_FILE_IDENTITY_H_

// Which file a path names as the kernel sees it: device and inode. Paths through symbolic or hard
// links, "." or ".." name the same file exactly when their identities are equal; comparing names
// would miss every one of those.
//
//   struct stat info;
//   if (::stat(path, &info) == 0 && FileIdentity::Of(info) == input_identity) ...

#include <sys/stat.h>

#include <cstdint>

namespace ampprof::base {

struct FileIdentity {
  uint64_t device = 0;
  uint64_t inode = 0;

  static FileIdentity Of(const struct stat& info) {
    return {static_cast<uint64_t>(info.st_dev), static_cast<uint64_t>(info.st_ino)};
  }
  friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
};

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_FILE_IDENTITY_H_
