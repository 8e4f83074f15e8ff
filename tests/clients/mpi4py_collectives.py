"""An unmodified mpi4py program whose neighborhood collectives libnbrcomb.so runs when preloaded.

    mpi4py_collectives.py {blocking|nonblocking} {library|native}

It builds a seeded random digraph in which every two ranks share out-neighbors, so that the
library combines messages at NBRCOMB_THETA=1, once with Create_dist_graph_adjacent (weighted,
neighbors in the caller's order) and once with Create_dist_graph (edges given by another rank,
reorder=True, neighbors in the MPI's order). On both it runs every neighborhood collective
mpi4py offers: `blocking`, the pickle forms and the five buffer forms; `nonblocking`, the five
Ineighbor_* forms, completed by one Waitall together with an ordinary Isend/Irecv and by Wait.

Every received byte is compared with what this program computes from the neighbor lists. With
`library` it also asks nbrcomb_comm_stats whether the library ran each call; with `native`, it
checks that the library is absent, so the same expectations are validated against the MPI itself.
Exits 1 on any failure, naming the calls with wrong results and the calls the library did not run.
"""

import ctypes
import os
import random
import sys
import traceback

import numpy as np
from mpi4py import MPI

SEED = 2017
INT_SENTINEL = -1
BYTE_SENTINEL = 0xEE
def mode_name(mode):
    """The loaded library's name of a mode (nbrcomb_mode_name)."""
    function = ctypes.CDLL(None).nbrcomb_mode_name
    function.argtypes = [ctypes.c_int]
    function.restype = ctypes.c_char_p
    name = function(mode)
    return name.decode() if name is not None else f"unknown ({mode})"


class NbrcombStats(ctypes.Structure):
    # The leading fields of nbrcomb_stats (include/nbrcomb/nbrcomb.h): nbrcomb_comm_stats_sized
    # fills as many bytes as this struct holds.
    _fields_ = [
        ("requested_mode", ctypes.c_int),
        ("mode", ctypes.c_int),
        ("calls", ctypes.c_ulonglong),
        ("messages_sent", ctypes.c_ulonglong),
        ("bytes_sent", ctypes.c_ulonglong),
        ("native_messages", ctypes.c_ulonglong),
        ("native_bytes", ctypes.c_ulonglong),
        ("rounds", ctypes.c_ulonglong),
    ]


def nbrcomb_stats_function():
    """nbrcomb_comm_stats_sized when libnbrcomb.so is loaded into this process, else None."""
    function = getattr(ctypes.CDLL(None), "nbrcomb_comm_stats_sized", None)
    if function is not None:
        function.argtypes = [ctypes.c_void_p, ctypes.POINTER(NbrcombStats), ctypes.c_size_t]
        function.restype = ctypes.c_int
    return function


def comm_handle(comm):
    # mpi4py 4 has Comm.handle; 3.x, as in Debian 12, only MPI._handleof.
    return comm.handle if hasattr(comm, "handle") else MPI._handleof(comm)


def random_digraph(size, seed):
    """Out-neighbor lists: every other rank in a seeded order, so every two ranks share
    out-neighbors, plus a repeated edge on rank 0 and a self-loop on the last rank, which must
    arrive exactly as natively although the library never combines them."""
    rng = random.Random(seed)
    graph = []
    for rank in range(size):
        others = [peer for peer in range(size) if peer != rank]
        rng.shuffle(others)
        graph.append(others)
    if graph[0]:
        graph[0].insert(rng.randrange(len(graph[0]) + 1), graph[0][0])
    graph[-1].append(size - 1)
    return graph


def in_neighbors(graph, rank, seed):
    sources = [sender for sender, destinations in enumerate(graph) for destination in destinations
               if destination == rank]
    random.Random(seed + rank).shuffle(sources)
    return sources


def matched_edges(all_neighbors, rank):
    """For each in-neighbor slot of rank, the sender and the index of the sender's out-edge that
    fills it: the k-th edge u->v meets the k-th occurrence of u in v's sources (MPI-4.0)."""
    sources = all_neighbors[rank][0]
    occurrences = {}
    edges = []
    for sender in sources:
        k = occurrences.get(sender, 0)
        occurrences[sender] = k + 1
        out_edges = [index for index, destination in enumerate(all_neighbors[sender][1])
                     if destination == rank]
        edges.append((sender, out_edges[k]))
    return edges


def edge_values(sender, edge, count):
    """The int32 values sender sends on its out-edge number edge: distinct for every block."""
    return ((sender * 64 + edge) * 64 + 1 + np.arange(count)).astype(np.int32)


def rank_values(sender, count):
    """The int32 values sender sends to all its out-neighbors (edge number 63, which no rank
    has, keeps them apart from the blocks of single edges)."""
    return edge_values(sender, 63, count)


def allgatherv_count(sender):
    return sender % 3


def alltoallv_count(sender, edge):
    return (sender + edge) % 3


def alltoallw_count(sender, edge):
    return 1 + (sender + edge) % 3


def alltoallw_is_double(sender, edge):
    return (sender + edge) % 2 == 1


def layout_with_gaps(counts, reverse=False):
    """Displacements that leave one unused element before every block, in block order or
    reversed, and the length of the buffer they need."""
    order = range(len(counts) - 1, -1, -1) if reverse else range(len(counts))
    displacements = [0] * len(counts)
    end = 0
    for index in order:
        displacements[index] = end + 1
        end += 1 + counts[index]
    return displacements, end


def concatenated(blocks):
    return np.concatenate(blocks) if blocks else np.empty(0, np.int32)


class Case:
    """One collective's arguments, the buffer it fills, that buffer's expected content, and the
    derived datatypes to free once it completed."""

    def __init__(self, send, recv, received, expected, datatypes=()):
        self.send, self.recv, self.received, self.expected = send, recv, received, expected
        self.datatypes = list(datatypes)

    def matches(self):
        return self.received.tobytes() == self.expected.tobytes()

    def free(self):
        for datatype in self.datatypes:
            datatype.Free()


def allgather_case(rank, edges, outdegree):
    count = 3
    received = np.full(len(edges) * count, INT_SENTINEL, np.int32)
    expected = concatenated([rank_values(sender, count) for sender, _ in edges])
    return Case([rank_values(rank, count), MPI.INT], [received, MPI.INT], received, expected)


def allgatherv_case(rank, edges, outdegree):
    counts = [allgatherv_count(sender) for sender, _ in edges]
    displacements, length = layout_with_gaps(counts, reverse=True)
    received = np.full(length, INT_SENTINEL, np.int32)
    expected = received.copy()
    for (sender, _), count, displacement in zip(edges, counts, displacements):
        expected[displacement:displacement + count] = rank_values(sender, count)
    send = rank_values(rank, allgatherv_count(rank))
    return Case([send, MPI.INT], [received, (counts, displacements), MPI.INT], received, expected)


def alltoall_case(rank, edges, outdegree):
    count = 2
    send = concatenated([edge_values(rank, edge, count) for edge in range(outdegree)])
    received = np.full(len(edges) * count, INT_SENTINEL, np.int32)
    expected = concatenated([edge_values(sender, edge, count) for sender, edge in edges])
    return Case([send, MPI.INT], [received, MPI.INT], received, expected)


def alltoallv_case(rank, edges, outdegree):
    send_counts = [alltoallv_count(rank, edge) for edge in range(outdegree)]
    send_displacements, send_length = layout_with_gaps(send_counts)
    send = np.full(send_length, INT_SENTINEL, np.int32)
    for edge, (count, displacement) in enumerate(zip(send_counts, send_displacements)):
        send[displacement:displacement + count] = edge_values(rank, edge, count)
    recv_counts = [alltoallv_count(sender, edge) for sender, edge in edges]
    recv_displacements, recv_length = layout_with_gaps(recv_counts, reverse=True)
    received = np.full(recv_length, INT_SENTINEL, np.int32)
    expected = received.copy()
    for (sender, edge), count, displacement in zip(edges, recv_counts, recv_displacements):
        expected[displacement:displacement + count] = edge_values(sender, edge, count)
    return Case([send, (send_counts, send_displacements), MPI.INT],
                [received, (recv_counts, recv_displacements), MPI.INT], received, expected)


def alltoallw_case(rank, edges, outdegree):
    """Each edge carries ints or doubles; the sender takes its ints from every other element
    through a vector type, the receiver gets them contiguous: same type signature, other layout."""
    datatypes = []
    send_chunks, send_counts, send_types, send_displacements = [], [], [], []
    offset = 0
    for edge in range(outdegree):
        count = alltoallw_count(rank, edge)
        values = edge_values(rank, edge, count)
        if alltoallw_is_double(rank, edge):
            chunk = values.astype(np.float64).view(np.uint8)
            send_counts.append(count)
            send_types.append(MPI.DOUBLE)
        else:
            strided = np.full(2 * count, INT_SENTINEL, np.int32)
            strided[::2] = values
            chunk = strided.view(np.uint8)
            vector = MPI.INT.Create_vector(count, 1, 2).Commit()
            datatypes.append(vector)
            send_counts.append(1)
            send_types.append(vector)
        send_displacements.append(offset)
        send_chunks.append(chunk)
        offset += len(chunk)
    send = np.concatenate(send_chunks) if send_chunks else np.empty(0, np.uint8)

    recv_counts, recv_types, recv_bytes = [], [], []
    for sender, edge in edges:
        count = alltoallw_count(sender, edge)
        values = edge_values(sender, edge, count)
        if alltoallw_is_double(sender, edge):
            recv_bytes.append(values.astype(np.float64).view(np.uint8))
            recv_types.append(MPI.DOUBLE)
        else:
            recv_bytes.append(values.view(np.uint8))
            recv_types.append(MPI.INT)
        recv_counts.append(count)
    recv_displacements, length = layout_with_gaps([len(block) for block in recv_bytes], reverse=True)
    received = np.full(length, BYTE_SENTINEL, np.uint8)
    expected = received.copy()
    for block, displacement in zip(recv_bytes, recv_displacements):
        expected[displacement:displacement + len(block)] = block
    return Case([send, send_counts, send_displacements, send_types],
                [received, recv_counts, recv_displacements, recv_types], received, expected, datatypes)


def nonblocking(name):
    return "Ineighbor" + name[len("Neighbor"):]


BUFFER_COLLECTIVES = {
    "Neighbor_allgather": allgather_case,
    "Neighbor_allgatherv": allgatherv_case,
    "Neighbor_alltoall": alltoall_case,
    "Neighbor_alltoallv": alltoallv_case,
    "Neighbor_alltoallw": alltoallw_case,
}


class Ledger:
    """What went wrong on one communicator: calls with wrong results, and calls the library
    should have run and did not."""

    def __init__(self, label, comm, stats_function):
        self.label, self.comm, self.stats_function = label, comm, stats_function
        self.wrong_results = []
        self.not_run_by_library = []

    def stats(self):
        stats = NbrcombStats()
        if self.stats_function(comm_handle(self.comm), ctypes.byref(stats), ctypes.sizeof(stats)) != MPI.SUCCESS:
            return None
        return stats

    def library_calls(self):
        stats = self.stats() if self.stats_function else None
        return stats.calls if stats else 0

    def check_result(self, name, correct):
        if not correct:
            self.wrong_results.append(name)

    def check_library_ran(self, names, calls_before, exactly=None):
        """The library counts one call per collective it runs: exactly that many for the buffer
        forms; at least one for mpi4py's pickle forms, which make calls of their own."""
        if self.stats_function is None:
            return
        ran = self.library_calls() - calls_before
        ran_all = ran == exactly if exactly is not None else ran >= 1
        if not ran_all:
            self.not_run_by_library.append(f"{'+'.join(names)} (library ran {ran} call(s))")


def run_blocking(comm, rank, edges, outdegree, ledger):
    sources = [sender for sender, _ in edges]

    calls = ledger.library_calls()
    payload = {"rank": rank, "values": list(range(rank + 1))}
    received = comm.neighbor_allgather(payload)
    ledger.check_result("neighbor_allgather",
                        received == [{"rank": sender, "values": list(range(sender + 1))} for sender in sources])
    ledger.check_library_ran(["neighbor_allgather"], calls)

    calls = ledger.library_calls()
    received = comm.neighbor_alltoall([("edge", rank, edge) for edge in range(outdegree)])
    ledger.check_result("neighbor_alltoall", received == [("edge", sender, edge) for sender, edge in edges])
    ledger.check_library_ran(["neighbor_alltoall"], calls)

    for name, make_case in BUFFER_COLLECTIVES.items():
        case = make_case(rank, edges, outdegree)
        calls = ledger.library_calls()
        getattr(comm, name)(case.send, case.recv)
        ledger.check_result(name, case.matches())
        ledger.check_library_ran([name], calls, exactly=1)
        case.free()


def run_nonblocking(comm, rank, edges, outdegree, ledger):
    """All five started at once and completed by one Waitall with an ordinary message whose
    receive takes any source and any tag on the same communicator: library traffic must not
    match it. Then one more completed by Wait."""
    size = comm.Get_size()
    cases = {name: make_case(rank, edges, outdegree) for name, make_case in BUFFER_COLLECTIVES.items()}
    ring_message = np.array([rank, 4242], np.int32)
    ring_received = np.full(2, INT_SENTINEL, np.int32)
    ring_tag = 7

    calls = ledger.library_calls()
    requests = [comm.Irecv([ring_received, MPI.INT], source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG)]
    requests += [getattr(comm, nonblocking(name))(case.send, case.recv) for name, case in cases.items()]
    requests.append(comm.Isend([ring_message, MPI.INT], dest=(rank + 1) % size, tag=ring_tag))
    statuses = [MPI.Status() for _ in requests]
    MPI.Request.Waitall(requests, statuses)
    batch = [nonblocking(name) for name in cases]
    ledger.check_library_ran(batch, calls, exactly=len(batch))
    for name, case in cases.items():
        ledger.check_result(nonblocking(name) + " (Waitall)", case.matches())
        case.free()
    ring_source = (rank - 1) % size
    ledger.check_result(
        "Isend/Irecv(ANY_SOURCE, ANY_TAG) in the same Waitall",
        statuses[0].Get_source() == ring_source and statuses[0].Get_tag() == ring_tag
        and ring_received.tolist() == [ring_source, 4242])

    case = alltoallv_case(rank, edges, outdegree)
    calls = ledger.library_calls()
    comm.Ineighbor_alltoallv(case.send, case.recv).Wait()
    ledger.check_library_ran(["Ineighbor_alltoallv"], calls, exactly=1)
    ledger.check_result("Ineighbor_alltoallv (Wait)", case.matches())


def create_communicators(world, graph, seed):
    """The same digraph through both constructors: adjacent with weights (as PETSc passes
    them), and general with every rank giving the out-edges of the next one."""
    rank, size = world.Get_rank(), world.Get_size()
    sources = in_neighbors(graph, rank, seed)
    adjacent = world.Create_dist_graph_adjacent(
        sources, graph[rank], sourceweights=[1 + s for s in sources], destweights=[1 + rank] * len(graph[rank]),
        reorder=False)
    described = (rank + 1) % size
    general = world.Create_dist_graph([described], [len(graph[described])], graph[described], reorder=True)
    return [("Create_dist_graph_adjacent", adjacent, graph[rank], sources),
            ("Create_dist_graph", general, None, None)]


def main():
    section, run_mode = sys.argv[1:3]
    if section not in ("blocking", "nonblocking") or run_mode not in ("library", "native"):
        sys.exit(__doc__)
    world = MPI.COMM_WORLD
    stats_function = nbrcomb_stats_function()
    setup_problems = []
    if run_mode == "library" and stats_function is None:
        setup_problems.append("libnbrcomb.so is not loaded (nbrcomb_comm_stats not found); is LD_PRELOAD set?")
    if run_mode == "native" and stats_function is not None:
        setup_problems.append("libnbrcomb.so is loaded in the native run")
        stats_function = None
    expected_mode = os.environ.get("NBRCOMB_MODE", "pairs").lower()

    ledgers = []
    graph = random_digraph(world.Get_size(), SEED)
    for label, comm, given_destinations, given_sources in create_communicators(world, graph, SEED):
        ledger = Ledger(label, comm, stats_function)
        ledgers.append(ledger)
        comm_rank = comm.Get_rank()
        sources, destinations, _ = comm.Get_dist_neighbors()
        if given_destinations is not None and (destinations, sources) != (given_destinations, given_sources):
            ledger.wrong_results.append("Get_dist_neighbors (not the caller's order)")
        all_neighbors = comm.allgather((sources, destinations))
        edges = matched_edges(all_neighbors, comm_rank)
        if stats_function is not None:
            stats = ledger.stats()
            if stats is None:
                setup_problems.append(f"the library does not manage the {label} communicator")
                ledger.stats_function = None
            elif mode_name(stats.requested_mode) != expected_mode:
                setup_problems.append(f"{label}: the library was asked for mode {mode_name(stats.requested_mode)}, "
                                      f"not NBRCOMB_MODE={expected_mode}")
        run = run_blocking if section == "blocking" else run_nonblocking
        run(comm, comm_rank, edges, len(destinations), ledger)

    failed = report(world, section, run_mode, setup_problems, ledgers)
    for ledger in ledgers:
        ledger.comm.Free()
    sys.exit(1 if failed else 0)


def report(world, section, run_mode, setup_problems, ledgers):
    """Gathers every rank's failures and prints them on rank 0, wrong results apart from calls
    the library did not run; True on every rank when anything failed anywhere."""
    mine = {
        "setup": setup_problems,
        "wrong": [f"{ledger.label}: {name}" for ledger in ledgers for name in ledger.wrong_results],
        "not_run": [f"{ledger.label}: {name}" for ledger in ledgers for name in ledger.not_run_by_library],
    }
    totals = np.zeros(4, np.uint64)  # calls, rounds, messages sent, native messages
    for ledger in ledgers:
        stats = ledger.stats() if ledger.stats_function else None
        if stats:
            totals += np.array([stats.calls, stats.rounds, stats.messages_sent, stats.native_messages], np.uint64)
    everyone = world.gather(mine, root=0)
    totals = world.reduce(totals, op=MPI.SUM, root=0)
    if world.Get_rank() != 0:
        return world.bcast(None, root=0)

    prefix = f"mpi4py {section}, {run_mode}"
    calls, rounds, messages, native_messages = totals.tolist()
    failed = False
    if run_mode == "library":
        print(f"{prefix}: the library ran {calls} calls (summed over ranks) in {rounds} rounds, "
              f"sending {messages} messages where native MPI sends {native_messages}")
        # A combining schedule takes two or three rounds, the direct one a single one (README).
        if calls > 0 and rounds <= calls:
            failed = True
            print(f"{prefix}: no call ran a combining schedule: the topology gave the library nothing to combine "
                  "at these settings", file=sys.stderr)
    for key, title in [("setup", "setup problems"),
                       ("wrong", "wrong results (compared with the values this program computes)"),
                       ("not_run", "calls the library did not run (they ran natively or not at all)")]:
        ranks_by_line = {}
        for reporting_rank, problems in enumerate(everyone):
            for line in problems[key]:
                ranks_by_line.setdefault(line, []).append(reporting_rank)
        if ranks_by_line:
            failed = True
            print(f"{prefix}: {title}:", file=sys.stderr)
            for line, ranks in sorted(ranks_by_line.items()):
                print(f"  {line} [ranks {', '.join(map(str, ranks))}]", file=sys.stderr)
    if not failed:
        print(f"{prefix}: all results exact" + (", all calls run by the library" if run_mode == "library" else ""))
    return world.bcast(failed, root=0)


if __name__ == "__main__":
    try:
        main()
    except Exception:
        # An error on one rank would leave the others waiting in a collective until the timeout.
        traceback.print_exc()
        MPI.COMM_WORLD.Abort(1)
