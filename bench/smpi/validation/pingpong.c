/* Ping-pong between rank 0 and each of the ranks given with -p (default: rank 1), measured like the
 * SimGrid platform-calibration benchmark that produced the Stampede reference data:
 *   - half round trip: (MPI_Send + MPI_Recv duration on rank 0) / 2, median over the iterations
 *   - send:  duration of MPI_Send on rank 0 inside the ping-pong
 *   - isend: duration of the MPI_Isend call alone
 * Output, one CSV line per (peer, size):  peer,size,half_rtt_us,send_us,isend_us
 *
 * usage: pingpong [-p PEER]... [-i ITERATIONS] [-s SIZE,SIZE,... | -f SIZE_FILE]
 *   SIZE_FILE: one size per line (a CSV with the size in the second column is accepted too)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PEERS 64
#define MAX_SIZES 4096

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

static int read_sizes(const char* path, long* sizes)
{
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    perror(path);
    return 0;
  }
  char line[256];
  int n = 0;
  while (n < MAX_SIZES && fgets(line, sizeof line, f) != NULL) {
    char* comma = strchr(line, ',');
    char* field = comma ? comma + 1 : line; /* "run,size,..." or "size" */
    char* end;
    long s = strtol(field, &end, 10);
    if (end != field && s >= 0 && (n == 0 || s != sizes[n - 1]))
      sizes[n++] = s;
  }
  fclose(f);
  return n;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int peers[MAX_PEERS], npeers = 0, iterations = 10, nsizes = 0;
  static long sizes[MAX_SIZES];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-p") && i + 1 < argc && npeers < MAX_PEERS)
      peers[npeers++] = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-i") && i + 1 < argc)
      iterations = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
      for (char* tok = strtok(argv[++i], ","); tok && nsizes < MAX_SIZES; tok = strtok(NULL, ","))
        sizes[nsizes++] = atol(tok);
    } else if (!strcmp(argv[i], "-f") && i + 1 < argc)
      nsizes = read_sizes(argv[++i], sizes);
  }
  if (npeers == 0)
    peers[npeers++] = 1;
  if (nsizes == 0) {
    const long def[] = {1, 8, 64, 149, 150, 512, 1024, 4096, 8000, 8192, 16384, 17407, 17408, 65536, 262144, 1048576};
    nsizes = (int)(sizeof def / sizeof def[0]);
    memcpy(sizes, def, sizeof def);
  }
  long max_size = 0;
  for (int k = 0; k < nsizes; k++)
    max_size = sizes[k] > max_size ? sizes[k] : max_size;
  char* buf = calloc((size_t)max_size + 1, 1);
  double* rtt = malloc(sizeof(double) * (size_t)iterations);
  double* snd = malloc(sizeof(double) * (size_t)iterations);
  double* isd = malloc(sizeof(double) * (size_t)iterations);

  if (rank == 0)
    printf("peer,size,half_rtt_us,send_us,isend_us\n");
  for (int p = 0; p < npeers; p++) {
    const int peer = peers[p];
    if (peer <= 0 || peer >= size) {
      if (rank == 0)
        fprintf(stderr, "pingpong: peer %d out of range\n", peer);
      continue;
    }
    for (int k = 0; k < nsizes; k++) {
      const int count = (int)sizes[k];
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0) {
        /* one warm-up round trip, then the measured ones */
        MPI_Send(buf, count, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, count, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int it = 0; it < iterations; it++) {
          double t0 = MPI_Wtime();
          MPI_Send(buf, count, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
          double t1 = MPI_Wtime();
          MPI_Recv(buf, count, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          double t2 = MPI_Wtime();
          rtt[it] = t2 - t0;
          snd[it] = t1 - t0;
        }
        for (int it = 0; it < iterations; it++) {
          MPI_Request req;
          double t0 = MPI_Wtime();
          MPI_Isend(buf, count, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &req);
          isd[it] = MPI_Wtime() - t0;
          MPI_Wait(&req, MPI_STATUS_IGNORE);
          MPI_Recv(buf, count, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        printf("%d,%d,%.4f,%.4f,%.4f\n", peer, count, median(rtt, iterations) / 2 * 1e6,
               median(snd, iterations) * 1e6, median(isd, iterations) * 1e6);
        fflush(stdout);
      } else if (rank == peer) {
        for (int it = 0; it <= iterations; it++) {
          MPI_Recv(buf, count, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf, count, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
        for (int it = 0; it < iterations; it++) {
          MPI_Recv(buf, count, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf, count, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
      }
    }
  }
  free(buf);
  free(rtt);
  free(snd);
  free(isd);
  MPI_Finalize();
  return 0;
}
