#ifndef AMPPROF_SRC_BASE_CHECK_H_
#define AMPPROF_SRC_BASE_CHECK_H_

// CHECK macros: for broken invariants, never for bad input (bad input returns a Status or bumps a stat).
// A failed check prints "file:line: CHECK failed: <condition> <message>" to stderr and aborts.
//
//   AMPPROF_CHECK(rows.size() == starts.size());
//   AMPPROF_CHECK_MSG(id.value < size(), "string id out of range");
//   AMPPROF_DCHECK(IsSorted(starts));   // compiled out in NDEBUG builds
//
// They write with fprintf, not the logging facade, so they are safe in the injected collector.

namespace ampprof::base::internal {
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition, const char* message);
}  // namespace ampprof::base::internal

#define AMPPROF_CHECK_MSG(condition, message)                                                    \
  ((condition) ? static_cast<void>(0)                                                            \
               : ::ampprof::base::internal::CheckFailed(__FILE__, __LINE__, #condition, message))

#define AMPPROF_CHECK(condition) AMPPROF_CHECK_MSG(condition, "")

#ifdef NDEBUG
#define AMPPROF_DCHECK(condition) static_cast<void>(0)
#else
#define AMPPROF_DCHECK(condition) AMPPROF_CHECK(condition)
#endif

#endif  // AMPPROF_SRC_BASE_CHECK_H_
