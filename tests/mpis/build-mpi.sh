#!/usr/bin/env bash
# Builds an MPI from its source tree into a prefix of its own, beside the system's MPIs:
#   tests/mpis/build-mpi.sh SOURCE_DIR PREFIX [CONFIGURE_ARGUMENT...]
# An Open MPI tree (it has ompi/) gets its bundled PMIx and PRRTE, as Debian 12's PMIx is older
# than Open MPI 5's PRRTE takes, and the system's hwloc and libevent; an MPICH tree (it has
# src/mpid/) its default ch4 device. Both with Fortran, without documentation. Further arguments
# go to configure. The build runs in PREFIX/build, out of the tree. A prefix built from the same
# tree with the same arguments is kept as it is. Open MPI 5.0 takes 30 to 60 minutes on 2 cores.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: build-mpi.sh SOURCE_DIR PREFIX [CONFIGURE_ARGUMENT...]" >&2
  exit 2
fi
source_dir=$(realpath "$1")
prefix=$(realpath -m "$2")
shift 2

if [[ -d $source_dir/ompi ]]; then
  configure=(--with-pmix=internal --with-prrte=internal --with-hwloc=external --with-libevent=external
             --enable-mpi-fortran=all --disable-oshmem --disable-sphinx)
  packages=(libhwloc-dev libevent-dev gfortran make)
elif [[ -d $source_dir/src/mpid ]]; then
  configure=(--enable-fortran=all --disable-doc)
  packages=(gfortran make)
else
  echo "build-mpi.sh: $source_dir is neither an Open MPI nor an MPICH source tree" >&2
  exit 2
fi
configure+=("$@")

stamp=$prefix/.built-from
wanted="$source_dir ${configure[*]}"
if [[ -x $prefix/bin/mpicc && -f $stamp && $(cat "$stamp") == "$wanted" ]]; then
  echo "build-mpi.sh: $prefix holds it already"
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true) == "install ok installed" ]] || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

# A tree from git has no configure yet; a release tarball (and Debian's source package) has one.
if [[ ! -x $source_dir/configure ]]; then
  if [[ -x $source_dir/autogen.pl ]]; then (cd "$source_dir" && ./autogen.pl); else (cd "$source_dir" && ./autogen.sh); fi
fi

mkdir -p "$prefix/build"
cd "$prefix/build"
"$source_dir/configure" --prefix="$prefix" "${configure[@]}"
make -j"$(nproc)"
make install
echo "$wanted" > "$stamp"
echo "build-mpi.sh: built into $prefix"
