/* Neighbor exchange for measuring what a simulation costs: every rank of a periodic PX x PY grid
 * exchanges one message with each of its 24 neighbors (the 5x5 stencil without its center) by
 * MPI_Irecv / MPI_Isend / MPI_Waitall, ITERATIONS times.
 *   -m aligned     an MPI_Barrier before every exchange (as a benchmark separating its calls)
 *   -m streaming   exchanges back to back (as an application's time steps)
 * Prints the simulated time per exchange.  The simulator's own cost is measured from outside
 * (cost/run-cost.sh: CPU time of the whole run minus that of a run with -i 0), because the ranks
 * do not leave a barrier together in real time, so no rank can time a phase from inside.
 *
 * usage: exchange [-b BYTES] [-i ITERATIONS] [-m aligned|streaming]   (grid: squarest PX x PY = size)
 * Output (CSV): ranks,bytes,iterations,mode,sim_us_per_exchange
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, bytes = 64, iters = 4, aligned = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-b") && i + 1 < argc)
      bytes = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-i") && i + 1 < argc)
      iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-m") && i + 1 < argc)
      aligned = strcmp(argv[++i], "streaming") != 0;
  }
  int px = 1;
  for (int d = 1; d * d <= size; d++)
    if (size % d == 0)
      px = d;
  const int py = size / px, x = rank % px, y = rank / px;
  int nbr[24], n = 0;
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++)
      if (dx || dy)
        nbr[n++] = ((y + dy + py) % py) * px + (x + dx + px) % px;
  char* sendbuf = calloc((size_t)n * bytes + 1, 1);
  char* recvbuf = calloc((size_t)n * bytes + 1, 1);
  MPI_Request req[48];

  double sim_total = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int it = 0; it < iters; it++) {
    if (aligned) {
      MPI_Barrier(MPI_COMM_WORLD);
      start = MPI_Wtime();
    }
    for (int k = 0; k < n; k++) /* tag = direction, so that repeated neighbors on small grids match */
      MPI_Irecv(recvbuf + (size_t)k * bytes, bytes, MPI_CHAR, nbr[k], n - 1 - k, MPI_COMM_WORLD, &req[k]);
    for (int k = 0; k < n; k++)
      MPI_Isend(sendbuf + (size_t)k * bytes, bytes, MPI_CHAR, nbr[k], k, MPI_COMM_WORLD, &req[n + k]);
    MPI_Waitall(2 * n, req, MPI_STATUSES_IGNORE);
    if (aligned || it == iters - 1) {
      /* simulated clocks are global: from the last rank to start to the last one done */
      double span[2] = {start, MPI_Wtime()}, last[2] = {0, 0};
      MPI_Allreduce(span, last, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      sim_total += last[1] - last[0];
    }
  }
  if (rank == 0)
    printf("ranks,bytes,iterations,mode,sim_us_per_exchange\n%d,%d,%d,%s,%.3f\n", size, bytes, iters,
           aligned ? "aligned" : "streaming", iters ? sim_total / iters * 1e6 : 0.0);
  free(sendbuf);
  free(recvbuf);
  MPI_Finalize();
  return 0;
}
