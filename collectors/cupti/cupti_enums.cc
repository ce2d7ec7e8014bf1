#include "collectors/cupti/cupti_enums.h"

#include <cupti_activity.h>

namespace ampprof::cupti {

using records::MemcpyKind;
using records::MemoryKind;
using records::OverheadKind;
using records::SyncKind;

std::optional<MemcpyKind> MemcpyKindOf(uint32_t cupti_copy_kind) {
  switch (cupti_copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN: return MemcpyKind::kUnknown;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return MemcpyKind::kHostToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return MemcpyKind::kDeviceToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return MemcpyKind::kDeviceToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return MemcpyKind::kHostToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return MemcpyKind::kPeerToPeer;
    default: return std::nullopt;
  }
}

std::optional<MemoryKind> MemoryKindOf(uint32_t cupti_memory_kind) {
  switch (cupti_memory_kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN: return MemoryKind::kUnknown;
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return MemoryKind::kPageable;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return MemoryKind::kPinned;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return MemoryKind::kDevice;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return MemoryKind::kArray;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return MemoryKind::kManaged;
    default: return std::nullopt;
  }
}

// records::SyncKind follows CUPTI's numbering; spelled out so that a renumbering would show here.
std::optional<SyncKind> SyncKindOf(uint32_t cupti_sync_type) {
  switch (cupti_sync_type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN: return SyncKind::kUnknown;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE: return SyncKind::kEventSynchronize;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT: return SyncKind::kStreamWaitEvent;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
      return SyncKind::kStreamSynchronize;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
      return SyncKind::kContextSynchronize;
    default: return std::nullopt;
  }
}

std::optional<OverheadKind> OverheadKindOf(uint32_t cupti_overhead_kind) {
  switch (cupti_overhead_kind) {
    case CUPTI_ACTIVITY_OVERHEAD_UNKNOWN: return OverheadKind::kUnknown;
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return OverheadKind::kDriverCompiler;
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return OverheadKind::kBufferFlush;
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return OverheadKind::kInstrumentation;
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return OverheadKind::kResource;
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
      return OverheadKind::kModuleLoading;
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return OverheadKind::kLazyFunctionLoading;
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return OverheadKind::kCommandBufferFull;
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
      return OverheadKind::kActivityBufferRequest;
    // A CUPTI 13 kind records::OverheadKind has no value for (yet): unknown, but not counted.
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return OverheadKind::kUnknown;
    default: return std::nullopt;
  }
}

std::optional<records::MemoryOperation> MemoryOperationOf(uint32_t cupti_operation) {
  switch (cupti_operation) {
    case CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION:
      return records::MemoryOperation::kAllocate;
    case CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE: return records::MemoryOperation::kRelease;
    default: return std::nullopt;
  }
}

std::string FormatGpuUuid(const char (&bytes)[16]) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text = "GPU-";
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    const auto byte = static_cast<uint8_t>(bytes[i]);
    text += kHex[byte >> 4];
    text += kHex[byte & 0xF];
  }
  return text;
}

}  // namespace ampprof::cupti
