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


# The memory budget of `ampprof analyze` (docs/reliability.md, "Bounded resources"): one model in memory
# at a time, at most this much per kernel of the trace (with its API calls and ranges) plus a fixed part
# for the program, its libraries and the readers' buffers.
MEMORY_BUDGET_BYTES_PER_KERNEL = 128
MEMORY_BUDGET_FIXED_BYTES = 64 * 2**20


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
    print("| kernels | format | file | analyze (text report) | peak memory | peak / kernel | memory budget | with `--html` | HTML page |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        budget = MEMORY_BUDGET_BYTES_PER_KERNEL * r["kernels"] + MEMORY_BUDGET_FIXED_BYTES
        verdict = "within" if r["peak_rss_bytes"] <= budget else "**over**"
        print(f"| {r['kernels']:,} | .{r['format']} | {r['bytes'] / 2**20:,.0f} MiB | {r['wall_s']:.2f} s | "
              f"{r['peak_rss_bytes'] / 2**20:,.0f} MiB | {r['peak_rss_bytes'] / r['kernels']:.0f} B | "
              f"{verdict} ({budget / 2**20:,.0f} MiB) | {r['html_wall_s']:.2f} s | {r['html_bytes'] / 1024:,.0f} KiB |")


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


def _axes_log_x(sizes, left, plot_w):
    x_min, x_max = min(sizes), max(sizes)
    span = max(1e-9, math.log10(x_max) - math.log10(x_min))
    return lambda x: left + plot_w * (math.log10(x) - math.log10(x_min)) / span


def _panel(svg, title, series, sizes, left, top, plot_w, plot_h, log_y, y_label):
    """One chart: x = kernels (log), y = seconds (log) or bytes per kernel (linear), with a legend below."""
    px = _axes_log_x(sizes, left, plot_w)
    ys = [y for _, _, points in series for _, y in points if y > 0]
    if log_y:
        y_min, y_max = 10 ** math.floor(math.log10(min(ys))), 10 ** math.ceil(math.log10(max(ys)))
        py = lambda y: top + plot_h * (1 - (math.log10(max(y, y_min)) - math.log10(y_min)) /
                                       (math.log10(y_max) - math.log10(y_min)))
        ticks, tick = [], y_min
        while tick <= y_max * 1.0001:
            ticks.append((tick, fmt_s(tick)))
            tick *= 10
    else:
        y_min, y_max = 0, 50 * math.ceil(max(ys) / 50)
        py = lambda y: top + plot_h * (1 - (y - y_min) / (y_max - y_min))
        ticks = [(t, f"{t:.0f} B") for t in range(0, int(y_max) + 1, 50)]
    svg.append(f'<text x="{left}" y="{top - 10}" font-size="13">{title}</text>')
    for value, label in ticks:
        y = py(value)
        svg.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    for size in sizes:
        x = px(size)
        svg.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#ddd"/>')
        svg.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{size:,.0f}</text>')
    svg.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 32}" text-anchor="middle">kernels in the trace</text>')
    svg.append(f'<text x="{left - 66}" y="{top + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 {left - 66} {top + plot_h / 2})">{y_label}</text>')
    for i, (label, colour, points) in enumerate(series):
        if not points:
            continue
        path = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for j, (x, y) in enumerate(points))
        svg.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in points:
            svg.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
        ly = top + plot_h + 52 + 18 * i
        svg.append(f'<line x1="{left}" y1="{ly}" x2="{left + 20}" y2="{ly}" stroke="{colour}" stroke-width="2"/>')
        svg.append(f'<text x="{left + 26}" y="{ly + 4}">{label}</text>')


def plot(rows, out):
    """Left: CPU time of each import, of all the analysis and of the HTML report against kernels (log-log,
    where a slope of one decade per decade is linear growth). Right: peak memory per kernel of each import."""
    sizes = sizes_in(rows)
    formats = [("ampt", ".ampt", "#1f77b4"), ("kineto", "PyTorch profiler JSON", "#ff7f0e"),
               ("nsys", "Nsight Systems SQLite", "#2ca02c")]
    analysis_stages = ("BM_Classify", "BM_Summary", "BM_Steps", "BM_Timeline")
    time_series = [(f"import {label}", colour, [(s, rows[f"BM_Import/{fmt}/{s}"]["cpu_s"]) for s in sizes
                                                 if f"BM_Import/{fmt}/{s}" in rows]) for fmt, label, colour in formats]
    time_series.append(("all analysis of a built model", "#d62728",
                        [(s, sum(b["cpu_s"] for n, b in rows.items() if n.endswith(f"/{s}") and
                                 (n.startswith("BM_Analyzer/") or n.split("/")[0] in analysis_stages)))
                         for s in sizes]))
    time_series.append(("HTML report", "#9467bd", [(s, rows[f"BM_Report/html/{s}"]["cpu_s"]) for s in sizes
                                                    if f"BM_Report/html/{s}" in rows]))
    memory_series = [(f"import {label}", colour,
                      [(s, rows[f"BM_Import/{fmt}/{s}"]["peak_bytes_per_kernel"]) for s in sizes
                       if f"BM_Import/{fmt}/{s}" in rows]) for fmt, label, colour in formats]
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="900" height="500" font-family="sans-serif" font-size="12">',
           '<rect width="900" height="500" fill="white"/>']
    _panel(svg, "CPU time (log-log)", time_series, sizes, 80, 40, 340, 300, True, "CPU time")
    _panel(svg, "Peak memory per kernel, read + build", memory_series, sizes, 540, 40, 320, 300, False,
           "bytes per kernel")
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
            peak = f"{b['peak_bytes_per_kernel']:.0f}" if "peak_bytes_per_kernel" in b else "(not measured)"
            model_bytes = f"{b['model_bytes_per_kernel']:.1f}" if "model_bytes_per_kernel" in b else "(no model)"
            print(f"| {name} | {fmt_s(b['cpu_s'])} | {b['items_per_second'] / 1e6:.2f} M | {peak} | {model_bytes} |")
        print()
    if rows:
        pipeline_tables(rows)
    analyze_table(os.path.join(args.results, "analyze.json"))
    hta_table(os.path.join(args.results, "hta_compare.json"))
    if args.plot and rows:
        plot(rows, args.plot)
        print(f"\n(plot: {args.plot})")


if __name__ == "__main__":
    main()
