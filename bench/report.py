#!/usr/bin/env python3
"""Turns bench/run's results into the tables of docs/performance.md (Markdown, on stdout) and, with
--plot, an SVG of how time and memory grow with the number of kernels. Standard library only.

    bench/report.py /tmp/ampprof-bench/results --plot docs/images/performance-growth.svg
"""
import argparse
import json
import math
import os
import re


def load_benchmarks(path):
    if not os.path.exists(path):
        return {}
    data = json.load(open(path))
    rows = {}
    for b in data["benchmarks"]:
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        b["real_s"] = b["real_time"] * scale
        b["cpu_s"] = b["cpu_time"] * scale
        rows[b["name"]] = b
    return rows


def sizes_in(rows):
    return sorted({int(m.group(1)) for name in rows if (m := re.search(r"/(\d+)$", name))})


def fmt_s(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def growth(rows, name_of, sizes):
    """Time ratio per 10x more kernels, as 'x8.9, x10.2'."""
    ratios = []
    for small, big in zip(sizes, sizes[1:]):
        a, b = rows.get(name_of(small)), rows.get(name_of(big))
        if a and b and a["cpu_s"] > 0:
            ratios.append(f"x{b['cpu_s'] / a['cpu_s']:.1f}")
    return ", ".join(ratios)


def pipeline_tables(rows):
    sizes = sizes_in(rows)
    head = " | ".join(f"{s:,} kernels" for s in sizes)
    print("### Import: read a trace file and build the model (CPU time; peak bytes per kernel)\n")
    print(f"| format | {head} | time per 10x kernels |")
    print("|---|" + "---|" * len(sizes) + "---|")
    for fmt, label in [("ampt", "`.ampt`"), ("kineto", "PyTorch profiler JSON"), ("nsys", "Nsight Systems SQLite")]:
        cells = []
        for s in sizes:
            b = rows.get(f"BM_Import/{fmt}/{s}")
            cells.append("" if not b else
                         f"{fmt_s(b['cpu_s'])}: {b['items_per_second'] / 1e6:.2f} M kernels/s, "
                         f"{b['peak_bytes_per_kernel']:.0f} B/kernel")
        print(f"| {label} | " + " | ".join(cells) + f" | {growth(rows, lambda s: f'BM_Import/{fmt}/{s}', sizes)} |")

    print("\n### Analysis of a built model (CPU time)\n")
    print(f"| stage | {head} | time per 10x kernels |")
    print("|---|" + "---|" * len(sizes) + "---|")
    stages = ["BM_Classify", "BM_Summary", "BM_Steps", "BM_Timeline"]
    stages += sorted({re.sub(r"/\d+$", "", n) for n in rows if n.startswith("BM_Analyzer/")})
    for stage in stages:
        cells = [fmt_s(rows[f"{stage}/{s}"]["cpu_s"]) if f"{stage}/{s}" in rows else "" for s in sizes]
        label = stage.replace("BM_Analyzer/", "analyzer ").replace("BM_", "").lower()
        print(f"| {label} | " + " | ".join(cells) + f" | {growth(rows, lambda s: f'{stage}/{s}', sizes)} |")
    totals = []
    for s in sizes:
        totals.append(fmt_s(sum(b["cpu_s"] for n, b in rows.items()
                                if n.endswith(f"/{s}") and (n.split("/")[0] in stages or n.startswith("BM_Analyzer/")))))
    print("| **all of the above** | " + " | ".join(f"**{t}**" for t in totals) + " | |")

    print("\n### Reports and exports from the analysed trace (CPU time; bytes written)\n")
    print(f"| output | {head} |")
    print("|---|" + "---|" * len(sizes))
    for out in ["text", "json", "markdown", "html", "chrome", "nvtxt"]:
        cells = []
        for s in sizes:
            b = rows.get(f"BM_Report/{out}/{s}")
            cells.append("" if not b else f"{fmt_s(b['cpu_s'])}, {b['output_bytes'] / 1024:,.0f} KiB")
        print(f"| {out} | " + " | ".join(cells) + " |")


def analyze_table(path):
    if not os.path.exists(path):
        return
    rows = json.load(open(path))
    print("\n### `ampprof analyze`, end to end in a fresh process (wall time, peak resident memory)\n")
    print("| kernels | format | file | analyze (text report) | peak memory | peak / kernel | with `--html` | HTML page |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['kernels']:,} | .{r['format']} | {r['bytes'] / 2**20:,.0f} MiB | {r['wall_s']:.2f} s | "
              f"{r['peak_rss_bytes'] / 2**20:,.0f} MiB | {r['peak_rss_bytes'] / r['kernels']:.0f} B | "
              f"{r['html_wall_s']:.2f} s | {r['html_bytes'] / 1024:,.0f} KiB |")


def hta_table(path):
    if not os.path.exists(path):
        return
    data = json.load(open(path))
    v = data["versions"]
    print(f"\n### Against HolisticTraceAnalysis {v['hta']} (pandas {v['pandas']}, Python {v['python']}), "
          f"memory limit {data['memory_limit_bytes'] / 2**30:.1f} GiB\n")
    print("| trace | tool | wall time | peak memory | outcome | ampprof's advantage |")
    print("|---|---|---|---|---|---|")
    for r in data["results"]:
        t = r["tools"]
        for tool in ["hta", "json.load", "ampprof"]:
            e = t[tool]
            ratio = ""
            if tool != "ampprof" and e["outcome"] == "ok" and t["ampprof"]["outcome"] == "ok":
                ratio = (f"{e['wall_s'] / t['ampprof']['wall_s']:.0f}x faster, "
                         f"{e['peak_rss_bytes'] / t['ampprof']['peak_rss_bytes']:.0f}x less memory")
            outcome = e["outcome"]
            if "phases" in e:
                p = e["phases"]
                outcome += (f" (load {p['load_s']:.1f} s, idle {p['idle_s']:.2f} s, "
                            f"kernels {p['kernel_breakdown_s']:.2f} s)")
            label = {"hta": "HTA: load + idle time + kernel breakdown", "json.load": "Python `json.load` only",
                     "ampprof": "`ampprof analyze`"}[tool]
            print(f"| {os.path.basename(r['trace'])} ({r['bytes'] / 2**20:,.0f} MiB) | {label} | "
                  f"{e['wall_s']:.2f} s | {e['peak_rss_bytes'] / 2**20:,.0f} MiB | {outcome} | {ratio} |")


def plot(rows, analyze_path, out):
    """Log-log: CPU time of each import and of the whole analysis against kernels; peak bytes per kernel."""
    sizes = sizes_in(rows)
    series = []
    for fmt, label, colour in [("ampt", ".ampt import", "#1f77b4"), ("kineto", "Kineto JSON import", "#ff7f0e"),
                               ("nsys", "nsys SQLite import", "#2ca02c")]:
        series.append((label, colour, [(s, rows[f"BM_Import/{fmt}/{s}"]["cpu_s"]) for s in sizes
                                       if f"BM_Import/{fmt}/{s}" in rows]))
    analysis = []
    for s in sizes:
        total = sum(b["cpu_s"] for n, b in rows.items() if n.endswith(f"/{s}") and
                    (n.startswith("BM_Analyzer/") or n.split("/")[0] in ("BM_Classify", "BM_Summary", "BM_Steps", "BM_Timeline")))
        analysis.append((s, total))
    series.append(("all analyzers", "#d62728", analysis))
    series.append(("HTML report", "#9467bd", [(s, rows[f"BM_Report/html/{s}"]["cpu_s"]) for s in sizes
                                               if f"BM_Report/html/{s}" in rows]))
    width, height, left, top, plot_w, plot_h = 720, 380, 70, 30, 430, 300
    ys = [y for _, _, points in series for _, y in points if y > 0]
    y_min, y_max = 10 ** math.floor(math.log10(min(ys))), 10 ** math.ceil(math.log10(max(ys)))
    x_min, x_max = min(sizes), max(sizes)

    def px(x):
        return left + plot_w * (math.log10(x) - math.log10(x_min)) / max(1e-9, math.log10(x_max) - math.log10(x_min))

    def py(y):
        return top + plot_h * (1 - (math.log10(y) - math.log10(y_min)) / (math.log10(y_max) - math.log10(y_min)))

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="13">CPU time against trace size (log-log; a slope of one decade per decade is linear)</text>']
    decade = y_min
    while decade <= y_max * 1.0001:
        y = py(decade)
        svg.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{fmt_s(decade)}</text>')
        decade *= 10
    for s in sizes:
        x = px(s)
        svg.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#ddd"/>')
        svg.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{s:,.0f}</text>')
    svg.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 34}" text-anchor="middle">kernels in the trace</text>')
    for i, (label, colour, points) in enumerate(series):
        if not points:
            continue
        path = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.1f},{py(max(y, y_min)):.1f}" for j, (x, y) in enumerate(points))
        svg.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in points:
            svg.append(f'<circle cx="{px(x):.1f}" cy="{py(max(y, y_min)):.1f}" r="3" fill="{colour}"/>')
        ly = top + 10 + 20 * i
        svg.append(f'<line x1="{left + plot_w + 20}" y1="{ly}" x2="{left + plot_w + 40}" y2="{ly}" stroke="{colour}" stroke-width="2"/>')
        svg.append(f'<text x="{left + plot_w + 46}" y="{ly + 4}">{label}</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", help="bench/run's results directory")
    parser.add_argument("--plot", help="write the growth plot (SVG) here")
    args = parser.parse_args()
    model = load_benchmarks(os.path.join(args.results, "model_benchmark.json"))
    rows = load_benchmarks(os.path.join(args.results, "pipeline_benchmark.json"))
    if model:
        print("### `.ampt` reading alone, and reading + building the model\n")
        print("| benchmark | CPU time | kernels/s | peak bytes/kernel | model bytes/kernel |")
        print("|---|---|---|---|---|")
        for name, b in model.items():
            print(f"| {name} | {fmt_s(b['cpu_s'])} | {b['items_per_second'] / 1e6:.2f} M | "
                  f"{b.get('peak_bytes_per_kernel', float('nan')):.0f} | {b.get('model_bytes_per_kernel', float('nan')):.1f} |")
        print()
    if rows:
        pipeline_tables(rows)
    analyze_table(os.path.join(args.results, "analyze.json"))
    hta_table(os.path.join(args.results, "hta_compare.json"))
    if args.plot and rows:
        plot(rows, os.path.join(args.results, "analyze.json"), args.plot)
        print(f"\n(plot: {args.plot})")


if __name__ == "__main__":
    main()
