/* Application for the PMPI toy: rank r makes r+1 calls to MPI_Send, so each rank's counters in the
 * interposer must read r+1 if its state is per rank.  Rank 0 sends one message to rank 1; every
 * other rank sends to rank 0, which receives them in an order of its choosing.  Messages are
 * 100 kB, above the eager limit, so each MPI_Send blocks in PMPI_Send until rank 0 receives it
 * and the ranks interleave inside the wrapper. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BYTES 100000

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* buf = calloc(BYTES, 1);
  if (rank == 0) {
    MPI_Send(buf, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    long expected = 0;
    for (int r = 1; r < size; r++)
      expected += r + 1;
    for (long k = 0; k < expected; k++)
      MPI_Recv(buf, BYTES, MPI_CHAR, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    if (rank == 1)
      MPI_Recv(buf, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int k = 0; k <= rank; k++)
      MPI_Send(buf, BYTES, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
