#ifndef AMPPROF_COLLECTORS_CUPTI_RECORD_CONVERSION_H_
#define AMPPROF_COLLECTORS_CUPTI_RECORD_CONVERSION_H_

// CUPTI 13 activity records -> ampprof records: one function per record kind, and ConvertRecord,
// which picks the function by the record's kind. The only place CUPTI's record structs are read.
//
//   ConversionContext context(getpid());
//   CUpti_Activity* record = nullptr;
//   while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
//     ConvertRecord(record, context, sink);
//   }
//
// Struct versions: those of the CUPTI 13.0 headers (CUPTI_API_VERSION 130001), which are the
// versions CUPTI 13.x fills. A newer libcupti.so.13 loaded at run time may fill a newer version
// (CUDA 13.1 has CUpti_ActivityKernel11); it appends fields, so reading through these structs
// stays correct, as long as records are stepped over with cuptiActivityGetNextRecord, never sizeof.
//
//   kind (CUPTI_ACTIVITY_KIND_)  struct (CUpti_Activity...)  becomes
//   CONCURRENT_KERNEL, KERNEL    Kernel10                    KernelRecord (name demangled)
//   RUNTIME, DRIVER              API                         ApiCallRecord (api_callbacks.h names)
//   MEMCPY                       Memcpy6                     MemcpyRecord
//   MEMCPY2                      MemcpyPtoP4                 MemcpyRecord (with peer_device_id)
//   MEMSET                       Memset4                     MemsetRecord
//   SYNCHRONIZATION              Synchronization2            SyncRecord (device from the context)
//   MEMORY2                      Memory4                     MemoryRecord (an alloc or a free)
//   MARKER                       Marker2                     MarkRecord (instant, range start, end)
//   NAME                         Name                        ThreadRecord (thread names)
//   DEVICE                       Device5                     DeviceRecord
//   CONTEXT                      Context3                    nothing: its device is remembered
//   OVERHEAD                     Overhead3                   OverheadRecord
//   MARKER_DATA                  MarkerData2                 nothing yet: cupti_unstored_records
//   EXTERNAL_CORRELATION         ExternalCorrelation         nothing yet: cupti_unstored_records
//   anything else                                            nothing: cupti_unknown_record_kinds
// Fields the records have no place for (kernel channel, cluster shape, launch type; NVTX payloads
// and colours; external correlation ids; names of streams and devices) are not kept: records:: is
// the contract, and widening it is a format change of its own.
//
// Timestamps are CUPTI's uint64 nanoseconds, on CUPTI's one clock (CLOCK_REALTIME unless the
// injection registers its own with cuptiActivityRegisterTimestampCallback); they become int64 ns
// unchanged, with these checks, each counted in the sink's stats:
//   - a kernel without timestamps (start or end 0, flushed before it finished) is kept with start
//     == end == 0, which the model counts in kernel_missing_timestamps and leaves out of time;
//   - any other record without timestamps is dropped (cupti_missing_timestamps);
//   - a timestamp outside [0, 2^62) ns is damage: the record is dropped (record_time_out_of_range);
//   - an end before its start is set to the start (record_negative_duration).
// The model repeats the last two checks for every source; records fixed here arrive clean, so
// nothing is counted twice.
//
// Nothing here throws except std::bad_alloc; nothing is thread-safe (the writer thread converts).
// ConvertRecord frees CUpti_ActivityOverhead3::overheadData, which CUPTI leaves to the client.

#include <cupti_activity.h>

#include "collectors/cupti/conversion_context.h"
#include "collectors/records/record_sink.h"

namespace ampprof::cupti {

void ConvertRecord(const CUpti_Activity* record, ConversionContext& context,
                   records::RecordSink& sink);

void ConvertKernel(const CUpti_ActivityKernel10& kernel, ConversionContext& context,
                   records::RecordSink& sink);
void ConvertApiCall(const CUpti_ActivityAPI& call, ConversionContext& context,
                    records::RecordSink& sink);
void ConvertMemcpy(const CUpti_ActivityMemcpy6& copy, ConversionContext& context,
                   records::RecordSink& sink);
void ConvertPeerMemcpy(const CUpti_ActivityMemcpyPtoP4& copy, ConversionContext& context,
                       records::RecordSink& sink);
void ConvertMemset(const CUpti_ActivityMemset4& memset, ConversionContext& context,
                   records::RecordSink& sink);
void ConvertSynchronization(const CUpti_ActivitySynchronization2& sync, ConversionContext& context,
                            records::RecordSink& sink);
void ConvertMemory(const CUpti_ActivityMemory4& memory, ConversionContext& context,
                   records::RecordSink& sink);
void ConvertMarker(const CUpti_ActivityMarker2& marker, ConversionContext& context,
                   records::RecordSink& sink);
void ConvertMarkerData(const CUpti_ActivityMarkerData2& data, ConversionContext& context,
                       records::RecordSink& sink);
void ConvertName(const CUpti_ActivityName& name, ConversionContext& context,
                 records::RecordSink& sink);
void ConvertDevice(const CUpti_ActivityDevice5& device, ConversionContext& context,
                   records::RecordSink& sink);
void ConvertContext(const CUpti_ActivityContext3& cuda_context, ConversionContext& context,
                    records::RecordSink& sink);
void ConvertOverhead(const CUpti_ActivityOverhead3& overhead, ConversionContext& context,
                     records::RecordSink& sink);
void ConvertExternalCorrelation(const CUpti_ActivityExternalCorrelation& correlation,
                                ConversionContext& context, records::RecordSink& sink);

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_RECORD_CONVERSION_H_
