#ifndef AMPPROF_COLLECTORS_NSYS_NSYS_IMPORTER_H_
#define AMPPROF_COLLECTORS_NSYS_NSYS_IMPORTER_H_

// Imports an Nsight Systems SQLite export (`nsys export --type sqlite report.nsys-rep`) into records.
//
//   RETURN_IF_ERROR(nsys::ImportNsysSqlite("report.sqlite", builder));
//
// Tables read (each optional: nsys exports tables lazily, and columns differ between versions, so
// every query asks for the columns it needs and those it can use, and gets NULL for the latter when the
// file lacks them):
//   StringIds                              names (kernel, API, NVTX text) by id
//   TARGET_INFO_GPU                        DeviceRecord
//   CUPTI_ACTIVITY_KIND_KERNEL             KernelRecord (demangledName, else shortName)
//   CUPTI_ACTIVITY_KIND_RUNTIME            ApiCallRecord; runtime and driver calls share this table,
//                                          told apart by name; "_v7000" version suffixes dropped
//   CUPTI_ACTIVITY_KIND_MEMCPY / _MEMSET   MemcpyRecord / MemsetRecord
//   CUPTI_ACTIVITY_KIND_SYNCHRONIZATION    SyncRecord
//   NVTX_EVENTS                            ranges (push/pop and start/end), marks, thread names,
//                                          domain names
//   CUDA_GPU_MEMORY_USAGE_EVENTS           MemoryRecord
//   PROFILER_OVERHEAD                      OverheadRecord
//   PROCESSES, ThreadNames                 names of the processes and threads that used CUDA
// globalPid / globalTid are decoded into pid and tid. Timestamps are nsys's nanoseconds, as they are.
//
// Errors: not an SQLite file or a damaged one (SQLite's message), an SQLite database that is not an
// nsys export (no StringIds and no CUDA or NVTX tables), a view where a table is read, a required
// column missing or declared with the wrong type, a statement that stops returning rows
// (sqlite_database.h). Data loss and repairs (stats): rows with values of the wrong type
// (nsys_invalid_rows), string ids StringIds lacks (nsys_missing_strings, named "<string id N
// missing>"), strings over 64 KiB (strings_truncated). StringIds is read lazily (nsys_strings.h).

#include <string>

#include "collectors/records/record_sink.h"
#include "src/base/status.h"

namespace ampprof::nsys {

base::Status ImportNsysSqlite(const std::string& path, records::RecordSink& sink);

}  // namespace ampprof::nsys

#endif  // AMPPROF_COLLECTORS_NSYS_NSYS_IMPORTER_H_
