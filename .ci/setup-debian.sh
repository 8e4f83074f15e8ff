#!/usr/bin/env bash
# Installs the Debian 12 packages nbrcomb builds, tests and benchmarks with; apt runs only when
# one of them is missing, so repeated runs cost nothing.
set -euo pipefail

packages=(
  cmake g++ gfortran make pkg-config
  libopenmpi-dev openmpi-bin libmpich-dev mpich
  libhwloc-dev libmetis-dev libgtest-dev googletest
  gnuplot-nox
  python3-mpi4py python3-petsc4py python3-dolfinx
  libsimgrid-dev
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$package")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "setup-debian.sh: missing packages ${missing[*]}; run as root or install sudo" >&2
    exit 1
  fi
  as_root=(sudo)
fi
echo "setup-debian.sh: installing ${missing[*]}"
"${as_root[@]}" apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
