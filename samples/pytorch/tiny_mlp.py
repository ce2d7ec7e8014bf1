"""Seed 000 ("Run slower when using autocast with small batch size"): 5 x Linear(128, 128) at batch 20,
SGD, MSE loss. Launch-bound: each kernel is shorter than the host takes to launch it, and autocast and
GradScaler add kernels and a found_inf.item() synchronisation per step, so AMP is slower than FP32."""

import sys

import amp_loop


def main():
    p = amp_loop.parser(__doc__.splitlines()[0], steps=1000, warmup=50)
    p.add_argument("--layers", type=amp_loop.positive, default=5)
    p.add_argument("--features", type=amp_loop.positive, default=128)
    p.add_argument("--batch", type=amp_loop.positive, default=20)
    p.add_argument("--batches", type=amp_loop.positive, default=100, help="distinct batches (default: 100)")
    args = p.parse_args()
    torch = amp_loop.import_torch("tiny_mlp.py")

    model = torch.nn.Sequential(*[torch.nn.Linear(args.features, args.features) for _ in range(args.layers)]).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    batches = [(torch.randn(args.batch, args.features, device="cuda"),
                torch.randn(args.batch, args.features, device="cuda")) for _ in range(args.batches)]
    print(f"tiny_mlp.py: {args.layers} x Linear({args.features}, {args.features}), batch {args.batch}, "
          f"amp {args.amp}")
    amp_loop.train(torch, model, optimizer, torch.nn.MSELoss(), batches, args)


if __name__ == "__main__":
    sys.exit(main())
