"""An unmodified petsc4py program whose PetscSF of type neighbor libnbrcomb.so runs when preloaded.

    mpiexec -n <2 or more> petsc_sf_neighbor.py {library|native}

PetscSF `neighbor` builds its communicators with MPI_Dist_graph_create_adjacent (reorder=1,
weighted) and moves data with MPI_Ineighbor_alltoallv. Every rank's leaves reference roots on
every rank, and some roots are referenced from every rank, so ranks share neighbors and reduce
has real sums to make. The program broadcasts roots to leaves and reduces leaves into roots
(int64 with MPI.REPLACE and MPI.SUM on numpy arrays, doubles from and into a PETSc Vec) through
one SF of type neighbor set by setType and one set by the option -sf_type neighbor, and compares
every result with the values this program computes and, byte for byte, with an SF of type basic.
The same option gives an MPIAIJ matrix a neighbor SF for its ghost entries: MatMult and
MatMultTranspose are compared with the products this program computes.

With `library`, the library's report at MPI_Finalize (NBRCOMB_REPORT) must count one call run
by the library per bcast and reduce of each neighbor SF on each rank, and combining schedules;
with `native`, the library must be absent. Exits 1 on any failure, saying which check failed.
"""

import ctypes
import os
import random
import re
import shutil
import sys
import tempfile
import traceback

# The library reads NBRCOMB_REPORT when MPI starts. Only rank 0 writes the report, but every
# rank has to ask for it, and no rank knows its rank yet.
report_dir = None
if len(sys.argv) > 1 and sys.argv[1] == "library":
    report_dir = tempfile.mkdtemp(prefix="nbrcomb-petsc-report-")
    os.environ["NBRCOMB_REPORT"] = os.path.join(report_dir, "report")

import numpy as np  # noqa: E402
from mpi4py import MPI  # noqa: E402
import petsc4py  # noqa: E402

# As a user asks for it on the command line; it reaches the SFs that take their type from the
# options, among them the one MatMult of an MPIAIJ matrix scatters ghost entries with.
petsc4py.init([sys.argv[0], "-sf_type", "neighbor"])
from petsc4py import PETSc  # noqa: E402

SEED = 2017
SENTINEL = -1


def nroots(rank):
    return 3 + rank


def leaf_graph(size, rank, seed):
    """Rank's leaves as (root rank, root index) pairs: root 0 of every rank (shared by all
    ranks' leaves) and one to three more random roots of every rank, in a seeded order."""
    rng = random.Random(seed * 1000 + rank)
    leaves = []
    for owner in range(size):
        leaves.append((owner, 0))
        leaves += [(owner, rng.randrange(nroots(owner))) for _ in range(rng.randint(1, 3))]
    rng.shuffle(leaves)
    return leaves


def leaf_positions(leaves):
    """Every other slot of the leaf array, so that bcast must leave the slots between alone."""
    return [2 * index + 1 for index in range(len(leaves))]


def root_value(owner, index):
    return 1000 * owner + index + 1


def leaf_value(rank, leaf):
    return 100000 * (rank + 1) + leaf


def make_sf(comm, rank, leaves, how):
    sf = PETSc.SF().create(comm=comm)
    if how == "basic":
        sf.setType(PETSc.SF.Type.BASIC)
    elif how == "setType":
        sf.setType(PETSc.SF.Type.NEIGHBOR)
    else:
        sf.setFromOptions()
    remote = np.array([part for leaf in leaves for part in leaf], dtype=PETSc.IntType)
    sf.setGraph(nroots(rank), np.array(leaf_positions(leaves), dtype=PETSc.IntType), remote)
    sf.setUp()
    return sf


class Run:
    """The results of one SF's operations, and the number of operations it communicated with."""

    def __init__(self, sf, rank, leaves):
        self.sf, self.rank, self.leaves = sf, rank, leaves
        self.results = {}
        self.operations = 0

    def leaf_array(self, dtype):
        return np.full(2 * len(self.leaves) + 1, SENTINEL, dtype)

    def bcast(self, name, unit, rootdata, leafdata, op):
        self.sf.bcastBegin(unit, rootdata, leafdata, op)
        self.sf.bcastEnd(unit, rootdata, leafdata, op)
        self.results[name] = leafdata.copy()
        self.operations += 1

    def reduce(self, name, unit, leafdata, rootdata, op):
        self.sf.reduceBegin(unit, leafdata, rootdata, op)
        self.sf.reduceEnd(unit, leafdata, rootdata, op)
        self.results[name] = rootdata.copy()
        self.operations += 1

    def run_all(self, comm):
        rank, leaves = self.rank, self.leaves
        roots = np.array([root_value(rank, index) for index in range(nroots(rank))], np.int64)
        leafdata = self.leaf_array(np.int64)
        self.bcast("bcast int64 REPLACE", MPI.INT64_T, roots, leafdata, MPI.REPLACE)
        self.bcast("bcast int64 SUM (onto the leaves of the first bcast)", MPI.INT64_T, roots, leafdata, MPI.SUM)

        own_leaves = self.leaf_array(np.int64)
        own_leaves[leaf_positions(leaves)] = [leaf_value(rank, leaf) for leaf in range(len(leaves))]
        rootdata = roots.copy()
        self.reduce("reduce int64 SUM", MPI.INT64_T, own_leaves, rootdata, MPI.SUM)

        vec = PETSc.Vec().createMPI((nroots(rank), PETSc.DECIDE), comm=comm)
        vec.setArray(roots.astype(PETSc.ScalarType))
        leaf_doubles = self.leaf_array(PETSc.ScalarType)
        self.bcast("bcast Vec of doubles REPLACE", MPI.DOUBLE, vec.getArray(readonly=True), leaf_doubles, MPI.REPLACE)
        with vec as vec_array:  # the Vec's own storage, written in place by the reduce
            self.reduce("reduce doubles SUM into a Vec", MPI.DOUBLE, own_leaves.astype(PETSc.ScalarType),
                        vec_array, MPI.SUM)
        vec.destroy()


def matrix_entry(row, column):
    """Nonzero on the diagonal and where row + column is a multiple of 3: every row has columns
    in the block of every rank, since each rank owns three or more consecutive columns."""
    return 1 + (row + 2 * column) % 4 if row == column or (row + column) % 3 == 0 else 0


def run_matmult(comm, rank, size):
    """y = A x and z = A^T w with an MPIAIJ matrix: the ghost exchange is the matrix's SF
    (neighbor by the option), a bcast for each A x and a reduce for A^T w. Returns the results,
    the number of those SF operations, and the matrix type."""
    rows = [nroots(other) for other in range(size)]
    start, total = sum(rows[:rank]), sum(rows)
    indptr, indices, values = [0], [], []
    for row in range(start, start + rows[rank]):
        columns = [column for column in range(total) if matrix_entry(row, column)]
        indices += columns
        values += [matrix_entry(row, column) for column in columns]
        indptr.append(len(indices))
    matrix = PETSc.Mat().createAIJ(((rows[rank], total), (rows[rank], total)), comm=comm,
                                   csr=(np.array(indptr, PETSc.IntType), np.array(indices, PETSc.IntType),
                                        np.array(values, PETSc.ScalarType)))
    matrix.assemble()
    x, y = matrix.createVecs()
    owned = np.arange(start, start + rows[rank]) + 1.0
    x.setArray(owned)
    results = {}
    for name in ("MatMult", "MatMult again"):
        y.set(SENTINEL)
        matrix.mult(x, y)
        results[name] = y.getArray().copy()
    y.setArray(owned)
    matrix.multTranspose(y, x)
    results["MatMultTranspose"] = x.getArray().copy()
    matrix_type = matrix.getType()
    for petsc_object in (matrix, x, y):
        petsc_object.destroy()
    return results, len(results), matrix_type


def expected_matmult(size, rank):
    rows = [nroots(other) for other in range(size)]
    start, total = sum(rows[:rank]), sum(rows)
    owned = range(start, start + rows[rank])
    product = np.array([sum(matrix_entry(row, column) * (column + 1) for column in range(total)) for row in owned])
    transposed = np.array([sum(matrix_entry(row, column) * (row + 1) for row in range(total)) for column in owned])
    return {"MatMult": product, "MatMult again": product, "MatMultTranspose": transposed}


def expected_results(size, rank, leaves_of):
    """The values every operation of Run.run_all must give, computed from the graph alone."""
    leaves = leaves_of[rank]
    positions = leaf_positions(leaves)
    bcast = np.full(2 * len(leaves) + 1, SENTINEL, np.int64)
    bcast[positions] = [root_value(owner, index) for owner, index in leaves]
    bcast_twice = bcast.copy()
    bcast_twice[positions] *= 2
    reduced = np.array([root_value(rank, index) for index in range(nroots(rank))], np.int64)
    for other in range(size):
        for leaf, (owner, index) in enumerate(leaves_of[other]):
            if owner == rank:
                reduced[index] += leaf_value(other, leaf)
    return {
        "bcast int64 REPLACE": bcast,
        "bcast int64 SUM (onto the leaves of the first bcast)": bcast_twice,
        "reduce int64 SUM": reduced,
        "bcast Vec of doubles REPLACE": bcast.astype(np.float64),
        "reduce doubles SUM into a Vec": reduced.astype(np.float64),
    }


def report_number(text, label):
    match = re.search(label + r"\s+(\d+)", text)
    if match is None:
        raise RuntimeError(f"the library's report has no line '{label}':\n{text}")
    return int(match.group(1))


def main():
    run_mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if run_mode not in ("library", "native"):
        sys.exit(__doc__)
    comm = PETSc.COMM_WORLD
    world = MPI.COMM_WORLD
    rank, size = world.Get_rank(), world.Get_size()
    if size < 2:
        sys.exit("petsc_sf_neighbor.py needs two or more ranks: on one, PETSc sends nothing")
    library_loaded = getattr(ctypes.CDLL(None), "nbrcomb_version", None) is not None
    problems = []
    if run_mode == "library" and not library_loaded:
        problems.append("libnbrcomb.so is not loaded (nbrcomb_version not found); is LD_PRELOAD set?")
    if run_mode == "native" and library_loaded:
        problems.append("libnbrcomb.so is loaded in the native run")

    leaves_of = [leaf_graph(size, other, SEED) for other in range(size)]
    expected = expected_results(size, rank, leaves_of)
    runs = {}
    for how in ("basic", "setType", "option"):
        sf = make_sf(comm, rank, leaves_of[rank], how)
        if how != "basic" and sf.getType() != PETSc.SF.Type.NEIGHBOR:
            problems.append(f"the SF made by {how} has type {sf.getType()}, not neighbor")
        runs[how] = Run(sf, rank, leaves_of[rank])
        runs[how].run_all(comm)
        sf.destroy()
    for how, run in runs.items():
        for name, result in run.results.items():
            if result.tobytes() != expected[name].tobytes():
                problems.append(f"SF {how}: {name} gives {result.tolist()}, expected {expected[name].tolist()}")
            if result.tobytes() != runs["basic"].results[name].tobytes():
                problems.append(f"SF {how}: {name} differs from SF basic")
    matmult_results, matmult_operations, matrix_type = run_matmult(comm, rank, size)
    if matrix_type != PETSc.Mat.Type.MPIAIJ:
        problems.append(f"the matrix has type {matrix_type}, not mpiaij")
    expected_products = expected_matmult(size, rank)
    for name, result in matmult_results.items():
        expected_result = expected_products[name]
        if result.tobytes() != expected_result.astype(PETSc.ScalarType).tobytes():
            problems.append(f"{name} gives {result.tolist()}, expected {expected_result.tolist()}")
    neighbor_operations = runs["setType"].operations + runs["option"].operations + matmult_operations

    everyone = world.gather(problems, root=0)
    PETSc._finalize()
    MPI.Finalize()  # writes the library's report
    failed = False
    if rank == 0:
        for reporting_rank, rank_problems in enumerate(everyone):
            for problem in rank_problems:
                failed = True
                print(f"petsc4py SF, {run_mode}, rank {reporting_rank}: {problem}", file=sys.stderr)
        if run_mode == "library":
            failed |= not check_report(report_dir, size, neighbor_operations)
        if not failed:
            print(f"petsc4py SF, {run_mode}: neighbor and basic SFs give the expected values, byte for byte"
                  + (", and the library ran every neighbor SF operation" if run_mode == "library" else ""))
    sys.exit(1 if failed else 0)


def check_report(directory, size, neighbor_operations):
    """PetscSF neighbor makes one MPI_Ineighbor_alltoallv per bcast and reduce on every rank
    (all ranks have neighbors in both directions here); the library counts each it runs."""
    path = os.path.join(directory, "report.0.txt")
    if not os.path.exists(path):
        print(f"petsc4py SF, library: no library report {path}; the library did not see MPI_Finalize",
              file=sys.stderr)
        return False
    with open(path) as report:
        text = report.read()
    print(text, end="")
    calls = report_number(text, "neighborhood collective calls")
    rounds = report_number(text, "schedule rounds")
    communicators = report_number(text, "topology communicators managed")
    expected_calls = neighbor_operations * size
    ok = True
    if communicators == 0:
        print("petsc4py SF, library: the library manages none of PetscSF's dist-graph communicators",
              file=sys.stderr)
        ok = False
    if calls != expected_calls:
        print(f"petsc4py SF, library: the library did not run the PetscSF neighbor calls "
              f"(MPI_Ineighbor_alltoallv): it ran {calls} neighborhood collectives, the program made "
              f"{neighbor_operations} bcast/reduce operations on neighbor SFs on each of {size} ranks "
              f"({expected_calls})", file=sys.stderr)
        ok = False
    # A combining schedule takes two or three rounds, the direct one a single one (README).
    if calls > 0 and rounds <= calls:
        print("petsc4py SF, library: no call ran a combining schedule: the graph gave the library nothing "
              "to combine at these settings", file=sys.stderr)
        ok = False
    return ok


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
