#!/usr/bin/env python3
"""Writes a synthetic PyTorch profiler (Kineto) trace of a given size, shaped like the real ones in
../shared/fixtures (linear_kineto.json.gz, the HTA traces): per training op a cpu_op with input shapes,
a cudaLaunchKernel with its ac2g flow pair, the kernel with its launch arguments, now and then a memset
or a device-to-host copy, and a ProfilerStep annotation per step. Deterministic.

    bench/make_kineto_trace.py --size-mb 1024 -o /tmp/ampprof-bench/kineto-1g.json
"""
import argparse
import json
import random

KERNELS = [
    ("volta_sgemm_128x64_nn", [8, 16, 2], [128, 1, 1], 122, 12544, 40.0),
    ("volta_sgemm_64x64_tn", [16, 8, 2], [64, 1, 1], 126, 8704, 25.0),
    ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
     [160, 1, 1], [128, 1, 1], 24, 0, 3.0),
    ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
     "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
     [1, 1, 1], [64, 1, 1], 16, 0, 1.5),
    ("void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::func_wrapper_t<"
     "float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::"
     "{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
     "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()("
     "at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
     [64, 1, 1], [128, 1, 1], 32, 16, 6.0),
]
OPS = ["aten::addmm", "aten::mm", "aten::add_", "aten::fill_", "aten::sum",
       "autograd::engine::evaluate_function: AddmmBackward0"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size-mb", type=float, default=1024)
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    limit = int(args.size_mb * 1024 * 1024)
    pid, tid = 24248, 24248
    with open(args.output, "w") as out:
        header = {
            "schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "NVIDIA GeForce RTX 2080 Ti", "totalGlobalMem": 11554586624,
                                  "computeMajor": 7, "computeMinor": 5, "numSms": 68}],
            "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1},
        }
        text = json.dumps(header)[:-1] + ', "traceEvents": [\n'
        out.write(text)
        written = len(text)
        ts = 1689180448554878.0
        gpu = ts
        correlation = 1000
        step = 0
        first = True
        while written < limit:
            events = []
            step_start = ts
            for op_index in range(60):
                op = OPS[op_index % len(OPS)]
                kernel = KERNELS[op_index % len(KERNELS)]
                correlation += 1
                op_start = ts
                ts += rng.uniform(3, 12)
                launch = ts
                ts += rng.uniform(4, 9)
                gpu = max(gpu + rng.uniform(1, 3), launch + rng.uniform(3, 6))
                duration = kernel[5] * rng.uniform(0.8, 1.3)
                events.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": pid, "tid": tid,
                               "ts": round(op_start, 3), "dur": round(ts - op_start + 2, 3),
                               "args": {"External id": correlation, "Ev Idx": correlation,
                                        "Input Dims": [[20, 128], [128, 128], [128]],
                                        "Input type": ["float", "float", "float"]}})
                events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": pid,
                               "tid": tid, "ts": round(launch, 3), "dur": round(ts - launch, 3),
                               "args": {"External id": correlation, "cbid": 211, "correlation": correlation}})
                events.append({"ph": "s", "id": correlation, "pid": pid, "tid": tid, "ts": round(launch, 3),
                               "cat": "ac2g", "name": "ac2g"})
                events.append({"ph": "f", "id": correlation, "pid": 0, "tid": 7, "ts": round(gpu, 3),
                               "cat": "ac2g", "name": "ac2g", "bp": "e"})
                events.append({"ph": "X", "cat": "kernel", "name": kernel[0], "pid": 0, "tid": 7,
                               "ts": round(gpu, 3), "dur": round(duration, 3),
                               "args": {"External id": correlation, "queued": 0, "device": 0, "context": 1,
                                        "stream": 7, "correlation": correlation,
                                        "registers per thread": kernel[3], "shared memory": kernel[4],
                                        "blocks per SM": 3.764706, "warps per SM": 7.529412,
                                        "grid": kernel[1], "block": kernel[2],
                                        "est. achieved occupancy %": 24}})
                gpu += duration
                ts += 2
            correlation += 1
            events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "pid": pid, "tid": tid,
                           "ts": round(ts, 3), "dur": 3.1, "args": {"cbid": 51, "correlation": correlation}})
            events.append({"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7,
                           "ts": round(max(gpu, ts + 4), 3), "dur": 1.0,
                           "args": {"device": 0, "context": 1, "stream": 7, "correlation": correlation,
                                    "bytes": 512, "memory bandwidth (GB/s)": 0.296}})
            events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}", "pid": pid,
                           "tid": tid, "ts": round(step_start, 3), "dur": round(ts - step_start + 10, 3),
                           "args": {"External id": correlation}})
            ts += rng.uniform(20, 60)
            step += 1
            chunk = ",\n".join(json.dumps(event) for event in events)
            if not first:
                chunk = ",\n" + chunk
            first = False
            out.write(chunk)
            written += len(chunk)
        out.write('\n], "traceName": "synthetic"}\n')


if __name__ == "__main__":
    main()
