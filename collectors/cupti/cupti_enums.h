#ifndef AMPPROF_COLLECTORS_CUPTI_CUPTI_ENUMS_H_
#define AMPPROF_COLLECTORS_CUPTI_CUPTI_ENUMS_H_

// CUPTI 13 enumerations -> records:: enumerations, folded the way the Nsight Systems importer folds
// them (collectors/nsys): array copies count as the host/device direction they move data in, static
// device and managed memory as device and managed memory.
//
// Each function returns nullopt for a value CUPTI 13.0 does not define (a newer CUPTI, or a damaged
// record), so the caller can count it in cupti_unknown_values and store kUnknown. CUPTI's own
// "unknown" values map to kUnknown without being counted: CUPTI said so, the record is not odd.
//
//   records::MemcpyKind kind = MemcpyKindOf(copy.copyKind).value_or(records::MemcpyKind::kUnknown);

#include <cstdint>
#include <optional>
#include <string>

#include "collectors/records/records.h"

namespace ampprof::cupti {

// The arguments are CUpti_ActivityMemcpyKind, CUpti_ActivityMemoryKind,
// CUpti_ActivitySynchronizationType and CUpti_ActivityOverheadKind values.
std::optional<records::MemcpyKind> MemcpyKindOf(uint32_t cupti_copy_kind);
std::optional<records::MemoryKind> MemoryKindOf(uint32_t cupti_memory_kind);
std::optional<records::SyncKind> SyncKindOf(uint32_t cupti_sync_type);
std::optional<records::OverheadKind> OverheadKindOf(uint32_t cupti_overhead_kind);
// CUpti_ActivityMemoryOperationType; nullopt also for CUPTI's INVALID (0): records has no value.
std::optional<records::MemoryOperation> MemoryOperationOf(uint32_t cupti_operation);

// A device UUID as nvidia-smi and NVML print it: "GPU-" and the 16 bytes in hex as 8-4-4-4-12.
std::string FormatGpuUuid(const char (&bytes)[16]);

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_CUPTI_ENUMS_H_
