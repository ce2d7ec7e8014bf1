#include "analyzers/finding_catalog.h"

namespace ampprof::analyzers {
namespace {

// One entry per finding id, in the order of ARCHITECTURE.md's "Findings" table. `ampprof explain`
// prints the fields as they are: `meaning`, `detection`, `evidence` and `seen_in` are single
// paragraphs that the terminal wraps; `fix` is preformatted, one "\n" per line, with code indented
// by four spaces so it can be pasted as is. Plain ASCII only.
//
// Default severities follow one rule: kCritical when the problem typically costs most of the step
// or decides the outcome of AMP (launch-bound steps, no Tensor Cores, the slower-than-FP32
// verdict) or is a correctness bug (a second optimizer step); kInfo when the cost is inherent to
// autocast and usually small (casts); kWarning for the rest. Analyzers raise or lower the
// severity of a finding with its evidence.
//
// Detection texts describe the method and name thresholds only qualitatively: the numbers live in
// the analyzers, next to the code that applies them.
constexpr FindingInfo kCatalog[] = {
    {
        .id = "gpu.launch_bound",
        .title = "GPU idles between kernels: the host cannot launch work fast enough",
        .default_severity = Severity::kCritical,
        .meaning =
            "Every CUDA kernel is launched from the CPU: Python, the PyTorch dispatcher and the "
            "CUDA launch call together cost microseconds of host time per kernel (typically 5-20 "
            "us per launch). When the kernels themselves are shorter than that (small batch, "
            "narrow layers, many elementwise ops), the GPU finishes each kernel and waits for the "
            "next one, so the step time is set by the host, not by the GPU. Mixed precision makes "
            "the kernels shorter still and adds kernels of its own (casts, GradScaler), so a "
            "launch-bound run gets no faster with AMP and is often slower.",
        .detection =
            "ampprof walks the GPU timeline of each step and measures the gaps between "
            "consecutive kernels on a device. Each kernel is matched to its launch call "
            "(cudaLaunchKernel, cuLaunchKernel, cuLaunchKernelEx) through the correlation id; a "
            "gap is charged to the host when the next kernel's launch call ended only after the "
            "previous kernel had finished (the GPU had nothing queued) and no synchronisation or "
            "memcpy explains the gap. The finding fires when such host-wait gaps are a large "
            "share of the step and the median kernel is about as short as, or shorter than, the "
            "median launch call.",
        .evidence =
            "GPU busy fraction per step; idle time per step split by cause (waiting for launches, "
            "synchronisation, memcpy, other); median kernel duration vs median launch-call "
            "duration; kernels launched per step; the steps or NVTX ranges with the most idle "
            "time.",
        .fix = "Give the GPU more work per launch, or launch fewer kernels from Python.\n"
               "1. Raise the batch size (or the model width) until the GPU is saturated; retune\n"
               "   the learning rate.\n"
               "2. Let torch.compile fuse small ops and replay them with CUDA Graphs (or capture\n"
               "   the step yourself with torch.cuda.graph(), which needs static shapes and\n"
               "   static input buffers):\n"
               "    model = torch.compile(model, mode=\"reduce-overhead\")\n"
               "3. Use a fused optimizer, one kernel for all parameters instead of several per\n"
               "   parameter:\n"
               "    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)\n"
               "4. Remove per-step host syncs (loss.item(), print(tensor)); see gpu.sync_stall.",
        .seen_in =
            "Forum thread 'Run slower when using autocast with small batch size': 50 x "
            "Linear(512) and then 5 x Linear(128) with batch 20 trained slower with autocast on "
            "A30, 3090, 2080 Ti and 2060 Super. The maintainer's profile showed 'huge white "
            "spaces between the actual kernel runtimes' (CPU-limited), and the advice was a "
            "larger model or batch, or CUDA Graphs. PyTorch AMP recipe, Troubleshooting: 'Your "
            "network may fail to saturate the GPU(s) with work, and is therefore CPU bound'; 'Try "
            "to avoid sequences of many small CUDA ops'.",
    },
    {
        .id = "gpu.sync_stall",
        .title = "Host synchronisations drain the GPU queue during the step",
        .default_severity = Severity::kWarning,
        .meaning =
            "Calls such as tensor.item(), float(loss), print(cuda_tensor), tensor.cpu(), "
            "tensor.tolist(), torch.cuda.synchronize() or a copy into pageable host memory block "
            "the Python thread until the GPU has finished everything queued before them. While "
            "the host waits it queues nothing new, so when the call returns the GPU sits idle "
            "until the next kernels are launched. One sync per step costs little on a busy GPU; "
            "several per step, or one in a small model, expose the whole launch latency of the "
            "step.",
        .detection =
            "ampprof reads the synchronisation records (stream, context and event synchronise) "
            "and the runtime calls cudaStreamSynchronize, cudaDeviceSynchronize, "
            "cudaEventSynchronize and synchronous cudaMemcpy, together with the device-to-host "
            "memcpy records next to them. For each one it measures how long the host was blocked "
            "and how long the GPU then stayed idle until its next kernel. The finding fires when "
            "that stall time is a noticeable share of the step. The single small found_inf copy "
            "and sync of GradScaler is reported under amp.scaler_overhead.",
        .evidence =
            "Syncs per step by kind (stream, device, event, synchronous memcpy); host time "
            "blocked per step; GPU idle time per step after syncs; device-to-host copies per step "
            "with their sizes; the NVTX op or step of the costliest syncs where known.",
        .fix = "Keep values on the GPU and read them rarely, e.g. accumulate the loss and print\n"
               "it every N steps:\n"
               "    running_loss = torch.zeros((), device=\"cuda\")\n"
               "    for step, (x, y) in enumerate(loader):\n"
               "        ...\n"
               "        running_loss += loss.detach()\n"
               "        if step % 100 == 99:\n"
               "            print(running_loss.item() / 100)\n"
               "            running_loss.zero_()\n"
               "Remove torch.cuda.synchronize() from the training loop; keep it only around\n"
               "timing code.\n"
               "Copy to the host without blocking, and read the copy only after a later sync\n"
               "point:\n"
               "    loss_cpu = loss.detach().to(\"cpu\", non_blocking=True)\n"
               "Find hidden syncs (nonzero(), boolean-mask indexing, .item()) by making PyTorch\n"
               "warn on each one:\n"
               "    torch.cuda.set_sync_debug_mode(\"warn\")",
        .seen_in =
            "Tesla T4 CNN comparison: the MNIST training loop calls running_loss += loss.item() "
            "every iteration, and AMP brought no speed-up there (107.2 s FP32 vs 104.9 s AMP at "
            "batch 512). PyTorch AMP recipe, Troubleshooting: 'Try to avoid excessive CPU-GPU "
            "synchronization (.item() calls, or printing values from CUDA tensors)'.",
    },
    {
        .id = "layout.nchw_nhwc",
        .title = "Convolutions spend time converting tensors between NCHW and NHWC layouts",
        .default_severity = Severity::kWarning,
        .meaning =
            "cuDNN's Tensor-Core convolution kernels work on channels-last (NHWC) data, while "
            "PyTorch tensors are NCHW by default. Under autocast cuDNN therefore wraps each "
            "FP16/BF16 convolution in transpose kernels: the input and the weight are permuted to "
            "NHWC before the convolution and the output is permuted back after it, in forward and "
            "backward. These kernels are memory-bound and can cost more than the Tensor-Core "
            "speed-up, which is how a single FP16 convolution ends up slower than the FP32 one.",
        .detection =
            "ampprof matches cuDNN's layout-conversion kernels by name in every namespace cuDNN "
            "has used: nchwToNhwcKernel and nhwcToNchwKernel under cudnn::ops (cuDNN 8), "
            "cudnn::engines_precompiled, cudnn::engines_runtime_compiled and cudnn::fusion (cuDNN "
            "9), plus nchwToNhwc3To4Kernel (first RGB conv) and the folded variants "
            "(foldedNhwcToNchwKernel, nchwToFoldedNhwcKernel, nhwcToFoldedNhwcKernel). It sums "
            "their GPU time per step and relates it to the convolution kernels around them; the "
            "finding fires when the conversions are a significant share of GPU or convolution "
            "time. Different source and destination types in the template arguments (e.g. <float, "
            "__half, ...>) mark a cast fused into the transpose.",
        .evidence =
            "Conversion kernels per step; their GPU time per step and share of GPU time; their "
            "time relative to the convolution kernels; the top conversion kernels by time; the "
            "NVTX op (e.g. aten::cudnn_convolution) they run under where known.",
        .fix = "Convert the model and its inputs to channels_last once, before training:\n"
               "    model = model.to(memory_format=torch.channels_last)\n"
               "    for x, y in loader:\n"
               "        x = x.cuda(non_blocking=True).to(memory_format=torch.channels_last)\n"
               "        with torch.autocast(\"cuda\", dtype=torch.float16):\n"
               "            loss = loss_fn(model(x), y.cuda(non_blocking=True))\n"
               "Let cuDNN pick the fastest NHWC kernels for your shapes:\n"
               "    torch.backends.cudnn.benchmark = True\n"
               "Ops without channels_last support convert back silently; check a tensor with\n"
               "    x.is_contiguous(memory_format=torch.channels_last)",
        .seen_in =
            "Forum thread '2x faster training than default precision when model is just 3 linear "
            "layer, but when the model is just 1 conv layer, mixed precision training is slower "
            "than default precision' (one Conv2d(3, 64, kernel_size=3, stride=2) on a V100): the "
            "maintainer reproduced the FP16 slowdown with the default memory format (1.49 ms vs "
            "1.22 ms per iteration in FP32), traced it to the internal permutations "
            "cudnn::ops::nchwToNhwcKernel and nhwcToNchwKernel, and got 0.84 ms per iteration "
            "after moving the conv and its input to torch.channels_last.",
    },
    {
        .id = "tensor_cores.fp32_math",
        .title = "Matmuls or convolutions still run on FP32 CUDA cores in the mixed-precision run",
        .default_severity = Severity::kWarning,
        .meaning =
            "Autocast lowers the precision only of the ops it covers and only inside its region. "
            "GEMMs and convolutions outside the autocast region, inputs cast back with .float(), "
            "regions with autocast(enabled=False), and custom ops or autograd Functions that "
            "autocast does not know run as FP32 SIMT (FFMA) kernels on CUDA cores, with a "
            "fraction of Tensor-Core throughput. On Ampere and newer, FP32 convolutions use TF32 "
            "Tensor Cores by default (torch.backends.cudnn.allow_tf32 is True) but FP32 matmuls "
            "do not (torch.backends.cuda.matmul.allow_tf32 defaults to False), so an FP32 trace "
            "shows tf32 convolution kernels next to ffma GEMM kernels.",
        .detection =
            "ampprof classifies every GEMM and convolution kernel by its name. SIMT: ffma, "
            "_simt_, sgemm without tensorop, scudnn, implicit_convolve_sgemm, hgemm without an "
            "MMA shape. Tensor Core: tensorop, wmma, MMA shapes such as 884, 1688 and 16816, "
            "gmma/hgmma (Hopper), tensor16x8x16-style tiles, tf32, nvjet, cutlass3x_sm90 "
            "tensorop, flash/fmha attention kernels. The dtype comes from tokens such as f16, "
            "bf16, tf32 and e4m3. Where cuBLASLt (CUBLASLT_LOG_LEVEL=2) or cuDNN "
            "(CUDNN_LOGLEVEL_DBG=3) logs were captured, their operand types and compute type "
            "(e.g. COMPUTE_32F vs COMPUTE_32F_FAST_TF32) confirm the class. The finding fires "
            "when FP32 SIMT kernels hold a large share of GEMM/convolution time in a "
            "mixed-precision run; kernels that match neither class count as unknown, not as SIMT.",
        .evidence =
            "GEMM and convolution GPU time per step split by class (Tensor Core FP16/BF16, TF32, "
            "FP32 SIMT, unknown); the top FP32 kernels with time and launch counts; the NVTX op "
            "(aten::mm, aten::addmm, aten::convolution, ...) and shapes where known; operand and "
            "compute types from library logs.",
        .fix = "Run the whole forward pass, loss included, under autocast; backward follows the\n"
               "forward's dtypes:\n"
               "    with torch.autocast(\"cuda\", dtype=torch.bfloat16):  # or torch.float16\n"
               "        out = model(x)\n"
               "        loss = loss_fn(out, y)\n"
               "    loss.backward()\n"
               "Look for .float() casts and autocast(enabled=False) regions around matmuls. Make\n"
               "custom autograd functions autocast-aware:\n"
               "    class MyMatmul(torch.autograd.Function):\n"
               "        @staticmethod\n"
               "        @torch.amp.custom_fwd(device_type=\"cuda\", cast_inputs=torch.float16)\n"
               "        def forward(ctx, x, w): ...\n"
               "        @staticmethod\n"
               "        @torch.amp.custom_bwd(device_type=\"cuda\")\n"
               "        def backward(ctx, grad): ...\n"
               "For work that has to stay FP32, allow TF32 Tensor Cores (Ampere and newer; for\n"
               "matmuls, torch.set_float32_matmul_precision(\"high\") does the same):\n"
               "    torch.backends.cuda.matmul.allow_tf32 = True\n"
               "    torch.backends.cudnn.allow_tf32 = True",
        .seen_in =
            "PyTorch AMP recipe: 'Some ops, like linear layers and convolutions, are much faster "
            "in float16 or bfloat16', and the forward pass and loss run under autocast while "
            "backward runs outside it. Tesla T4 CNN comparison: AMP was taken to mean 'using "
            "Tensor Cores', yet the MNIST CNN trained no faster; whether the convolutions really "
            "ran on Tensor Cores is what this finding checks. PyTorch CUDA notes on TF32: matmul "
            "TF32 off by default since PyTorch 1.12, cuDNN TF32 on.",
    },
    {
        .id = "tensor_cores.misaligned",
        .title = "Tensor-Core GEMMs run slow unaligned variants: dimensions not multiples of eight",
        .default_severity = Severity::kWarning,
        .meaning =
            "Tensor-Core GEMM kernels are fastest when every participating dimension and leading "
            "dimension is a multiple of 8 FP16/BF16 elements, so operands can be loaded in "
            "16-byte vectors. Otherwise cuBLAS has to pick variants that load 1 or 2 elements at "
            "a time (align1/align2 in the kernel name) or, on older libraries, a kernel without "
            "Tensor Cores, which is much slower for the same work. Convolutions have had no such "
            "size constraint since cuDNN 7.3, so this mostly concerns Linear layers, embeddings, "
            "output heads over odd vocabulary sizes and attention projections.",
        .detection =
            "ampprof looks for Tensor-Core kernels whose names carry low alignment tags (align1, "
            "align2) and, where cuBLASLt logs or NVTX op shapes give the GEMM dimensions (m, n, k "
            "and leading dimensions), checks whether they are multiples of 8. It reports the "
            "share of Tensor-Core GEMM time spent in unaligned variants and names the offending "
            "shapes. The alignment tag is a CUTLASS naming convention, so a finding based on "
            "kernel names alone carries a lower confidence than one confirmed by dimensions.",
        .evidence =
            "GPU time per step in unaligned Tensor-Core kernels and its share of GEMM time; the "
            "top unaligned kernels; the GEMM dimensions (m, n, k, leading dimensions) that are "
            "not multiples of 8, with the NVTX op (aten::mm, aten::addmm, aten::linear) that "
            "launched them where known.",
        .fix = "Pad the dimensions that feed matmuls to multiples of 8:\n"
               "    def round_up(n, multiple=8):\n"
               "        return (n + multiple - 1) // multiple * multiple\n"
               "    vocab = round_up(vocab_size)  # extra rows are never used as targets\n"
               "    model.embed = torch.nn.Embedding(vocab, 768)\n"
               "    model.head = torch.nn.Linear(768, vocab)\n"
               "Pick batch sizes, hidden sizes and sequence lengths that are multiples of 8\n"
               "(512, not 513), or pad the sequence dimension of inputs (and mask the padded\n"
               "positions):\n"
               "    x = torch.nn.functional.pad(x, (0, round_up(x.shape[-1]) - x.shape[-1]))",
        .seen_in =
            "PyTorch AMP recipe: sizes are chosen 'such that linear layers' participating "
            "dimensions are multiples of 8, to permit Tensor Core usage on Tensor Core-capable "
            "GPUs' (batch_size 512, with the exercise 'Try, for example, 128, 256, 513'), and "
            "Troubleshooting: 'The matmul dimensions are not Tensor Core-friendly. Make sure "
            "matmuls participating sizes are multiples of 8', noting that convolutions have had "
            "no such constraint since cuDNN 7.3.",
    },
    {
        .id = "tensor_cores.unavailable",
        .title = "The GPU has no Tensor Cores: mixed precision saves memory, not time",
        .default_severity = Severity::kCritical,
        .meaning =
            "Tensor Cores arrived with Volta (compute capability 7.0). On older GPUs (Kepler, "
            "Maxwell, Pascal, e.g. the GTX 1080 Ti) FP16 matmuls and convolutions run on ordinary "
            "CUDA cores, so autocast cannot give the 2-3x speed-up it gives on Volta, Turing, "
            "Ampere and newer; at best it is modest. AMP still cuts activation memory, which "
            "allows larger batches. The cast and GradScaler work is pure overhead, and on "
            "consumer Pascal cards, whose FP16 arithmetic is much slower than their FP32, the AMP "
            "run can be slower than FP32. BF16 autocast needs Ampere (8.0) or newer to be fast.",
        .detection =
            "ampprof reads the device records in the trace (name and compute capability) and "
            "flags each device that ran the workload's kernels with a compute capability below "
            "7.0. This is a property of the hardware, so it needs no kernel-level evidence; it "
            "tells the reader that no change to the code will give the AMP run a Tensor-Core "
            "speed-up on that device.",
        .evidence =
            "Device name and compute capability; the share of step time in FP16/BF16 kernels; "
            "with an FP32 baseline, the AMP and FP32 step times side by side.",
        .fix = "Train in FP32 on this GPU, keep AMP only for its memory saving, or move to a GPU\n"
               "with Tensor Cores (Volta or newer). Enable AMP by capability so one script does\n"
               "the right thing everywhere:\n"
               "    use_amp = torch.cuda.get_device_capability() >= (7, 0)\n"
               "    scaler = torch.amp.GradScaler(\"cuda\", enabled=use_amp)\n"
               "    with torch.autocast(\"cuda\", dtype=torch.float16, enabled=use_amp):\n"
               "        loss = loss_fn(model(x), y)\n"
               "    scaler.scale(loss).backward()\n"
               "    scaler.step(optimizer)\n"
               "    scaler.update()\n"
               "For CNNs, letting cuDNN autotune can still recover some speed:\n"
               "    torch.backends.cudnn.benchmark = True",
        .seen_in =
            "Forum thread 'The performance gap between torch.cuda.amp and nvidia-apex': on GPUs "
            "with Tensor Cores native AMP was much faster, but on a GTX 1080 Ti (no Tensor Cores) "
            "it was about 2x slower than apex O1, and torch.backends.cudnn.benchmark = True "
            "helped only a bit. PyTorch AMP recipe: mixed precision 'primarily benefits Tensor "
            "Core-enabled architectures (Volta, Turing, Ampere)'; on Kepler, Maxwell and Pascal "
            "'you may observe a modest speedup'.",
    },
    {
        .id = "conv.grouped_fallback",
        .title = "Grouped or depthwise convolutions run on slow non-Tensor-Core kernels under AMP",
        .default_severity = Severity::kWarning,
        .meaning =
            "Convolutions with groups != 1 (depthwise when groups equals the channel count, as in "
            "MobileNet or EfficientNet, or ResNeXt-style groups) do little arithmetic per byte "
            "and often have no Tensor-Core implementation for the given shape, dtype and layout. "
            "cuDNN then runs direct grouped kernels, or PyTorch its own depthwise kernels, which "
            "gain little or nothing from FP16 and can be slower than FP32. These layers then "
            "dominate the AMP step while the dense convolutions get faster.",
        .detection =
            "ampprof matches grouped and depthwise convolution kernels by name: cuDNN's direct "
            "kernels cudnn::cnn::conv2d_grouped_direct_kernel, dgrad2d_grouped_direct_kernel, "
            "wgrad2d_grouped_direct_kernel and convNd_grouped_direct_kernel, the xmma "
            "depthwise_convolution kernels, and PyTorch's "
            "conv_depthwise2d_forward/backward/grad_weight kernels. The group count comes from "
            "cuDNN logs (groupCount, or input channels divided by weight channels) or from NVTX "
            "op shapes. The finding fires when these kernels take a large share of convolution "
            "time in the mixed-precision run; with an FP32 baseline it also shows whether the "
            "same layers got any faster.",
        .evidence =
            "GPU time per step in grouped and depthwise kernels and their share of convolution "
            "time; kernel class (direct, depthwise, Tensor Core); dtype and groups per layer "
            "where known; with an FP32 baseline, the time of the same kernels in both runs.",
        .fix = "Let cuDNN search its grouped/depthwise algorithms, and use channels_last (the\n"
               "xmma depthwise kernels are NHWC kernels):\n"
               "    torch.backends.cudnn.benchmark = True\n"
               "    model = model.to(memory_format=torch.channels_last)\n"
               "If a grouped layer is still slower in FP16, run just that layer in FP32:\n"
               "    class FP32Conv2d(torch.nn.Conv2d):\n"
               "        def forward(self, x):\n"
               "            with torch.autocast(\"cuda\", enabled=False):\n"
               "                return super().forward(x.float())\n"
               "Where the model allows it, a dense convolution (groups=1) runs on Tensor Cores,\n"
               "at the cost of more parameters and FLOPs.",
        .seen_in =
            "Forum thread '2x faster training than default precision when model is just 3 linear "
            "layer, but when the model is just 1 conv layer, mixed precision training is slower "
            "than default precision': the maintainer warned that 'Grouped convolutions might not "
            "trigger the FP16 path and thus might not use TensorCores', for a conv layer using "
            "groups != 1 such as F.conv2d(input, self.weight, padding=self.padding, groups=4).",
    },
    {
        .id = "amp.scaler_overhead",
        .title = "GradScaler's unscale, inf check and host sync cost a visible share of the step",
        .default_severity = Severity::kWarning,
        .meaning =
            "With float16, GradScaler multiplies the loss by a scale factor; before each "
            "optimizer step it unscales the gradients and checks them for inf/NaN "
            "(torch._amp_foreach_non_finite_check_and_unscale_), and afterwards it updates the "
            "scale (torch._amp_update_scale_). To decide whether to skip the step, scaler.step() "
            "reads found_inf back with .item(): a 4-byte device-to-host copy followed by "
            "cudaStreamSynchronize, once per device per optimizer per step. The sync drains the "
            "GPU queue so the host can no longer run ahead; in small or launch-bound models this, "
            "plus the extra small kernels, can outweigh the FP16 speed-up.",
        .detection =
            "ampprof matches the GradScaler kernels by name: the multi_tensor_apply_kernel "
            "instantiated for _amp_foreach_non_finite_check_and_unscale_cuda_ (and "
            "_amp_non_finite_check_and_unscale_cuda_ for non-dense gradients), "
            "amp_update_scale_cuda_kernel (one single-thread launch per step), and the small "
            "fill, reciprocal and mul kernels around them. It pairs them with the 4-byte "
            "device-to-host memcpy (into pinned memory in recent PyTorch) followed by a "
            "stream-synchronise record and the cudaStreamSynchronize call, whose duration is the "
            "host stall. The finding fires when the kernels plus the stall are a noticeable share "
            "of the step.",
        .evidence =
            "GradScaler kernel time per step; unscale/inf-check launches per step; host stall per "
            "step in scaler.step() (duration of its cudaStreamSynchronize); GPU idle time after "
            "that sync; the share of step time of all three.",
        .fix = "On Ampere or newer, use bfloat16: it has FP32's range, needs no loss scaling, so\n"
               "drop GradScaler:\n"
               "    with torch.autocast(\"cuda\", dtype=torch.bfloat16):\n"
               "        loss = loss_fn(model(x), y)\n"
               "    loss.backward()\n"
               "    optimizer.step()\n"
               "    optimizer.zero_grad(set_to_none=True)\n"
               "With float16, use a fused optimizer: GradScaler hands found_inf and the scale to\n"
               "the fused kernel and skips the .item() sync:\n"
               "    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)\n"
               "    scaler = torch.amp.GradScaler(\"cuda\")\n"
               "Remove the other syncs in the step (loss.item(), printing tensors) so less work\n"
               "waits on each one.",
        .seen_in =
            "Forum thread 'Run slower when using autocast with small batch size': in the "
            "maintainer's profile of a 5 x Linear(128) model at batch 20, 'the overhead of loss "
            "scaling etc. is visible since the actual model computation is too small to hide it'. "
            "PyTorch AMP recipe, GradScaler section: scaler.scale(loss).backward(), "
            "scaler.step(opt), scaler.update().",
    },
    {
        .id = "amp.cast_overhead",
        .title = "Autocast cast kernels take a noticeable share of the step",
        .default_severity = Severity::kInfo,
        .meaning =
            "Autocast converts the inputs of each op it runs in lower precision with separate "
            "copy kernels. FP32 weights (leaf tensors that require grad) are cast once and cached "
            "until the autocast region ends, but activations are cast again on every op that "
            "needs a different dtype, and gradients are cast back in the backward pass. Every "
            "cast reads and writes the whole tensor, so with small matmuls, frequent switches "
            "between FP32-only and FP16 ops, or several autocast regions per step (each one "
            "re-casts the weights), the casts use up much of the time the Tensor Cores saved.",
        .detection =
            "ampprof matches the elementwise copy kernels that convert dtypes: "
            "float16_copy_kernel_cuda and bfloat16_copy_kernel_cuda (FP32 to FP16/BF16), "
            "float16tofloat32_copy_kernel_cuda and bfloat16tofloat32_copy_kernel_cuda (back to "
            "FP32), float8_copy_kernel_cuda, and in older PyTorch direct_copy_kernel_cuda and "
            "LoadWithCast/StoreWithCast elementwise kernels, classified by dtype. It sums their "
            "GPU time per step, estimates the bytes cast per step from NVTX op shapes where "
            "available, and compares both with the step time and with the GEMM/convolution time "
            "they serve.",
        .evidence =
            "Cast kernels per step by direction (FP32 to FP16, FP32 to BF16, back to FP32); their "
            "GPU time per step and share of the step; bytes cast per step; the NVTX ops "
            "(aten::to, aten::_to_copy) behind the largest casts.",
        .fix = "Run the whole forward pass, loss included, in one autocast region per step, so\n"
               "each weight is cast once and reused from the cache:\n"
               "    with torch.autocast(\"cuda\", dtype=torch.bfloat16):\n"
               "        loss = loss_fn(model(x), y)\n"
               "Do not cast by hand inside autocast (x.half(), x.float(), x.to(dtype)); let\n"
               "autocast choose.\n"
               "Let torch.compile fuse the casts into the neighbouring kernels:\n"
               "    model = torch.compile(model)\n"
               "For inference, keep the weights in the low-precision dtype so nothing is\n"
               "re-cast:\n"
               "    model = model.to(torch.bfloat16).eval()",
        .seen_in =
            "Forum thread 'The performance gap between torch.cuda.amp and nvidia-apex': on a GTX "
            "1080 Ti the user asked 'Is there any way to change the mode of native amp to remove "
            "some fp16 cast'. Forum thread 'Run slower when using autocast with small batch "
            "size': tiny Linear layers, where per-op overhead outweighs the faster matmuls. "
            "PyTorch AMP recipe: autocast chooses the dtype per op, so inputs need no manual "
            "casting.",
    },
    {
        .id = "amp.slower_than_fp32",
        .title = "The mixed-precision run is no faster than the FP32 run",
        .default_severity = Severity::kCritical,
        .meaning =
            "This is the verdict of comparing the same workload traced in FP32 and in mixed "
            "precision (ampprof analyze AMP_TRACE --baseline FP32_TRACE), with steady-state step "
            "times compared. The difference is decomposed by category (GEMM and convolution by "
            "math unit, layout conversion, casts, GradScaler, optimizer, other kernels, GPU idle "
            "time by cause), so the categories that got slower are named together with the "
            "findings that explain them. The usual causes are a launch-bound workload, layout "
            "conversions around FP16 convolutions, grouped convolutions without a Tensor-Core "
            "path, a GPU without Tensor Cores, a measurement that includes warm-up, or autocast "
            "that is not active at all.",
        .detection =
            "ampprof finds the training steps of each trace (ampprof or ProfilerStep ranges, a "
            "repeating user range, GradScaler update kernels, or a repeating kernel sequence), "
            "leaves out warm-up steps, and compares the median step times, timed on the GPU (from "
            "one step's first kernel to the next's, because a host that does not wait for the GPU "
            "finishes its step ranges early): speed-up = FP32 median / AMP median. The finding "
            "fires when the speed-up is below 1.05x: two runs of one workload differ by a few "
            "percent, so less is no speed-up worth mixed precision. When either trace marks no "
            "steps, each run's whole GPU span is compared instead, which is fair only when both "
            "ran the same iterations, and the finding says so. The difference is decomposed on the "
            "busiest GPU over the measured steps, per step: kernel time by category (GEMMs and "
            "convolutions split into Tensor Cores, TF32 and CUDA cores), GPU idle time by cause "
            "(waiting for launches, refilling after host syncs, host busy elsewhere, queued work) "
            "and the overlap of concurrent kernels, so that the rows add up to the GPU time per "
            "step. Rows are ranked by the absolute change; a row that costs more with AMP (by at "
            "least 0.5% of its step) names the finding that explains it: casts amp.cast_overhead, "
            "GradScaler amp.scaler_overhead, layout conversions layout.nchw_nhwc, GEMMs or "
            "convolutions on CUDA cores or TF32 tensor_cores.fp32_math, the optimizer "
            "amp.double_optimizer_step, idle waiting for launches gpu.launch_bound, idle after "
            "host syncs gpu.sync_stall. Sanity checks: an AMP trace without FP16/BF16 kernels "
            "(autocast is not active, the verdict then says so), an FP32 trace with FP16/BF16 "
            "matrix kernels (not an FP32 baseline), and the two traces' GPU models.",
        .evidence =
            "Median step time in FP32 and in AMP, the steps compared and where they came from, and "
            "the speed-up; GPU time per step, busy share and kernels per step in each run; the "
            "rows that cost more with AMP and those that save, with the ids of the findings behind "
            "them; notes when the AMP run is not mixed precision, the baseline is not FP32, the "
            "GPUs differ, whole runs were compared, or which ranks were paired. The report's "
            "comparison table lists every row.",
        .fix = "Fix the findings this verdict lists, largest difference first. If the AMP run\n"
               "shows no FP16/BF16 kernels, autocast is not on around the model's work:\n"
               "    with torch.autocast(device_type=\"cuda\", dtype=torch.float16):\n"
               "        loss = loss_fn(model(inputs), targets)\n"
               "Quick changes that cover the common causes:\n"
               "    # CNNs: autotuned FP16 kernels, no NCHW<->NHWC transposes\n"
               "    torch.backends.cudnn.benchmark = True\n"
               "    model = model.to(memory_format=torch.channels_last)\n"
               "    # small models: fewer, fused kernel launches\n"
               "    model = torch.compile(model, mode=\"reduce-overhead\")\n"
               "Check that the comparison is fair: warm up both runs, synchronise before reading\n"
               "the clock, and time the same steps (see bench.warmup_in_window). If the model is\n"
               "too small to keep the GPU busy, raise the batch size: AMP pays off only when\n"
               "matmuls and convolutions dominate the step.",
        .seen_in =
            "Forum threads 'Run slower when using autocast with small batch size' (launch-bound "
            "toy MLP), '2x faster training than default precision when model is just 3 linear "
            "layer, but when the model is just 1 conv layer, mixed precision training is slower "
            "than default precision' (layout conversions) and 'The performance gap between "
            "torch.cuda.amp and nvidia-apex' (DeepLabV3+: 2511.72 ms with autocast vs 1397.27 ms "
            "without). Tesla T4 CNN comparison: AMP took the recipe's MLP from 7.02 s to 2.52 s "
            "but left an MNIST CNN almost unchanged (107.2 s vs 104.9 s).",
    },
    {
        .id = "bench.warmup_in_window",
        .title = "The measured window includes warm-up work",
        .default_severity = Severity::kWarning,
        .meaning =
            "The first iterations of a PyTorch run do one-time work: CUDA context creation and "
            "module loading, cuBLAS and cuDNN handle creation, cuDNN autotuning when "
            "torch.backends.cudnn.benchmark = True (every new input shape tries each candidate "
            "algorithm), and growth of the caching allocator (cudaMalloc calls). A timing window "
            "that includes them overstates the step time, by a different amount for FP32 and AMP "
            "since each precision loads and tunes its own kernels. Reading time.time() without "
            "torch.cuda.synchronize() measures only how fast the host queued the work, not the "
            "GPU time.",
        .detection =
            "ampprof splits the trace into steps and looks for warm-up at the start of the "
            "window: steps much longer than the steady-state median, cuDNN autotuning (cudnnFind "
            "calls and bursts of trial convolution kernels that do not recur in later steps), "
            "module loads, and cudaMalloc calls concentrated in the first steps. It reports how "
            "much of the window they cover and the step time without them.",
        .evidence =
            "Times of the first steps vs the steady-state median; time in the window spent on "
            "autotuning, module loading and memory allocation; the number of steps affected; the "
            "steady-state step time without them.",
        .fix = "Warm up before timing, synchronise around the timed region, and time many steps:\n"
               "    for _ in range(10):  # warm-up: lazy init, cuDNN autotuning, allocator growth\n"
               "        train_step(x, y)\n"
               "    start = torch.cuda.Event(enable_timing=True)\n"
               "    end = torch.cuda.Event(enable_timing=True)\n"
               "    torch.cuda.synchronize()\n"
               "    start.record()\n"
               "    for _ in range(100):\n"
               "        train_step(x, y)\n"
               "    end.record()\n"
               "    torch.cuda.synchronize()\n"
               "    print(f\"{start.elapsed_time(end) / 100:.3f} ms/step\")\n"
               "Warm up the FP32 and the AMP configuration separately, each before its own timed\n"
               "loop.",
        .seen_in =
            "Forum thread 'Run slower when using autocast with small batch size': the first "
            "timings had no torch.cuda.synchronize() ('CUDA operations are executed "
            "asynchronously'), and after a warm-up pass the AMP loop went from 10.76 s to 1.87 s. "
            "Forum thread '... when the model is just 1 conv layer, mixed precision training is "
            "slower than default precision': the maintainer added 'missing warmup iterations, "
            "since you are using cuDNN's benchmark mode'. The apex-vs-AMP thread timed one "
            "DeepLabV3+ iteration per precision with no warm-up. PyTorch AMP recipe: its timer "
            "calls torch.cuda.synchronize() before reading the clock.",
    },
    {
        .id = "amp.double_optimizer_step",
        .title =
            "The optimizer steps twice per iteration, e.g. optimizer.step() after scaler.step()",
        .default_severity = Severity::kCritical,
        .meaning =
            "scaler.step(optimizer) already calls optimizer.step() after unscaling the gradients, "
            "and skips it when they contain inf/NaN. An extra optimizer.step() afterwards applies "
            "the update a second time (for plain SGD in effect a doubled learning rate; for Adam, "
            "two moment and step-count updates), and on iterations the scaler skipped it applies "
            "the non-finite gradients anyway. It is a correctness bug first, typically seen as "
            "worse accuracy, and it also costs a full extra optimizer pass per step.",
        .detection =
            "ampprof counts the optimizer's update kernels per step: multi_tensor_apply_kernel "
            "instantiations of optimizer functors (e.g. AdamFunctor), fused optimizer kernels "
            "such as _fused_adamw_, and Optimizer.step ranges where NVTX captured them. The "
            "finding fires when one optimizer's update kernels run twice per step in the "
            "mixed-precision run (e.g. once inside scaler.step() and again after "
            "amp_update_scale_cuda_kernel), or twice as often as in the FP32 baseline.",
        .evidence =
            "Optimizer passes per step (expected one); optimizer kernel launches and GPU time per "
            "step; where the passes sit relative to the GradScaler kernels; the FP32 baseline's "
            "count when given.",
        .fix = "Call only scaler.step(optimizer); it runs optimizer.step() itself and skips it\n"
               "on overflow:\n"
               "    scaler.scale(loss).backward()\n"
               "    scaler.step(optimizer)  # calls optimizer.step()\n"
               "    scaler.update()\n"
               "    optimizer.zero_grad(set_to_none=True)\n"
               "    # no optimizer.step() here\n"
               "To clip gradients, unscale first, and still step only through the scaler:\n"
               "    scaler.scale(loss).backward()\n"
               "    scaler.unscale_(optimizer)\n"
               "    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)\n"
               "    scaler.step(optimizer)\n"
               "    scaler.update()",
        .seen_in =
            "Forum thread 'The performance gap between torch.cuda.amp and nvidia-apex': a "
            "DeepLabV3+ segmentation model reached 22 mIoU with torch.cuda.amp vs 30 with apex O1 "
            "because the training code called optim.step() again after scaler.step(optim); "
            "removing the extra call fixed it. PyTorch AMP recipe: 'scaler.step() first unscales "
            "the gradients ... If these gradients do not contain infs or NaNs, optimizer.step() "
            "is then called, otherwise, optimizer.step() is skipped'.",
    },
};

}  // namespace

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kCritical:
      return "critical";
  }
  return "unknown";  // only reachable with a value cast from outside the enum
}

std::span<const FindingInfo> FindingCatalog() { return kCatalog; }

const FindingInfo* FindFinding(std::string_view id) {
  for (const FindingInfo& info : kCatalog) {
    if (info.id == id) return &info;
  }
  return nullptr;
}

}  // namespace ampprof::analyzers
