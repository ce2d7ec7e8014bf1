#ifndef AMPPROF_COLLECTORS_RECORDS_TRACE_FILE_LOCK_H_
#define AMPPROF_COLLECTORS_RECORDS_TRACE_FILE_LOCK_H_

// The lock that tells a trace still being written from a finished one. AmptWriter holds a write lock
// on its whole file from before the file has its name until it closes it; `ampprof run` asks whether
// anyone holds it before it reads a trace, so that a child process still writing when the workload's
// main process ended is waited for instead of being reported half-written.
//
//   // writer                                   // reader, in another process
//   LockTraceForWriting(fd);                     if (std::optional<int64_t> pid = TraceWriterPid(path)) {
//   ... write, close (the lock goes with it)       // still being written by process *pid
//                                                }
//
// A POSIX record lock (fcntl F_SETLK), not flock(2), because of what it is tied to: the process. The
// kernel releases it when the writer closes the file and when its process dies, however it dies (a
// SIGKILL, a crash), and a child forked by the writer (a DataLoader worker) does not inherit it, so a
// child that outlives a crashed writer does not make its trace look open forever. (A flock lock belongs
// to the open file, which a fork shares.) Its one pitfall, that closing any descriptor of the file in
// the writer's process drops it, does not apply: nothing else in that process opens its trace.
//
// The lock is advisory and best effort: on a file system without locks the writer goes on unlocked, and
// its trace reads as finished.

#include <cstdint>
#include <optional>
#include <string>

namespace ampprof::records {

// Takes the write lock on the whole of `fd` (open for writing). False when the file system refused it.
bool LockTraceForWriting(int fd);

// The pid of the process that holds the write lock of the trace at `path`, if any: nullopt when it is
// finished (closed), its writer died, or it cannot be opened. Never call it from the writer's own
// process: a lock's holder does not see its own lock, and closing the file here would release it.
std::optional<int64_t> TraceWriterPid(const std::string& path);

}  // namespace ampprof::records

#endif  // AMPPROF_COLLECTORS_RECORDS_TRACE_FILE_LOCK_H_
