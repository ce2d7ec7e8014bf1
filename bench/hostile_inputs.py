#!/usr/bin/env python3
"""Makes the hostile inputs of docs/reliability.md ("Bounded resources") and measures what
`ampprof analyze` needs for each: peak RSS and wall time, with /usr/bin/time -v.

    bench/hostile_inputs.py DIR                       # write the inputs into DIR
    bench/hostile_inputs.py DIR --measure AMPPROF     # and run AMPPROF analyze on each
    bench/hostile_inputs.py DIR --measure AMPPROF --only kineto-1g-name nsys-unused-strings

Every input is small on disk (or compresses well) and was, before the fixes, a way to make the
importers allocate far beyond the memory budget or run for minutes:

    kineto-1g-name            a kernel name of 10^9 bytes in a 1 MB gzip
    kineto-1g-metadata        a top-level metadata string (traceName) of 10^9 bytes in a 1 MB gzip
    kineto-100m-name          a kernel name of 10^8 bytes in a 100 KB gzip
    kineto-million-names      a million kernels with a million distinct names (gzip)
    nsys-unused-strings       a small nsys export whose StringIds holds 5 million unused strings
    nsys-huge-string-id       a small nsys export whose only kernel names string id 10^8

The nsys inputs start from `ampprof-synth --format nsys --kernels 20000` (the synthetic AMP loop) when
--synth is given, else from an export of one kernel. docs/reliability.md has the figures, before and
after the fixes.
"""
import argparse
import os
import re
import sqlite3
import subprocess
import sys
import zlib

MB = 1 << 20


def gzip_stream(path):
    """A gzip writer that compresses as it goes, so a 1 GB payload never sits in memory."""
    out = open(path, "wb")
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)

    def write(data):
        out.write(compressor.compress(data.encode() if isinstance(data, str) else data))

    def close():
        out.write(compressor.flush())
        out.close()

    return write, close


def kernel_event(name, ts, correlation=1, pid=0, stream=7):
    return ('{"ph": "X", "cat": "kernel", "name": "%s", "pid": %d, "tid": %d, "ts": %d, "dur": 3, '
            '"args": {"device": 0, "stream": %d, "correlation": %d, "grid": [1, 1, 1], '
            '"block": [128, 1, 1]}}' % (name, pid, stream, ts, stream, correlation))


def launch_event(ts, correlation, pid=1000):
    return ('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, "tid": %d, '
            '"ts": %d, "dur": 2, "args": {"cbid": 211, "correlation": %d}}' % (pid, pid, ts, correlation))


def write_long(write, byte, count, block=MB):
    chunk = byte * block
    for _ in range(count // block):
        write(chunk)
    write(byte * (count % block))


def kineto_1g_name(path):
    write, close = gzip_stream(path)
    write('{"schemaVersion": 1, "traceEvents": [\n' + launch_event(1000, 1) + ',\n')
    write('{"ph": "X", "cat": "kernel", "name": "volta_sgemm_')
    write_long(write, "x", 10**9)
    write('", "pid": 0, "tid": 7, "ts": 1005, "dur": 3, "args": {"device": 0, "stream": 7, '
          '"correlation": 1}}\n]}\n')
    close()


def kineto_1g_metadata(path):
    write, close = gzip_stream(path)
    write('{"schemaVersion": 1, "traceName": "')
    write_long(write, "x", 10**9)
    write('", "traceEvents": [\n' + launch_event(1000, 1) + ',\n' + kernel_event("volta_sgemm", 1005) + '\n]}\n')
    close()


def kineto_100m_name(path):
    write, close = gzip_stream(path)
    write('{"schemaVersion": 1, "traceEvents": [\n' + launch_event(1000, 1) + ',\n')
    write(kernel_event("volta_sgemm_" + "x" * 10**8, 1005) + "\n]}\n")
    close()


def kineto_million_names(path, kernels=1_000_000):
    write, close = gzip_stream(path)
    write('{"schemaVersion": 1, "traceEvents": [\n')
    ts = 1000
    for i in range(1, kernels + 1):
        # Names of about 330 bytes, as the million_names fault test writes them.
        name = "void cutlass::Kernel2<cutlass_80_tensorop_f16_s16816gemm_relu_f16_256x128_32x3_nn_align8>" \
               "(cutlass_80_tensorop_f16_s16816gemm_relu_f16_256x128_32x3_nn_align8::Params)_v%d_" % i
        name += "x" * (330 - len(name))
        write(launch_event(ts, i) + ",\n" + kernel_event(name, ts + 5, i) + ",\n")
        ts += 10
    write(launch_event(ts, kernels + 1) + "\n]}\n")
    close()


def nsys_base(path, synth):
    if os.path.exists(path):
        os.remove(path)
    if synth:
        subprocess.run([synth, "--format", "nsys", "--kernels", "20000", "-o", path], check=True,
                       stdout=subprocess.DEVNULL)
    else:
        db = sqlite3.connect(path)
        db.executescript(
            "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO StringIds VALUES (0, 'volta_sgemm_128x64_nn');"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, "
            "contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, "
            "demangledName INTEGER, shortName INTEGER);"
            "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (500, 900, 0, 1, 7, 0, 16777216000, 0, 0);")
        db.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = OFF")
    return db


def nsys_unused_strings(path, synth, count=5_000_000):
    db = nsys_base(path, synth)
    first = db.execute("SELECT coalesce(max(id), 0) + 1 FROM StringIds").fetchone()[0]
    db.executemany("INSERT INTO StringIds VALUES (?, ?)",
                   ((first + i, "unused_string_%d_padding_to_forty_bytes" % i) for i in range(count)))
    db.commit()
    db.close()


def nsys_huge_string_id(path, synth):
    db = nsys_base(path, synth)
    db.execute("INSERT INTO StringIds VALUES (100000000, 'a_kernel_named_by_a_huge_id')")
    db.execute("CREATE TABLE IF NOT EXISTS CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, "
               "deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, "
               "globalPid INTEGER, demangledName INTEGER, shortName INTEGER)")
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
               "correlationId, globalPid, demangledName, shortName) "
               "VALUES (1000, 2000, 0, 1, 7, 0, 16777216000, 100000000, 100000000)")
    db.commit()
    db.close()


INPUTS = {
    "kineto-1g-name": ("kineto-1g-name.json.gz", kineto_1g_name),
    "kineto-1g-metadata": ("kineto-1g-metadata.json.gz", kineto_1g_metadata),
    "kineto-100m-name": ("kineto-100m-name.json.gz", kineto_100m_name),
    "kineto-million-names": ("kineto-million-names.json.gz", kineto_million_names),
    "nsys-unused-strings": ("nsys-unused-strings.sqlite", nsys_unused_strings),
    "nsys-huge-string-id": ("nsys-huge-string-id.sqlite", nsys_huge_string_id),
}


def measure(ampprof, path):
    """Peak RSS (MiB), wall seconds, exit status and the last line of stderr of `ampprof analyze`."""
    run = subprocess.run(["/usr/bin/time", "-v", ampprof, "analyze", path], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", run.stderr).group(1)
    seconds = 0.0
    for part in wall.split(":"):
        seconds = seconds * 60 + float(part)
    status = re.search(r"Exit status: (\d+)", run.stderr).group(1)
    own = [line for line in run.stderr.splitlines() if not line.startswith("\t") and "Command" not in line]
    return rss / 1024, seconds, status, (own[-1] if own else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--measure", metavar="AMPPROF")
    parser.add_argument("--synth", metavar="AMPPROF_SYNTH", help="base the nsys inputs on a synthetic export")
    parser.add_argument("--only", nargs="*", choices=sorted(INPUTS))
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    for key in args.only or INPUTS:
        file_name, make = INPUTS[key]
        path = os.path.join(args.dir, file_name)
        if not os.path.exists(path):
            if key.startswith("nsys"):
                make(path, args.synth)
            else:
                make(path)
        size = os.path.getsize(path)
        line = f"{key:22} {size / MB:8.1f} MB on disk"
        if args.measure:
            rss, seconds, status, last = measure(args.measure, path)
            line += f"  peak RSS {rss:8.1f} MiB  {seconds:7.1f} s  exit {status}  {last[:90]}"
        print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
