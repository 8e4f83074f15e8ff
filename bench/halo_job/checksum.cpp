#include "checksum.h"

#include <cstddef>
#include <span>

namespace halo_job {

std::uint64_t gathered_fnv1a(const std::vector<double>& local, MPI_Comm comm, int root) {
    int rank = 0, processes = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &processes);
    const int count = static_cast<int>(local.size());
    std::vector<int> counts(rank == root ? static_cast<std::size_t>(processes) : 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm);

    std::vector<int> displs(counts.size());
    std::vector<double> all;
    if (rank == root) {
        for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
        all.resize(counts.empty() ? 0 : static_cast<std::size_t>(displs.back() + counts.back()));
    }
    MPI_Gatherv(local.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, root, comm);

    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const std::byte byte : std::as_bytes(std::span(all))) {
        hash ^= static_cast<std::uint64_t>(byte);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

} // namespace halo_job
