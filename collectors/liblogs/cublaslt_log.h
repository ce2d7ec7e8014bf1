#ifndef AMPPROF_COLLECTORS_LIBLOGS_CUBLASLT_LOG_H_
#define AMPPROF_COLLECTORS_LIBLOGS_CUBLASLT_LOG_H_

// cuBLASLt's log (CUBLASLT_LOG_LEVEL=2, "Trace": one line per API call that launches kernels). cuBLAS
// routes its GEMMs through cuBLASLt, so this log also covers torch.matmul through cublasGemmEx.
//
//   [2025-09-10 17:32:51][cublasLt][3794797][Trace][cublasLtSSSMatmul] A=0X4003... Adesc=[type=R_32F
//       rows=1000 cols=1000 ld=1000] ... Ddesc=[type=R_32F rows=1000 cols=1000 ld=1000]
//       computeDesc=[computeType=COMPUTE_32F_FAST_TF32 scaleType=R_32F transa=OP_T] ... stream=0X0
//
// The timestamp prefix appears in newer builds only; the number is the process id. Fields are key=value
// or key=[k=v k=v]. m = D's rows, n = D's columns, k = A's columns (its rows when A is transposed);
// transposes absent from computeDesc are OP_N. Lines of other levels (Api, Info, Hints) are known but
// launch nothing; lines that are not cuBLASLt's are counted as unknown.

#include <memory>
#include <string_view>

#include "collectors/liblogs/library_call.h"
#include "collectors/liblogs/log_parser.h"

namespace ampprof::liblogs {

enum class CublasLtLine : uint8_t { kCall, kOtherLevel, kUnknown };

// Parses one line; `call` is filled for kCall (line number left to the caller).
CublasLtLine ParseCublasLtLine(std::string_view line, LibraryCall& call);

// The log parser (log_parser.h) for cuBLASLt logs.
std::unique_ptr<LogParser> NewCublasLtLogParser();

}  // namespace ampprof::liblogs

#endif  // AMPPROF_COLLECTORS_LIBLOGS_CUBLASLT_LOG_H_
