#ifndef AMPPROF_SRC_BASE_REMOVAL_ON_SIGNAL_H_
#define AMPPROF_SRC_BASE_REMOVAL_ON_SIGNAL_H_

// Temporary files that must not outlive ampprof when a signal stops it: a report being written
// beside its target, the copy of a trace read from standard input (which can be gigabytes in /tmp).
//
//   RemovalOnSignal removal(temporary_path);   // a Ctrl-C from here on removes the file
//   ...                                         // removal's destructor: the file is the caller's
//   again
//
// The first registration installs a handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT, each only
// where the signal still has its default action (a signal the parent ignores, e.g. SIGHUP under
// nohup, stays ignored; a handler someone else installed stays). The handler unlinks the registered
// files and re-raises the signal with its default action, so ampprof still dies of it with the
// usual status. At most kMaxFiles files are registered at once; beyond that a file is simply not
// protected.

#include <string>

namespace ampprof::base {

class RemovalOnSignal {
 public:
  static constexpr int kMaxFiles = 8;

  explicit RemovalOnSignal(const std::string& path);
  ~RemovalOnSignal();
  RemovalOnSignal(const RemovalOnSignal&) = delete;
  RemovalOnSignal& operator=(const RemovalOnSignal&) = delete;

 private:
  int slot_ = -1;  // -1: not registered (no free slot, or a path too long)
};

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_REMOVAL_ON_SIGNAL_H_
