"""A small DOLFINx program as its users write one: a P2 Poisson problem on the unit square,
solved with PETSc's conjugate gradients. DOLFINx builds its index maps and scatterers on many
short-lived distributed-graph communicators and runs its ghost updates with
MPI_Ineighbor_alltoallv. Rank 0 prints the L2 norm of the solution."""
import numpy as np
import ufl
from dolfinx import fem, mesh
from dolfinx.fem.petsc import LinearProblem
from mpi4py import MPI
from petsc4py import PETSc

domain = mesh.create_unit_square(MPI.COMM_WORLD, 24, 24)
space = fem.FunctionSpace(domain, ("Lagrange", 2))
boundary = mesh.locate_entities_boundary(domain, 1, lambda x: np.full(x.shape[1], True))
condition = fem.dirichletbc(PETSc.ScalarType(0), fem.locate_dofs_topological(space, 1, boundary), space)
u, v = ufl.TrialFunction(space), ufl.TestFunction(space)
x = ufl.SpatialCoordinate(domain)
source = 10 * ufl.exp(-((x[0] - 0.5) ** 2 + (x[1] - 0.5) ** 2) / 0.02)
problem = LinearProblem(ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx, source * v * ufl.dx, bcs=[condition],
                        petsc_options={"ksp_type": "cg", "pc_type": "jacobi", "ksp_rtol": 1e-12})
solution = problem.solve()
square = domain.comm.allreduce(fem.assemble_scalar(fem.form(solution * solution * ufl.dx)), op=MPI.SUM)
if domain.comm.rank == 0:
    print(f"norm={np.sqrt(square):.17g}")
