#!/usr/bin/env bash
# Device memory detection on a machine with an NVIDIA GPU and its driver: builds gpu_check.cpp
# with src/base/device_memory.cpp using g++ alone (no CUDA toolkit, CMake or MPI needed) and runs it.
# Exit status: the check's (0 pass, 1 a wrong answer, 2 no usable GPU), 3 when it does not build.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

echo "== GPUs"
nvidia-smi -L || echo "(nvidia-smi missing or failed)"
echo "== libcuda.so.1 known to the loader"
{ ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep 'libcuda\.so\.1' || echo "(not in the loader cache)"
echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"

echo "== build"
g++ --version | head -n 1
g++ -std=c++17 -O2 -Wall -Wextra -I"$root" "$here/gpu_check.cpp" "$root/src/base/device_memory.cpp" \
    -o "$build/gpu_check" -ldl -pthread || exit 3

echo "== check"
"$build/gpu_check"
