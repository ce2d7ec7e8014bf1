"""Seed 001 ("when the model is just 1 conv layer, mixed precision training is slower"): Conv2d(3, 64,
kernel 3, stride 2, padding 1, no bias) on 64 x 3 x 224 x 224 with cudnn.benchmark. In NCHW, cuDNN wraps
its FP16 Tensor-Core kernels in nchwToNhwc / nhwcToNchw conversions; --channels-last removes them."""

import sys

import amp_loop


def main():
    p = amp_loop.parser(__doc__.splitlines()[0], steps=100, warmup=10)
    p.add_argument("--channels-last", action="store_true", help="model and data in torch.channels_last")
    p.add_argument("--batch", type=amp_loop.positive, default=64)
    p.add_argument("--size", type=amp_loop.positive, default=224)
    p.add_argument("--in-channels", type=amp_loop.positive, default=3)
    p.add_argument("--out-channels", type=amp_loop.positive, default=64)
    args = p.parse_args()
    torch = amp_loop.import_torch("conv_layout.py")
    torch.backends.cudnn.benchmark = True

    memory_format = torch.channels_last if args.channels_last else torch.contiguous_format
    model = torch.nn.Conv2d(args.in_channels, args.out_channels, kernel_size=3, stride=2, padding=1, bias=False)
    model = model.cuda().to(memory_format=memory_format)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0001)
    out_size = (args.size + 1) // 2
    batches = [(torch.randn(args.batch, args.in_channels, args.size, args.size, device="cuda")
                .to(memory_format=memory_format),
                torch.randn(args.batch, args.out_channels, out_size, out_size, device="cuda")
                .to(memory_format=memory_format)) for _ in range(2)]
    print(f"conv_layout.py: Conv2d({args.in_channels}, {args.out_channels}, 3, stride 2), batch {args.batch}, "
          f"{args.size} x {args.size}, {'channels_last' if args.channels_last else 'NCHW'}, amp {args.amp}")
    amp_loop.train(torch, model, optimizer, torch.nn.MSELoss(), batches, args)


if __name__ == "__main__":
    sys.exit(main())
