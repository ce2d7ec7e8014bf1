#ifndef AMPPROF_ANALYZERS_FACTS_COMMUNICATION_H_
#define AMPPROF_ANALYZERS_FACTS_COMMUNICATION_H_

// Which collective a communication kernel runs, from its name, so that the step account and
// comm.exposed can speak of "AllReduce" rather than of forty NCCL kernel variants.
//
//   CollectiveOf("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)") == "AllReduce"
//   CollectiveOf("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)")
//       == "SendRecv"
//
// NCCL names its device kernels ncclKernel_<Collective>_<Algorithm>_<Protocol>_<RedOp>_<type> (before
// 2.19) and ncclDevKernel_<Collective>_... since; PyTorch's symmetric-memory all-reduce kernels are
// multimem_* and one_shot/two_shot_all_reduce_*. A name that states no collective is "other
// communication".

#include <string_view>

namespace ampprof::analyzers {

std::string_view CollectiveOf(std::string_view kernel_name);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_COMMUNICATION_H_
