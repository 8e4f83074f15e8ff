/* Per-message cost: rank 0 sends N blocks of B bytes
 *   spread: one message to each of N peers (ranks 1..N), MPI_Isend x N + MPI_Waitall
 *   combined: one message of N*B bytes to one peer (rank 1)
 * and reports, for each N, the time from the first send until the last receiver holds its data
 * (simulated clocks are global, so receive completion times of different ranks compare), and the
 * time rank 0 spends in its send calls (posting + waiting).  Median over the repetitions.
 *
 * usage: many_small [-b BYTES] [-r REPETITIONS] [-n N,N,...]
 * Output CSV: n,bytes,spread_done_us,spread_sender_us,combined_done_us,combined_sender_us
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void* a, const void* b)
{
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Returns the completion time (max over receivers) relative to the sender's start; *sender gets
 * the sender's own time.  Only meaningful on rank 0. */
static double round_of(int spread, int n, int bytes, char* buf, MPI_Request* reqs, double* sender)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = 0, done = 0;
  if (rank == 0) {
    start = MPI_Wtime();
    if (spread) {
      for (int k = 0; k < n; k++)
        MPI_Isend(buf + (size_t)k * bytes, bytes, MPI_CHAR, k + 1, 0, MPI_COMM_WORLD, &reqs[k]);
      MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    } else {
      MPI_Isend(buf, n * bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &reqs[0]);
      MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    }
    *sender = MPI_Wtime() - start;
  } else if ((spread && rank <= n) || (!spread && rank == 1)) {
    MPI_Recv(buf, spread ? bytes : n * bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    done = MPI_Wtime();
  }
  MPI_Bcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double last = 0;
  MPI_Reduce(&done, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return last - start;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bytes = 8, reps = 5, ns[64], nn = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-b") && i + 1 < argc)
      bytes = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-r") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-n") && i + 1 < argc)
      for (char* t = strtok(argv[++i], ","); t && nn < 64; t = strtok(NULL, ","))
        ns[nn++] = atoi(t);
  }
  if (nn == 0)
    for (int n = 1; n < size && nn < 64; n *= 2)
      ns[nn++] = n;
  int nmax = 0;
  for (int k = 0; k < nn; k++)
    nmax = ns[k] > nmax ? ns[k] : nmax;
  if (nmax >= size) {
    if (rank == 0)
      fprintf(stderr, "many_small: N=%d needs %d ranks\n", nmax, nmax + 1);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char* buf = calloc((size_t)nmax * bytes + 1, 1);
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)nmax);
  double *sd = malloc(sizeof(double) * reps), *ss = malloc(sizeof(double) * reps);
  double *cd = malloc(sizeof(double) * reps), *cs = malloc(sizeof(double) * reps);
  if (rank == 0)
    printf("n,bytes,spread_done_us,spread_sender_us,combined_done_us,combined_sender_us\n");
  for (int k = 0; k < nn; k++) {
    for (int r = 0; r < reps; r++) {
      sd[r] = round_of(1, ns[k], bytes, buf, reqs, &ss[r]);
      cd[r] = round_of(0, ns[k], bytes, buf, reqs, &cs[r]);
    }
    if (rank == 0)
      printf("%d,%d,%.3f,%.3f,%.3f,%.3f\n", ns[k], bytes, median(sd, reps) * 1e6, median(ss, reps) * 1e6,
             median(cd, reps) * 1e6, median(cs, reps) * 1e6);
  }
  free(buf);
  free(reqs);
  free(sd);
  free(ss);
  free(cd);
  free(cs);
  MPI_Finalize();
  return 0;
}
