#!/usr/bin/env bash
# Stages what a GPU machine needs to run ampprof and the CUDA samples into build/device-bundle, small
# enough for the device tool's 64 MiB carry: the GPU machines have CUDA, Python and PyTorch but none of
# this project's Debian packages, so the shared libraries ampprof links (fmt, spdlog, simdjson, ...)
# travel with it. Debug info is stripped from the copies. Run here, after building:
#
#   cmake --build build && tests/gpu/stage_device_bundle.sh build
#   device: run(command="tests/gpu/device_check.sh", carry=["build/device-bundle"])
set -euo pipefail
build=${1:-build}
bundle="$build/device-bundle"
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/samples"

cp "$build/src/cli/ampprof" "$build/src/cli/libampprof_inject.so" "$bundle/bin/"
cp -r "$build/src/cli/python" "$bundle/bin/"  # the PyTorch shim, found beside the executable
if [[ -d "$build/samples/cuda" ]]; then
  find "$build/samples/cuda" -maxdepth 1 -type f -executable -exec cp {} "$bundle/samples/" \;
fi

# The NVTX probe (tests/gpu/nvtx_probe.cu), a bare CUPTI client, where this machine has nvcc.
cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [[ -x "$cuda_home/bin/nvcc" ]]; then
  "$cuda_home/bin/nvcc" -std=c++17 -O2 -o "$bundle/samples/nvtx_probe" "$(dirname "$0")/nvtx_probe.cu" \
    -I"$cuda_home/include" -L"$cuda_home/lib" -L"$cuda_home/lib64" -lcupti
fi

# Every shared library ampprof needs that is not part of the C runtime or CUDA (which the GPU machine has).
ldd "$build/src/cli/ampprof" | awk '/=> \// {print $3}' | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libgcc_s.so*|libstdc++.so*) ;;
    *) cp -L "$lib" "$bundle/lib/" ;;
  esac
done
find "$bundle" -type f \( -name '*.so*' -o -perm -u+x \) -exec strip --strip-debug {} \; 2>/dev/null || true
du -sh "$bundle"
