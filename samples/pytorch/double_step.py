"""Seed 003 ("The performance gap between torch.cuda.amp and nvidia-apex"): optimizer.step() called again
after scaler.step(optimizer) and scaler.update(), so the weights are updated twice per step. The model is
the recipe's MLP at a smaller size (the seed's DeepLabV3+ is not needed to show the bug)."""

import sys

import amp_loop


def main():
    p = amp_loop.parser(__doc__.splitlines()[0], steps=100, warmup=10)
    p.add_argument("--layers", type=amp_loop.positive, default=3)
    p.add_argument("--features", type=amp_loop.positive, default=1024)
    p.add_argument("--batch", type=amp_loop.positive, default=256)
    args = p.parse_args()
    torch = amp_loop.import_torch("double_step.py")

    layers = []
    for _ in range(args.layers - 1):
        layers += [torch.nn.Linear(args.features, args.features), torch.nn.ReLU()]
    layers.append(torch.nn.Linear(args.features, args.features))
    model = torch.nn.Sequential(*layers).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    batches = [(torch.randn(args.batch, args.features, device="cuda"),
                torch.randn(args.batch, args.features, device="cuda")) for _ in range(8)]
    print(f"double_step.py: {args.layers} x Linear({args.features}, {args.features}), batch {args.batch}, "
          f"amp {args.amp}, optimizer.step() twice per step")
    amp_loop.train(torch, model, optimizer, torch.nn.MSELoss(), batches, args, double_step=True)


if __name__ == "__main__":
    sys.exit(main())
