#ifndef AMPPROF_COLLECTORS_LIBLOGS_CUBLAS_LOG_H_
#define AMPPROF_COLLECTORS_LIBLOGS_CUBLAS_LOG_H_

// cuBLAS's API log (CUBLAS_LOGINFO_DBG=1): one block per API call (api_log_blocks.h). The GEMM calls
// (cublasGemmEx, cublas<S|D|H>gemm, their batched and strided variants) become calls with their facts:
//
//   I! cuBLAS (v11.0) function cublasStatus_t cublasGemmEx(cublasHandle_t, ...) called:
//   i!  transa: type=cublasOperation_t; val=CUBLAS_OP_N(0)
//   i!  m: type=int; val=2
//   i!  Atype: type=cudaDataType_t; val=CUDA_R_32F(0)
//   i!  computeType: type=cublasComputeType_t; val=CUBLAS_COMPUTE_32F(68)
//
// The typed GEMMs (cublasSgemm_v2) log no Atype: their letter says it (S fp32, D fp64, H fp16). Other
// calls (handles, streams, math mode) launch no kernels and are skipped; so are warning and error blocks.

#include <memory>

#include "collectors/liblogs/library_call.h"
#include "collectors/liblogs/log_parser.h"

namespace ampprof::liblogs {

// The log parser (log_parser.h) for cuBLAS API logs.
std::unique_ptr<LogParser> NewCublasLogParser();

}  // namespace ampprof::liblogs

#endif  // AMPPROF_COLLECTORS_LIBLOGS_CUBLAS_LOG_H_
