// A toy PMPI interposer shaped like libnbrcomb's state, to see what SMPI (all ranks in one process)
// does to it: a plain global counter, a namespace-scope object with a constructor, a function-local
// static singleton holding a std::mutex (held across the blocking PMPI call, as a progress engine
// might), a thread_local counter and a std::atomic.  It wraps MPI_Send and reports per rank from
// MPI_Finalize.  Built with the plain C++ compiler against SMPI's mpi.h (see ../Makefile).
#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>

namespace {

std::atomic<int> constructions{0};

struct Tracker {
    long sends = 0;
    Tracker() { constructions.fetch_add(1); }
};

Tracker tracker;                // namespace-scope object with a constructor
long send_count = 0;            // plain global
thread_local long tls_sends = 0;
std::atomic<long> atomic_sends{0};
long mutex_collisions = 0;      // the singleton's mutex was found held on entry

struct Registry {
    std::mutex mutex;
    std::map<int, long> per_destination;
    static Registry& get()
    {
        static Registry instance; // function-local static, like the library's singletons
        return instance;
    }
};

} // namespace

extern "C" int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    Registry& registry = Registry::get();
    // Another rank holding the same mutex here would mean the ranks share the library's state:
    // with all ranks in one thread, lock() would then deadlock, so only try it.
    std::unique_lock<std::mutex> lock(registry.mutex, std::try_to_lock);
    if (!lock.owns_lock())
        mutex_collisions++;
    send_count++;
    tls_sends++;
    tracker.sends++;
    atomic_sends.fetch_add(1);
    registry.per_destination[dest]++;
    return PMPI_Send(buf, count, type, dest, tag, comm); // blocks (rendezvous) with the lock held
}

extern "C" int MPI_Finalize()
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long registered = 0;
    for (const auto& [dest, n] : Registry::get().per_destination)
        registered += n;
    std::printf("toy rank %d: expected %d | global %ld thread_local %ld object %ld atomic %ld registry %ld"
                " | constructions %d mutex-collisions %ld | &global %p\n",
                rank, rank + 1, send_count, tls_sends, tracker.sends, atomic_sends.load(), registered,
                constructions.load(), mutex_collisions, static_cast<void*>(&send_count));
    std::fflush(stdout);
    return PMPI_Finalize();
}
