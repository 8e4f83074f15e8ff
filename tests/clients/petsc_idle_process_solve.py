"""An unmodified petsc4py solver in which one process has an empty neighborhood.

    mpiexec -n <2 or more> petsc_idle_process_solve.py

A conjugate-gradient solve (Jacobi preconditioner) of a matrix whose last process owns rows
coupled only to its own columns: a 1-D Laplacian over the rows of the other processes, and a
block of its own (a second 1-D Laplacian) on the last. With -sf_type neighbor, the ghost exchange
of every MatMult is PetscSF's MPI_Ineighbor_alltoallv on a distributed graph in which the last
process has neither in- nor out-edges, so PETSc never calls the collective there, while all
processes meet in the dot products' MPI_Allreduce between exchanges: a Krylov solver's shape.
Prints the residual history, every norm with all its digits, for comparison between a native
and a preloaded run.
"""

import sys

import petsc4py

petsc4py.init([sys.argv[0], "-sf_type", "neighbor"])
from petsc4py import PETSc  # noqa: E402

ROWS_PER_PROCESS = 60


def main():
    comm = PETSc.COMM_WORLD
    size, rank = comm.getSize(), comm.getRank()
    total = ROWS_PER_PROCESS * size
    coupled = ROWS_PER_PROCESS * (size - 1)  # the rows of the Laplacian that spans processes
    matrix = PETSc.Mat().createAIJ(((ROWS_PER_PROCESS, total), (ROWS_PER_PROCESS, total)), nnz=(3, 2), comm=comm)
    start, end = matrix.getOwnershipRange()
    for row in range(start, end):
        # The last process's block starts its own chain: it never reaches a row of another process.
        first, last = (0, coupled - 1) if row < coupled else (coupled, total - 1)
        matrix.setValue(row, row, 2.0 + 0.001 * (row % 3))  # nearly singular: many iterations
        if row > first:
            matrix.setValue(row, row - 1, -1.0)
        if row < last:
            matrix.setValue(row, row + 1, -1.0)
    matrix.assemble()

    x, b = matrix.createVecs()
    with b as values:
        for i in range(end - start):
            values[i] = 1.0 + ((start + i) * 7919 % 13) / 13.0
    ksp = PETSc.KSP().create(comm=comm)
    ksp.setOperators(matrix)
    ksp.setType(PETSc.KSP.Type.CG)
    ksp.getPC().setType(PETSc.PC.Type.JACOBI)
    ksp.setTolerances(rtol=1e-14, atol=0.0, max_it=120)
    ksp.setConvergenceHistory()
    ksp.solve(b, x)
    history = ksp.getConvergenceHistory()
    if rank == 0:
        print("iterations=%d" % ksp.getIterationNumber())
        for norm in history:
            print("residual=%s" % norm.hex())
    solution_norm = x.norm()
    if rank == 0:
        print("solution_norm=%s" % solution_norm.hex())
    for obj in (ksp, matrix, x, b):  # before MPI_Finalize, where PETSc would collect them collectively
        obj.destroy()


main()
