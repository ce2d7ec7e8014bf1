"""Seed 002 (PyTorch's AMP recipe; also seed 004's sample code): 3 x Linear(4096, 4096) with ReLU at batch
512, SGD, MSE loss. GEMM-bound with dimensions that are multiples of 8: AMP is 2-3x faster on Tensor-Core
GPUs. --batch 513 or --features 4100 reproduce the recipe's "not multiples of 8" exercise."""

import sys

import amp_loop


def main():
    p = amp_loop.parser(__doc__.splitlines()[0], steps=150, warmup=10)
    p.add_argument("--layers", type=amp_loop.positive, default=3)
    p.add_argument("--features", type=amp_loop.positive, default=4096)
    p.add_argument("--batch", type=amp_loop.positive, default=512)
    p.add_argument("--batches", type=amp_loop.positive, default=50, help="distinct batches (default: 50)")
    args = p.parse_args()
    torch = amp_loop.import_torch("recipe_mlp.py")

    layers = []
    for _ in range(args.layers - 1):
        layers += [torch.nn.Linear(args.features, args.features), torch.nn.ReLU()]
    layers.append(torch.nn.Linear(args.features, args.features))
    model = torch.nn.Sequential(*layers).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    batches = [(torch.randn(args.batch, args.features, device="cuda"),
                torch.randn(args.batch, args.features, device="cuda")) for _ in range(args.batches)]
    print(f"recipe_mlp.py: {args.layers} x Linear({args.features}, {args.features}) with ReLU, batch {args.batch}, "
          f"amp {args.amp}")
    amp_loop.train(torch, model, optimizer, torch.nn.MSELoss(), batches, args)


if __name__ == "__main__":
    sys.exit(main())
