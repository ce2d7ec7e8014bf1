"""Seed 001's grouped-convolution answer: Conv2d(256, 256, 3, groups=4) -> ReLU -> depthwise Conv2d(256,
256, 3, groups=256) on 32 x 256 x 56 x 56. Under autocast, cuDNN may run grouped and depthwise
convolutions on CUDA cores, where FP16 gains little."""

import sys

import amp_loop


def main():
    p = amp_loop.parser(__doc__.splitlines()[0], steps=100, warmup=10)
    p.add_argument("--channels-last", action="store_true", help="model and data in torch.channels_last")
    p.add_argument("--batch", type=amp_loop.positive, default=32)
    p.add_argument("--size", type=amp_loop.positive, default=56)
    p.add_argument("--channels", type=amp_loop.positive, default=256)
    p.add_argument("--groups", type=amp_loop.positive, default=4)
    args = p.parse_args()
    torch = amp_loop.import_torch("grouped_conv.py")
    torch.backends.cudnn.benchmark = True

    c = args.channels
    memory_format = torch.channels_last if args.channels_last else torch.contiguous_format
    model = torch.nn.Sequential(
        torch.nn.Conv2d(c, c, kernel_size=3, padding=1, groups=args.groups, bias=False),
        torch.nn.ReLU(),
        torch.nn.Conv2d(c, c, kernel_size=3, padding=1, groups=c, bias=False),
    ).cuda().to(memory_format=memory_format)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0001)
    batches = [(torch.randn(args.batch, c, args.size, args.size, device="cuda").to(memory_format=memory_format),
                torch.randn(args.batch, c, args.size, args.size, device="cuda").to(memory_format=memory_format))
               for _ in range(2)]
    print(f"grouped_conv.py: Conv2d({c}, {c}, 3, groups={args.groups}) -> ReLU -> depthwise Conv2d({c}, {c}, 3), "
          f"batch {args.batch}, {args.size} x {args.size}, amp {args.amp}")
    amp_loop.train(torch, model, optimizer, torch.nn.MSELoss(), batches, args)


if __name__ == "__main__":
    sys.exit(main())
