#ifndef AMPPROF_COLLECTORS_LIBLOGS_CUDNN_LOG_H_
#define AMPPROF_COLLECTORS_LIBLOGS_CUDNN_LOG_H_

// cuDNN's API log (CUDNN_LOGLEVEL_DBG=3): one block per API call (api_log_blocks.h).
//
// Legacy convolution calls (cudnnConvolutionForward, ...BackwardData, ...BackwardFilter,
// cudnnConvolutionBiasActivationForward) carry everything in one block: the tensors (dataType, dimA,
// strideA), the filter (dimA, format) and the convolution descriptor (dataType = compute type,
// mathType, groupCount):
//
//   I! CuDNN (v8005) function cudnnConvolutionForward() called:
//   i!     handle: type=cudnnHandle_t; streamId=(nil) (defaultStream);
//   i!     xDesc: type=cudnnTensorDescriptor_t:
//   i!         dataType: type=cudnnDataType_t; val=CUDNN_DATA_HALF (2);
//   i!         dimA: type=int; val=[32,896,1,832];
//   i!         strideA: type=int; val=[745472,832,832,1];
//   i!     convDesc: type=cudnnConvolutionDescriptor_t:
//   i!         mathType: type=cudnnMathType_t; val=CUDNN_TENSOR_OP_MATH (1);
//
// The backend (graph) API, which PyTorch uses through cudnn-frontend, builds descriptors attribute by
// attribute and runs a cached plan with cudnnBackendExecute. Each execute is a call (it launches the
// kernels); the tensor descriptors the log dumps (type, dimA, strideA, uid: hence dtype and layout) are
// collected in LibraryLog::backend_tensors. Which tensors an execute used is not linked yet: that takes
// the operation and plan descriptors' dumps, for which no real log was at hand (docs/library-logs.md).

#include <memory>

#include "collectors/liblogs/library_call.h"
#include "collectors/liblogs/log_parser.h"

namespace ampprof::liblogs {

// The log parser (log_parser.h) for cuDNN API logs.
std::unique_ptr<LogParser> NewCudnnLogParser();

}  // namespace ampprof::liblogs

#endif  // AMPPROF_COLLECTORS_LIBLOGS_CUDNN_LOG_H_
