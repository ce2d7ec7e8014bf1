#include "collectors/records/records.h"

namespace ampprof::records {

std::string_view RecordKindName(RecordKind kind) {
  switch (kind) {
    case RecordKind::kDevice: return "device";
    case RecordKind::kProcess: return "process";
    case RecordKind::kThread: return "thread";
    case RecordKind::kKernel: return "kernel";
    case RecordKind::kApiCall: return "api_call";
    case RecordKind::kMemcpy: return "memcpy";
    case RecordKind::kMemset: return "memset";
    case RecordKind::kSync: return "sync";
    case RecordKind::kRange: return "range";
    case RecordKind::kMark: return "mark";
    case RecordKind::kMemory: return "memory";
    case RecordKind::kOverhead: return "overhead";
  }
  return "unknown";
}

std::string_view ApiDomainName(ApiDomain domain) {
  switch (domain) {
    case ApiDomain::kRuntime: return "runtime";
    case ApiDomain::kDriver: return "driver";
    case ApiDomain::kOther: return "other";
  }
  return "unknown";
}

std::string_view MemcpyKindName(MemcpyKind kind) {
  switch (kind) {
    case MemcpyKind::kUnknown: return "unknown";
    case MemcpyKind::kHostToDevice: return "HtoD";
    case MemcpyKind::kDeviceToHost: return "DtoH";
    case MemcpyKind::kDeviceToDevice: return "DtoD";
    case MemcpyKind::kHostToHost: return "HtoH";
    case MemcpyKind::kPeerToPeer: return "PtoP";
  }
  return "unknown";
}

std::string_view SyncKindName(SyncKind kind) {
  switch (kind) {
    case SyncKind::kUnknown: return "unknown";
    case SyncKind::kEventSynchronize: return "event synchronize";
    case SyncKind::kStreamWaitEvent: return "stream wait event";
    case SyncKind::kStreamSynchronize: return "stream synchronize";
    case SyncKind::kContextSynchronize: return "context synchronize";
  }
  return "unknown";
}

}  // namespace ampprof::records
