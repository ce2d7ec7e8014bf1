"""A convolutional network: torchvision's ResNet-50 trained on random images (batch 64, 224 x 224, SGD,
cross-entropy), in NCHW or --channels-last. With AMP in NCHW, cuDNN adds layout conversions around its
FP16 kernels; channels_last removes most of them. Exits with status 77 (skipped) without torchvision."""

import sys

import amp_loop

SKIPPED = 77  # the "skipped" exit status of automake and CTest conventions; tests/gpu reads it


def main():
    p = amp_loop.parser(__doc__.splitlines()[0], steps=50, warmup=10)
    p.add_argument("--channels-last", action="store_true", help="model and data in torch.channels_last")
    p.add_argument("--batch", type=amp_loop.positive, default=64)
    p.add_argument("--size", type=amp_loop.positive, default=224)
    args = p.parse_args()
    torch = amp_loop.import_torch("resnet50.py")
    try:
        import torchvision
    except ImportError:
        print("resnet50.py: skipped: torchvision is not installed", file=sys.stderr)
        return SKIPPED
    torch.backends.cudnn.benchmark = True

    memory_format = torch.channels_last if args.channels_last else torch.contiguous_format
    model = torchvision.models.resnet50(weights=None).cuda().to(memory_format=memory_format)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    batches = [(torch.randn(args.batch, 3, args.size, args.size, device="cuda").to(memory_format=memory_format),
                torch.randint(0, 1000, (args.batch,), device="cuda")) for _ in range(2)]
    print(f"resnet50.py: batch {args.batch}, {args.size} x {args.size}, "
          f"{'channels_last' if args.channels_last else 'NCHW'}, amp {args.amp}")
    amp_loop.train(torch, model, optimizer, torch.nn.CrossEntropyLoss(), batches, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
