#!/usr/bin/env bash
# Builds the SimGrid library the large simulations need: 3.32, the release Debian 12 packages,
# with SimGrid's own commit 5f8fc2c ("Replaced std::list by std::set to keep track of activities",
# released in 3.34) picked onto it. In 3.32 every completed detached communication is removed from
# a list of all of them in the simulation, and MPI_Waitall tests every request of its array, so a
# simulation of thousands of processes spends its time scanning that list (README.md, section 6).
# The result replaces the package's libsimgrid.so.3.32 (same version, same interface): the
# package's headers, smpirun and smpimain stay, and so does the platform, whose factor callbacks
# moved to another class in 3.34. smpirun-cluster.sh loads it wherever PREFIX/lib holds it.
#
#   bench/smpi/build-simgrid.sh [--source REPOSITORY] [--prefix DIR]
#
# --source: a git repository of SimGrid (a clone of simgrid/simgrid with its release tags);
#           without it, one is cloned from GitHub. --prefix: where lib/ goes (build-simgrid/).
# Takes about 10 minutes on 2 cores (the library alone: model checking, LTO, Java, Python,
# Fortran and the documentation off).
set -euo pipefail
cd "$(dirname "$0")/../.."

source_repository=
prefix=$PWD/build-simgrid
while [[ $# -gt 0 ]]; do
  case $1 in
    --source) source_repository=$(cd "$2" && pwd); shift ;;
    --prefix) prefix=$(mkdir -p "$2" && cd "$2" && pwd); shift ;;
    *) sed -n '10,15p' "$0" >&2; exit 2 ;;
  esac
  shift
done

release=v3.32
fix=5f8fc2c2031a31ec67a448f89a3524a2e170569d
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -z $source_repository ]]; then
  git clone --quiet --bare https://github.com/simgrid/simgrid.git "$work/repository"
  source_repository=$work/repository
fi
if ! git -C "$source_repository" merge-base --is-ancestor "$fix" v3.34; then
  echo "build-simgrid.sh: $source_repository lacks SimGrid's commit $fix or its release v3.34" >&2
  exit 1
fi

# The release's tree without its documentation (whose large files a partial copy may lack), and
# the commit on top of it.
mkdir "$work/simgrid"
mapfile -t entries < <(git -C "$source_repository" ls-tree --name-only "$release" | grep -vx docs)
git -C "$source_repository" archive "$release" "${entries[@]}" | tar -x -C "$work/simgrid"
git -C "$source_repository" format-patch -1 --stdout "$fix" | patch -p1 -s -d "$work/simgrid"

# SimGrid's configuration leaves a test program in the working directory.
cd "$work"
cmake -S "$work/simgrid" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -Denable_compile_optimizations=ON \
  -Denable_debug=OFF -Denable_model-checking=OFF -Denable_lto=OFF -Denable_java=OFF -Denable_python=OFF \
  -Denable_fortran=OFF -Denable_documentation=OFF -Denable_smpi=ON >"$work/configure.log" ||
  { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" -j "$(nproc)" --target simgrid
mkdir -p "$prefix/lib"
cp -P "$work/build/lib/libsimgrid.so"* "$prefix/lib/"
strip --strip-unneeded "$prefix"/lib/libsimgrid.so.*.*
echo "build-simgrid.sh: $(ls "$prefix"/lib/libsimgrid.so.*) ($release with $fix)"
