#ifndef AMPPROF_SRC_BASE_PROGRESS_H_
#define AMPPROF_SRC_BASE_PROGRESS_H_

// Progress of a long job, reported by the code doing it and shown (or not) by whoever started it: the
// pipeline says which trace it is reading and how far through the job it is; the command line draws a
// bar on a terminal (src/cli/progress_bar.h) and passes nullptr otherwise. Implementations must be
// cheap: Update is called a few times per trace, from the thread doing the work.
//
//   void Job(base::Progress* progress) {
//     for (size_t i = 0; i < files.size(); ++i) {
//       if (progress) progress->Update(fmt::format("reading {}", files[i]), i, files.size());
//       ...
//     }
//     if (progress) progress->Done();
//   }

#include <cstddef>
#include <string_view>

namespace ampprof::base {

class Progress {
 public:
  virtual ~Progress() = default;
  // Now doing `task`; `done` of `total` units of the whole job are finished (done <= total).
  virtual void Update(std::string_view task, size_t done, size_t total) = 0;
  // The job is over (finished or failed): whatever was drawn goes away.
  virtual void Done() = 0;
};

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_PROGRESS_H_
