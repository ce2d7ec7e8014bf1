#!/usr/bin/env python3
"""Measures the kernel classifier on held-out real kernel names (bench/data/held_out_kernels.tsv).

    bench/kernel_names_accuracy.py build/src/cli/ampprof [--rules FILE]

Prints, for the names the table has, how often the category is one a person would accept, how often the
math unit is right where the name states it (and whether any name that does not state it was called
"CUDA cores", which would be a guess), and how often the data type is right or honestly unknown; then
every name that misses, with the rule that decided it.
"""
import argparse
import json
import os
import subprocess
import sys

MATRIX = {"gemm", "convolution", "attention"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ampprof")
    parser.add_argument("--table", default=os.path.join(os.path.dirname(__file__), "data", "held_out_kernels.tsv"))
    parser.add_argument("--rules", help="a --kernel-rules file to classify with")
    args = parser.parse_args()

    rows = []
    for line in open(args.table, encoding="utf-8"):
        line = line.rstrip("\n")
        if line and not line.startswith("#"):
            name, category, unit, dtype, source = line.split("\t")
            rows.append((name, category.split("|"), unit, dtype.split("|"), source))
    command = [args.ampprof, "classify", "--format", "json"] + (["--kernel-rules", args.rules] if args.rules else [])
    output = subprocess.run(command, input="\n".join(r[0] for r in rows) + "\n", capture_output=True, text=True,
                            check=True).stdout
    got = {o["name"]: o for o in map(json.loads, output.splitlines())}

    category_ok = dtype_ok = unit_ok = unit_stated = guessed_cuda = 0
    misses = []
    for name, categories, unit, dtypes, source in rows:
        o = got[name]
        matrix = bool(MATRIX.intersection(categories))
        c_ok = o["category"] in categories
        u_ok = True
        if matrix and unit != "?":
            unit_stated += 1
            u_ok = o["unit"] == unit
            unit_ok += u_ok
        if matrix and unit == "?" and o["unit"] == "cuda_cores":
            guessed_cuda += 1
            u_ok = False
        d_ok = o["dtype"] in dtypes or o["dtype"] == "unknown"
        category_ok += c_ok
        dtype_ok += d_ok
        if not (c_ok and u_ok and d_ok):
            misses.append(f"  want {'|'.join(categories)}/{unit}/{'|'.join(dtypes)}, got {o['category']}/{o['unit']}/"
                          f"{o['dtype']} (rule {o['rule']}): {name[:110]}")
    n = len(rows)
    print(f"{n} held-out names")
    print(f"category right:               {category_ok}/{n} ({100 * category_ok / n:.1f}%)")
    print(f"unit right where stated:      {unit_ok}/{unit_stated} ({100 * unit_ok / max(unit_stated, 1):.1f}%)")
    print(f"CUDA cores where not stated:  {guessed_cuda}")
    print(f"dtype right or unknown:       {dtype_ok}/{n} ({100 * dtype_ok / n:.1f}%)")
    if misses:
        print("misses:")
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
