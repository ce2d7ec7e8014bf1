#ifndef AMPPROF_COLLECTORS_CUPTI_PROCESS_IDENTITY_H_
#define AMPPROF_COLLECTORS_CUPTI_PROCESS_IDENTITY_H_

// ProcessIdentity: who the traced process is within its job, and the name of its trace file.
//
// Every process of a run that initialises CUDA loads the collector and writes its own file, so the
// name must be unique per process and sort the ranks of a distributed job in rank order:
//
//   rank 3 of torchrun, pid 4242   ->  ampprof-rank3-pid4242.ampt
//   not distributed, pid 4242      ->  ampprof-pid4242.ampt
//
// The rank comes from the variables launchers set: RANK / LOCAL_RANK / WORLD_SIZE (torchrun,
// torch.distributed.launch, mp.spawn users by convention), else Open MPI's OMPI_COMM_WORLD_*, else
// Slurm's SLURM_PROCID / SLURM_LOCALID / SLURM_NTASKS. A value that is not a non-negative integer is
// ignored, as if unset: a wrong rank in a file name is worse than none.

#include <cstdint>
#include <string>
#include <string_view>

#include "collectors/cupti/collector_config.h"

namespace ampprof::cupti {

struct ProcessIdentity {
  uint32_t pid = 0;
  int32_t rank = -1;  // -1: not distributed, or the launcher did not say
  int32_t local_rank = -1;
  int32_t world_size = 0;  // 0: unknown
  std::string command;     // the command line, arguments separated by spaces
  std::string hostname;
};

ProcessIdentity ReadProcessIdentity(uint32_t pid, const EnvironmentLookup& environment);

// /proc/<pid>/cmdline's NUL-separated arguments, joined with spaces (trailing NUL dropped).
std::string CommandLineFromProcCmdline(std::string_view cmdline);

// "ampprof-rank3-pid4242.ampt" or "ampprof-pid4242.ampt".
std::string TraceFileName(const ProcessIdentity& identity);

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_PROCESS_IDENTITY_H_
