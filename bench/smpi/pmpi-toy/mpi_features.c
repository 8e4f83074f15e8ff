/* Probe of the MPI features libnbrcomb relies on, one feature per run (SMPI aborts the whole
 * simulation on a function it does not implement):  mpi_features NAME   (NAME=list prints them).
 * Rank 0 prints "RESULT NAME ok" or "RESULT NAME wrong: why".  Run with 4 ranks on one host or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int rank, size;

#define CHECK(cond, why)                                                                                               \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      snprintf(reason, sizeof reason, "%s", why);                                                                      \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)
static char reason[256];

/* A ring as a distributed graph: in-neighbor rank-1, out-neighbor rank+1. */
static int ring_graph(MPI_Comm* graph)
{
  int src = (rank + size - 1) % size, dst = (rank + 1) % size;
  return MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, MPI_UNWEIGHTED, 1, &dst, MPI_UNWEIGHTED,
                                        MPI_INFO_NULL, 0, graph);
}

static int t_dist_graph_create_adjacent(void)
{
  MPI_Comm g;
  CHECK(ring_graph(&g) == MPI_SUCCESS, "error code");
  int indeg = -1, outdeg = -1, weighted = -1, status = -1;
  CHECK(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted) == MPI_SUCCESS, "neighbors_count failed");
  CHECK(indeg == 1 && outdeg == 1, "wrong degrees");
  int s = -1, d = -1;
  CHECK(MPI_Dist_graph_neighbors(g, 1, &s, MPI_UNWEIGHTED, 1, &d, MPI_UNWEIGHTED) == MPI_SUCCESS, "neighbors failed");
  CHECK(s == (rank + size - 1) % size && d == (rank + 1) % size, "wrong neighbors");
  CHECK(MPI_Topo_test(g, &status) == MPI_SUCCESS && status == MPI_DIST_GRAPH, "Topo_test not MPI_DIST_GRAPH");
  return MPI_Comm_free(&g) != MPI_SUCCESS;
}

static int t_dist_graph_create(void)
{
  MPI_Comm g;
  int src = rank, deg = 1, dst = (rank + 1) % size;
  CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g) ==
            MPI_SUCCESS,
        "error code");
  return MPI_Comm_free(&g) != MPI_SUCCESS;
}

static int t_topo_test(void)
{
  int status = -1;
  CHECK(MPI_Topo_test(MPI_COMM_WORLD, &status) == MPI_SUCCESS, "error code");
  CHECK(status == MPI_UNDEFINED, "MPI_COMM_WORLD has a topology");
  int dims[1] = {size}, periods[1] = {1};
  MPI_Comm cart;
  CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart) == MPI_SUCCESS, "Cart_create failed");
  CHECK(MPI_Topo_test(cart, &status) == MPI_SUCCESS && status == MPI_CART, "cart not MPI_CART");
  return MPI_Comm_free(&cart) != MPI_SUCCESS;
}

/* Neighborhood collectives on a 1-D periodic Cartesian communicator (2 neighbors), so that they can
 * be probed even when the distributed-graph constructors are missing. */
static MPI_Comm cart_ring(void)
{
  int dims[1] = {size}, periods[1] = {1};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  return cart;
}

static int check_ring_blocks(const int* got)
{
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  return got[0] == left && got[1] == right;
}

static int t_neighbor_allgather(void)
{
  MPI_Comm c = cart_ring();
  int got[2] = {-1, -1};
  CHECK(MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, c) == MPI_SUCCESS, "error code");
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_neighbor_allgatherv(void)
{
  MPI_Comm c = cart_ring();
  int got[2] = {-1, -1}, counts[2] = {1, 1}, displs[2] = {0, 1};
  CHECK(MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, got, counts, displs, MPI_INT, c) == MPI_SUCCESS, "error code");
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_neighbor_alltoall(void)
{
  MPI_Comm c = cart_ring();
  int out[2] = {rank, rank}, got[2] = {-1, -1};
  CHECK(MPI_Neighbor_alltoall(out, 1, MPI_INT, got, 1, MPI_INT, c) == MPI_SUCCESS, "error code");
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_neighbor_alltoallv(void)
{
  MPI_Comm c = cart_ring();
  int out[2] = {rank, rank}, got[2] = {-1, -1}, counts[2] = {1, 1}, displs[2] = {0, 1};
  CHECK(MPI_Neighbor_alltoallv(out, counts, displs, MPI_INT, got, counts, displs, MPI_INT, c) == MPI_SUCCESS,
        "error code");
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_neighbor_alltoallw(void)
{
  MPI_Comm c = cart_ring();
  int out[2] = {rank, rank}, got[2] = {-1, -1}, counts[2] = {1, 1};
  MPI_Aint displs[2] = {0, sizeof(int)};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  CHECK(MPI_Neighbor_alltoallw(out, counts, displs, types, got, counts, displs, types, c) == MPI_SUCCESS,
        "error code");
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_ineighbor_allgather(void)
{
  MPI_Comm c = cart_ring();
  int got[2] = {-1, -1};
  MPI_Request r;
  CHECK(MPI_Ineighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, c, &r) == MPI_SUCCESS, "error code");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_ineighbor_allgatherv(void)
{
  MPI_Comm c = cart_ring();
  int got[2] = {-1, -1}, counts[2] = {1, 1}, displs[2] = {0, 1};
  MPI_Request r;
  CHECK(MPI_Ineighbor_allgatherv(&rank, 1, MPI_INT, got, counts, displs, MPI_INT, c, &r) == MPI_SUCCESS,
        "error code");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_ineighbor_alltoall(void)
{
  MPI_Comm c = cart_ring();
  int out[2] = {rank, rank}, got[2] = {-1, -1};
  MPI_Request r;
  CHECK(MPI_Ineighbor_alltoall(out, 1, MPI_INT, got, 1, MPI_INT, c, &r) == MPI_SUCCESS, "error code");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_ineighbor_alltoallv(void)
{
  MPI_Comm c = cart_ring();
  int out[2] = {rank, rank}, got[2] = {-1, -1}, counts[2] = {1, 1}, displs[2] = {0, 1};
  MPI_Request r;
  CHECK(MPI_Ineighbor_alltoallv(out, counts, displs, MPI_INT, got, counts, displs, MPI_INT, c, &r) == MPI_SUCCESS,
        "error code");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_ineighbor_alltoallw(void)
{
  MPI_Comm c = cart_ring();
  int out[2] = {rank, rank}, got[2] = {-1, -1}, counts[2] = {1, 1};
  MPI_Aint displs[2] = {0, sizeof(int)};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  MPI_Request r;
  CHECK(MPI_Ineighbor_alltoallw(out, counts, displs, types, got, counts, displs, types, c, &r) == MPI_SUCCESS,
        "error code");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(check_ring_blocks(got), "wrong data");
  return MPI_Comm_free(&c) != MPI_SUCCESS;
}

static int t_mprobe_mrecv(void)
{
  int v = rank, got = -1;
  if (rank == 0)
    MPI_Send(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Message m;
    MPI_Status st;
    CHECK(MPI_Mprobe(0, 7, MPI_COMM_WORLD, &m, &st) == MPI_SUCCESS, "Mprobe error code");
    CHECK(MPI_Mrecv(&got, 1, MPI_INT, &m, MPI_STATUS_IGNORE) == MPI_SUCCESS && got == 0, "Mrecv wrong");
  }
  return 0;
}

static int t_improbe_imrecv(void)
{
  int v = rank, got = -1;
  if (rank == 0)
    MPI_Send(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Message m;
    MPI_Status st;
    int flag = 0;
    while (!flag)
      CHECK(MPI_Improbe(0, 7, MPI_COMM_WORLD, &flag, &m, &st) == MPI_SUCCESS, "Improbe error code");
    MPI_Request r;
    CHECK(MPI_Imrecv(&got, 1, MPI_INT, &m, &r) == MPI_SUCCESS, "Imrecv error code");
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(got == 0, "Imrecv wrong data");
  }
  return 0;
}

static int greq_query(void* extra, MPI_Status* st)
{
  (void)extra;
  MPI_Status_set_elements(st, MPI_BYTE, 0);
  MPI_Status_set_cancelled(st, 0);
  st->MPI_SOURCE = MPI_UNDEFINED;
  st->MPI_TAG    = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
static int greq_free(void* extra)
{
  *(int*)extra += 1;
  return MPI_SUCCESS;
}
static int greq_cancel(void* extra, int complete)
{
  (void)extra;
  (void)complete;
  return MPI_SUCCESS;
}

static int t_grequest(void)
{
  int freed = 0, flag = 0;
  MPI_Request r;
  CHECK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &freed, &r) == MPI_SUCCESS, "start error code");
  CHECK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag, "complete before Grequest_complete");
  CHECK(MPI_Grequest_complete(r) == MPI_SUCCESS, "complete error code");
  CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS, "wait error code");
  CHECK(freed == 1, "free_fn not called once");
  return 0;
}

static int copies, deletes;
static int attr_copy(MPI_Comm c, int key, void* extra, void* in, void* out, int* flag)
{
  (void)c;
  (void)key;
  (void)extra;
  copies++;
  *(void**)out = in;
  *flag        = 1;
  return MPI_SUCCESS;
}
static int attr_delete(MPI_Comm c, int key, void* val, void* extra)
{
  (void)c;
  (void)key;
  (void)val;
  (void)extra;
  deletes++;
  return MPI_SUCCESS;
}

static int t_attributes(void)
{
  int key, flag = 0;
  static int value = 42;
  void* got = NULL;
  MPI_Comm dup;
  CHECK(MPI_Comm_create_keyval(attr_copy, attr_delete, &key, NULL) == MPI_SUCCESS, "create_keyval");
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS, "dup");
  CHECK(MPI_Comm_set_attr(dup, key, &value) == MPI_SUCCESS, "set_attr");
  CHECK(MPI_Comm_get_attr(dup, key, &got, &flag) == MPI_SUCCESS && flag && got == &value, "get_attr");
  MPI_Comm dup2;
  CHECK(MPI_Comm_dup(dup, &dup2) == MPI_SUCCESS, "dup of attributed comm");
  CHECK(copies == 1, "copy callback not called on Comm_dup");
  got = NULL;
  CHECK(MPI_Comm_get_attr(dup2, key, &got, &flag) == MPI_SUCCESS && flag && got == &value, "attr not copied");
  CHECK(MPI_Comm_delete_attr(dup, key) == MPI_SUCCESS && deletes == 1, "delete callback on delete_attr");
  CHECK(MPI_Comm_free(&dup2) == MPI_SUCCESS && deletes == 2, "delete callback on Comm_free");
  MPI_Comm_free(&dup);
  return MPI_Comm_free_keyval(&key) != MPI_SUCCESS;
}

static int t_comm_split_type(void)
{
  MPI_Comm node;
  int nsize = 0;
  CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) == MPI_SUCCESS,
        "error code");
  MPI_Comm_size(node, &nsize);
  printf("INFO rank %d: MPI_COMM_TYPE_SHARED communicator of %d ranks\n", rank, nsize);
  return MPI_Comm_free(&node) != MPI_SUCCESS;
}

static int t_pack(void)
{
  int in[3] = {1, 2, 3}, out[3] = {0, 0, 0}, psize = 0, pos = 0;
  CHECK(MPI_Pack_size(3, MPI_INT, MPI_COMM_WORLD, &psize) == MPI_SUCCESS && psize >= 12, "Pack_size");
  char* buf = malloc((size_t)psize);
  CHECK(MPI_Pack(in, 3, MPI_INT, buf, psize, &pos, MPI_COMM_WORLD) == MPI_SUCCESS, "Pack");
  pos = 0;
  CHECK(MPI_Unpack(buf, psize, &pos, out, 3, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS, "Unpack");
  free(buf);
  CHECK(out[0] == 1 && out[2] == 3, "wrong data");
  return 0;
}

static int t_type_extents(void)
{
  MPI_Datatype v;
  MPI_Type_vector(2, 1, 3, MPI_INT, &v);
  MPI_Type_commit(&v);
  MPI_Aint lb, ext, tlb, text;
  int sz;
  CHECK(MPI_Type_get_extent(v, &lb, &ext) == MPI_SUCCESS && ext == 16, "get_extent");
  CHECK(MPI_Type_get_true_extent(v, &tlb, &text) == MPI_SUCCESS && text == 16, "get_true_extent");
  CHECK(MPI_Type_size(v, &sz) == MPI_SUCCESS && sz == 8, "size");
  return MPI_Type_free(&v) != MPI_SUCCESS;
}

static int t_iallreduce(void)
{
  int sum = 0;
  MPI_Request r;
  CHECK(MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r) == MPI_SUCCESS, "error code");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(sum == size * (size - 1) / 2, "wrong sum");
  return 0;
}

static int t_persistent(void)
{
  int out = rank, in = -1;
  MPI_Request r[2];
  int to = (rank + 1) % size, from = (rank + size - 1) % size;
  CHECK(MPI_Recv_init(&in, 1, MPI_INT, from, 3, MPI_COMM_WORLD, &r[0]) == MPI_SUCCESS, "Recv_init");
  CHECK(MPI_Send_init(&out, 1, MPI_INT, to, 3, MPI_COMM_WORLD, &r[1]) == MPI_SUCCESS, "Send_init");
  for (int round = 0; round < 2; round++) {
    CHECK(MPI_Startall(2, r) == MPI_SUCCESS, "Startall");
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    CHECK(in == from, "wrong data");
  }
  CHECK(MPI_Start(&r[0]) == MPI_SUCCESS && MPI_Start(&r[1]) == MPI_SUCCESS, "Start");
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Request_free(&r[0]);
  return MPI_Request_free(&r[1]) != MPI_SUCCESS;
}

static int t_query_thread(void)
{
  int level = -1;
  CHECK(MPI_Query_thread(&level) == MPI_SUCCESS, "error code");
  printf("INFO Query_thread level %d\n", level);
  return 0;
}

static int t_get_library_version(void)
{
  char v[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  CHECK(MPI_Get_library_version(v, &len) == MPI_SUCCESS && len > 0, "error code");
  printf("INFO library version: %s\n", v);
  return 0;
}

static void count_errors(MPI_Comm* comm, int* code, ...)
{
  (void)comm;
  (void)code;
  copies++; /* reuses the attribute counter: this test runs alone */
}

static int t_comm_call_errhandler_user(void)
{
  MPI_Comm dup;
  MPI_Errhandler h;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  CHECK(MPI_Comm_create_errhandler(count_errors, &h) == MPI_SUCCESS, "create_errhandler");
  CHECK(MPI_Comm_set_errhandler(dup, h) == MPI_SUCCESS, "set_errhandler");
  CHECK(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER) == MPI_SUCCESS && copies == 1, "handler not called once");
  MPI_Errhandler_free(&h);
  return MPI_Comm_free(&dup) != MPI_SUCCESS;
}

/* The predefined handlers: MPI_ERRORS_RETURN must simply return. */
static int t_comm_call_errhandler_predefined(void)
{
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  CHECK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN) == MPI_SUCCESS, "set_errhandler");
  CHECK(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER) == MPI_SUCCESS, "call_errhandler did not return");
  return MPI_Comm_free(&dup) != MPI_SUCCESS;
}

static int t_status_set(void)
{
  MPI_Status st;
  int n = -1, flag = -1;
  /* what libnbrcomb does for its generalized requests: elements counted in bytes */
  CHECK(MPI_Status_set_elements(&st, MPI_BYTE, 12) == MPI_SUCCESS, "set_elements");
  CHECK(MPI_Get_count(&st, MPI_INT, &n) == MPI_SUCCESS && n == 3, "Get_count after set_elements(MPI_BYTE)");
  MPI_Status_set_elements(&st, MPI_INT, 5);
  MPI_Get_count(&st, MPI_INT, &n);
  if (rank == 0)
    printf("INFO Status_set_elements(MPI_INT, 5) then Get_count(MPI_INT) gives %d%s\n", n,
           n == 5 ? "" : " (the count is stored in bytes without the datatype size)");
  CHECK(MPI_Status_set_cancelled(&st, 1) == MPI_SUCCESS, "set_cancelled");
  CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag == 1, "test_cancelled");
  return 0;
}

/* Other calls libnbrcomb makes: communicator management and the collectives of its setup phase. */
static int t_misc(void)
{
  int flag = -1, v = rank, left = (rank + size - 1) % size, right = (rank + 1) % size, got = -1;
  CHECK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && flag == 0, "Comm_test_inter");
  MPI_Comm half;
  CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half) == MPI_SUCCESS, "Comm_split");
  MPI_Comm_free(&half);
  CHECK(MPI_Sendrecv(&v, 1, MPI_INT, right, 4, &got, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                MPI_SUCCESS &&
            got == left,
        "Sendrecv");
  int* all = malloc(sizeof(int) * (size_t)size);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; i++) {
    counts[i] = 1;
    displs[i] = i;
  }
  CHECK(MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS && all[size - 1] == size - 1,
        "Allgather");
  CHECK(MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "Gather");
  CHECK(MPI_Gatherv(&v, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "Gatherv");
  CHECK(MPI_Scatter(all, 1, MPI_INT, &got, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS && got == rank, "Scatter");
  CHECK(MPI_Reduce(&v, &got, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "Reduce");
  MPI_Request r[2];
  int idx[2], outcount = 0, done = 0;
  MPI_Irecv(&got, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(&v, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &r[1]);
  while (done < 2) {
    CHECK(MPI_Waitsome(2, r, &outcount, idx, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "Waitsome");
    done += outcount == MPI_UNDEFINED ? 2 : outcount;
  }
  free(all);
  free(counts);
  free(displs);
  return 0;
}

static int t_info_get(void)
{
  MPI_Info info;
  char val[64];
  int flag = 0;
  MPI_Info_create(&info);
  MPI_Info_set(info, "key", "value");
  CHECK(MPI_Info_get(info, "key", sizeof val - 1, val, &flag) == MPI_SUCCESS && flag && !strcmp(val, "value"),
        "wrong value");
  return MPI_Info_free(&info) != MPI_SUCCESS;
}

static int t_cancel_recv(void)
{
  int buf, flag = 0;
  MPI_Request r;
  MPI_Status st;
  CHECK(MPI_Irecv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &r) == MPI_SUCCESS, "Irecv");
  CHECK(MPI_Cancel(&r) == MPI_SUCCESS, "Cancel");
  MPI_Wait(&r, &st);
  CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag, "not cancelled");
  return 0;
}

static int t_request_get_status(void)
{
  int v = rank, got = -1, flag = 0;
  MPI_Request r;
  MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 5, MPI_COMM_WORLD, &r);
  MPI_Send(&v, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD);
  while (!flag)
    CHECK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS, "error code");
  CHECK(r != MPI_REQUEST_NULL, "request freed by get_status");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return 0;
}

static int t_test_family(void)
{
  int out[2] = {rank, rank}, in[2] = {-1, -1}, flag = 0, idx = -1, outcount = 0, idxs[4];
  int to = (rank + 1) % size, from = (rank + size - 1) % size;
  MPI_Request r[4];
  for (int round = 0; round < 4; round++) {
    MPI_Irecv(&in[0], 1, MPI_INT, from, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&in[1], 1, MPI_INT, from, 2, MPI_COMM_WORLD, &r[1]);
    MPI_Isend(&out[0], 1, MPI_INT, to, 1, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(&out[1], 1, MPI_INT, to, 2, MPI_COMM_WORLD, &r[3]);
    int done = 0;
    while (done < 4) {
      if (round == 0) {
        CHECK(MPI_Testall(4, r, &flag, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "Testall");
        done = flag ? 4 : 0;
      } else if (round == 1) {
        CHECK(MPI_Testsome(4, r, &outcount, idxs, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "Testsome");
        done += outcount == MPI_UNDEFINED ? 4 : outcount;
      } else if (round == 2) {
        CHECK(MPI_Testany(4, r, &idx, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Testany");
        done += flag && idx != MPI_UNDEFINED;
        if (flag && idx == MPI_UNDEFINED)
          done = 4;
      } else {
        CHECK(MPI_Waitany(4, r, &idx, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Waitany");
        done += idx != MPI_UNDEFINED;
        if (idx == MPI_UNDEFINED)
          done = 4;
      }
    }
    CHECK(in[0] == from && in[1] == from, "wrong data");
  }
  return 0;
}

/* Simulated time: does host computation count, and does sleep() advance the clock? */
static int t_wtime(void)
{
  double t0 = MPI_Wtime();
  struct timespec w0, w1;
  clock_gettime(CLOCK_MONOTONIC, &w0); /* smpicc maps this to the simulated clock too */
  volatile double x = 0;
  for (long i = 0; i < 50000000L; i++)
    x += 1e-9 * (double)i;
  double t1 = MPI_Wtime();
  sleep(1);
  double t2 = MPI_Wtime();
  clock_gettime(CLOCK_MONOTONIC, &w1);
  printf("INFO rank %d: MPI_Wtime advanced %.6f s over a 5e7-iteration loop, %.6f s over sleep(1); "
         "clock_gettime advanced %.6f s in total\n",
         rank, t1 - t0, t2 - t1, (double)(w1.tv_sec - w0.tv_sec) + 1e-9 * (double)(w1.tv_nsec - w0.tv_nsec));
  return 0;
}

struct test {
  const char* name;
  int (*fn)(void);
};
static const struct test tests[] = {
    {"Dist_graph_create_adjacent", t_dist_graph_create_adjacent},
    {"Dist_graph_create", t_dist_graph_create},
    {"Topo_test", t_topo_test},
    {"Neighbor_allgather", t_neighbor_allgather},
    {"Neighbor_allgatherv", t_neighbor_allgatherv},
    {"Neighbor_alltoall", t_neighbor_alltoall},
    {"Neighbor_alltoallv", t_neighbor_alltoallv},
    {"Neighbor_alltoallw", t_neighbor_alltoallw},
    {"Ineighbor_allgather", t_ineighbor_allgather},
    {"Ineighbor_allgatherv", t_ineighbor_allgatherv},
    {"Ineighbor_alltoall", t_ineighbor_alltoall},
    {"Ineighbor_alltoallv", t_ineighbor_alltoallv},
    {"Ineighbor_alltoallw", t_ineighbor_alltoallw},
    {"Mprobe_Mrecv", t_mprobe_mrecv},
    {"Improbe_Imrecv", t_improbe_imrecv},
    {"Grequest_start_complete", t_grequest},
    {"Comm_keyval_attr_callbacks", t_attributes},
    {"Comm_split_type", t_comm_split_type},
    {"Pack_Unpack_Pack_size", t_pack},
    {"Type_get_true_extent", t_type_extents},
    {"Iallreduce", t_iallreduce},
    {"Send_init_Recv_init_Startall", t_persistent},
    {"Query_thread", t_query_thread},
    {"Get_library_version", t_get_library_version},
    {"Comm_call_errhandler_user", t_comm_call_errhandler_user},
    {"Comm_call_errhandler_predefined", t_comm_call_errhandler_predefined},
    {"Status_set_elements_cancelled", t_status_set},
    {"Info_get", t_info_get},
    {"Cancel_recv", t_cancel_recv},
    {"Request_get_status", t_request_get_status},
    {"Test_Testall_Testsome_Testany_Waitany", t_test_family},
    {"Comm_test_inter_split_Sendrecv_collectives_Waitsome", t_misc},
    {"Wtime", t_wtime},
};

int main(int argc, char** argv)
{
  const int ntests = (int)(sizeof tests / sizeof tests[0]);
  if (argc > 1 && !strcmp(argv[1], "list")) { /* before MPI_Init: usable without smpirun */
    for (int i = 0; i < ntests; i++)
      printf("%s\n", tests[i].name);
    return 0;
  }
  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: mpi_features NAME|list\n");
    MPI_Finalize();
    return 1;
  }
  for (int i = 0; i < ntests; i++) {
    if (strcmp(argv[1], tests[i].name) != 0)
      continue;
    int wrong = tests[i].fn(), any = 0;
    MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && any)
      printf("RESULT %s wrong: %s\n", argv[1], wrong ? reason : "on another rank");
    else if (rank == 0)
      printf("RESULT %s ok (Init_thread provided %d)\n", argv[1], provided);
  }
  MPI_Finalize();
  return 0;
}
