"""A PETSc DMDA ghost update on a 3-D box stencil, unmodified, run by libnbrcomb.so when preloaded.

    mpiexec -n 8 petsc_dmda_ghosts.py {library|native}

The DMDA spreads a 6 x 6 x 6 grid over a 2 x 2 x 2 grid of processes with a box stencil of width 1,
periodic in x and bounded in y and z, and the option -sf_type neighbor gives its global-to-local
scatter a PetscSF of type neighbor: MPI_Dist_graph_create_adjacent and MPI_Ineighbor_alltoallv,
every process a neighbor of the 7 others. The global vector holds a value computed from each
point's indices; after DMGlobalToLocal (done twice, the second time onto a local vector already
filled) every entry of every local vector, ghosts included, must hold the value of the point it
stands for, byte for byte, natively and with the library.

With `library` (meant for NBRCOMB_MODE=dimwise), the library's report at MPI_Finalize must count
the ghost updates as its calls and 3 messages per process and call where native MPI sends 7: one
per dimension of the grid of processes. With `native`, the library must be absent. Exits 1 on any
failure, saying which check failed.
"""

import ctypes
import os
import re
import shutil
import sys
import tempfile
import traceback

# The library reads NBRCOMB_REPORT when MPI starts, on every rank.
report_dir = None
if len(sys.argv) > 1 and sys.argv[1] == "library":
    report_dir = tempfile.mkdtemp(prefix="nbrcomb-dmda-report-")
    os.environ["NBRCOMB_REPORT"] = os.path.join(report_dir, "report")

import numpy as np  # noqa: E402
from mpi4py import MPI  # noqa: E402
import petsc4py  # noqa: E402

petsc4py.init([sys.argv[0], "-sf_type", "neighbor"])
from petsc4py import PETSc  # noqa: E402

SIZES = (6, 6, 6)
PROCESSES = (2, 2, 2)
UPDATES = 2


def point_value(i, j, k):
    return 1.0 + i + 10.0 * j + 100.0 * k + 0.25 * ((i * 7 + j * 3 + k) % 5)


def ghost_update_problems(rank):
    """Runs the ghost updates; returns what differs from the values every point must hold."""
    da = PETSc.DMDA().create(dim=3, sizes=SIZES, proc_sizes=PROCESSES, dof=1,
                             boundary_type=(PETSc.DM.BoundaryType.PERIODIC, PETSc.DM.BoundaryType.NONE,
                                            PETSc.DM.BoundaryType.NONE),
                             stencil_type=PETSc.DMDA.StencilType.BOX, stencil_width=1,
                             comm=PETSc.COMM_WORLD)
    global_vec = da.createGlobalVec()
    owned = da.getVecArray(global_vec)
    (xs, xe), (ys, ye), (zs, ze) = da.getRanges()
    for i in range(xs, xe):
        for j in range(ys, ye):
            for k in range(zs, ze):
                owned[i, j, k] = point_value(i, j, k)
    del owned
    local_vec = da.createLocalVec()
    (gxs, gxe), (gys, gye), (gzs, gze) = da.getGhostRanges()
    problems = []
    for update in range(UPDATES):
        local_vec.set(-1.0)
        da.globalToLocal(global_vec, local_vec)
        got = da.getVecArray(local_vec)
        for i in range(gxs, gxe):
            for j in range(gys, gye):
                for k in range(gzs, gze):
                    expected = point_value(i % SIZES[0], j, k)
                    if np.float64(got[i, j, k]).tobytes() != np.float64(expected).tobytes():
                        problems.append(f"rank {rank}, update {update}: local ({i},{j},{k}) holds {got[i, j, k]}, "
                                        f"expected {expected}")
        del got
    for petsc_object in (local_vec, global_vec, da):
        petsc_object.destroy()
    return problems


def report_numbers(text, label):
    match = re.search(label + r"\s+(\d+) \(native MPI: (\d+)", text)
    if match is None:
        raise RuntimeError(f"the library's report has no line '{label}':\n{text}")
    return int(match.group(1)), int(match.group(2))


def check_report(directory, size):
    path = os.path.join(directory, "report.0.txt")
    if not os.path.exists(path):
        print(f"DMDA, library: no library report {path}; the library did not see MPI_Finalize", file=sys.stderr)
        return False
    with open(path) as report:
        text = report.read()
    print(text, end="")
    calls = int(re.search(r"neighborhood collective calls\s+(\d+)", text).group(1))
    sent, native = report_numbers(text, "messages of the library's calls")
    ok = True
    if calls != UPDATES * size:
        print(f"DMDA, library: the library ran {calls} neighborhood collectives, the program made "
              f"{UPDATES} ghost updates on each of {size} ranks", file=sys.stderr)
        ok = False
    if calls > 0 and (native != 7 * calls or sent != 3 * calls):
        print(f"DMDA, library: {sent / calls:.2f} messages per process and call, native MPI {native / calls:.2f}; "
              "expected 3 and 7", file=sys.stderr)
        ok = False
    return ok


def main():
    run_mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if run_mode not in ("library", "native"):
        sys.exit(__doc__)
    world = MPI.COMM_WORLD
    rank, size = world.Get_rank(), world.Get_size()
    if size != 8:
        sys.exit("petsc_dmda_ghosts.py runs on 8 ranks, a 2 x 2 x 2 grid of processes")
    library_loaded = getattr(ctypes.CDLL(None), "nbrcomb_version", None) is not None
    problems = []
    if run_mode == "library" and not library_loaded:
        problems.append("libnbrcomb.so is not loaded (nbrcomb_version not found); is LD_PRELOAD set?")
    if run_mode == "native" and library_loaded:
        problems.append("libnbrcomb.so is loaded in the native run")
    problems += ghost_update_problems(rank)

    everyone = world.gather(problems, root=0)
    PETSc._finalize()
    MPI.Finalize()  # writes the library's report
    failed = False
    if rank == 0:
        for problem in (p for per_rank in everyone for p in per_rank):
            print(f"DMDA, {run_mode}: {problem}", file=sys.stderr)
            failed = True
        if run_mode == "library" and not check_report(report_dir, size):
            failed = True
        if not failed:
            print(f"DMDA, {run_mode}: every local vector holds its points' values after {UPDATES} ghost updates")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    try:
        main()
    except Exception:
        # An error on one rank would leave the others waiting in a collective until the timeout.
        traceback.print_exc()
        if not MPI.Is_finalized():
            MPI.COMM_WORLD.Abort(1)
        sys.exit(1)
    finally:
        if report_dir:
            shutil.rmtree(report_dir, ignore_errors=True)
