#include "spmv.h"

#include "row_blocks.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace halo_job {
namespace {

// Turns a list sorted by owner into MPI's neighbor, count and displacement arrays.
struct Neighbors {
    std::vector<int> ranks, counts, displs;

    template <class OwnerOf>
    static Neighbors group(std::size_t size, OwnerOf owner_of) {
        Neighbors n;
        for (std::size_t k = 0; k < size; ++k) {
            const int owner = owner_of(k);
            if (n.ranks.empty() || n.ranks.back() != owner) {
                n.ranks.push_back(owner);
                n.counts.push_back(0);
                n.displs.push_back(static_cast<int>(k));
            }
            ++n.counts.back();
        }
        return n;
    }
};

class SpmvPowerIteration final : public Workload {
public:
    SpmvPowerIteration(const CooMatrix& matrix, std::string name, bool reorder, Path path, MPI_Comm world)
        : name_(std::move(name)), rows_(matrix.rows), nonzeros_(static_cast<std::int64_t>(matrix.entries.size())),
          alltoallv_(path == Path::native ? PMPI_Neighbor_alltoallv : MPI_Neighbor_alltoallv) {
        if (matrix.rows != matrix.cols)
            throw std::invalid_argument(name_ + " is " + std::to_string(matrix.rows) + " x " +
                                        std::to_string(matrix.cols) + ": power iteration needs a square matrix");
        int rank = 0, processes = 0;
        MPI_Comm_rank(world, &rank);
        MPI_Comm_size(world, &processes);
        take_block(matrix, rank, processes);
        // Weighted by the values each edge carries, as PETSc weights its graphs: what a mapping
        // should keep on a node. An empty list's data() may be null, which MPICH reads as
        // MPI_UNWEIGHTED.
        const auto weights = [](std::vector<int>& counts) { return counts.empty() ? MPI_WEIGHTS_EMPTY : counts.data(); };
        const auto create_adjacent =
            path == Path::native ? PMPI_Dist_graph_create_adjacent : MPI_Dist_graph_create_adjacent;
        create_adjacent(world, static_cast<int>(recv_.ranks.size()), recv_.ranks.data(), weights(recv_.counts),
                        static_cast<int>(send_.ranks.size()), send_.ranks.data(), weights(send_.counts), MPI_INFO_NULL,
                        reorder ? 1 : 0, &comm_);
        // With reorder=1 the process with new rank v plays vertex v of the graph: it takes block v.
        int new_rank = rank;
        MPI_Comm_rank(comm_, &new_rank);
        if (new_rank != rank) take_block(matrix, new_rank, processes);
    }

    ~SpmvPowerIteration() override { MPI_Comm_free(&comm_); }
    SpmvPowerIteration(const SpmvPowerIteration&) = delete;
    SpmvPowerIteration& operator=(const SpmvPowerIteration&) = delete;

    MPI_Comm comm() const override { return comm_; }

    void exchange() override {
        alltoallv_(send_buffer_.data(), send_.counts.data(), send_.displs.data(), MPI_DOUBLE, x_.data() + owned_,
                   recv_.counts.data(), recv_.displs.data(), MPI_DOUBLE, comm_);
    }

    void update() override {
        double local_max = 0.0;
        for (std::size_t i = 0; i < owned_; ++i) {
            double sum = 0.0;
            for (std::size_t k = row_start_[i]; k < row_start_[i + 1]; ++k) sum += value_[k] * x_[column_[k]];
            y_[i] = sum;
            local_max = std::max(local_max, std::abs(sum));
        }
        // The maximum is exact in any reduction order, unlike a sum of squares.
        double max = 0.0;
        MPI_Allreduce(&local_max, &max, 1, MPI_DOUBLE, MPI_MAX, comm_);
        const double scale = max > 0.0 ? 1.0 / max : 1.0;
        for (std::size_t i = 0; i < owned_; ++i) x_[i] = y_[i] * scale;
        pack();
    }

    std::vector<double> values() const override {
        return {x_.begin(), x_.begin() + static_cast<std::ptrdiff_t>(owned_)};
    }

    std::uint64_t native_messages_per_call() const override { return send_.ranks.size(); }
    std::uint64_t native_bytes_per_call() const override { return send_buffer_.size() * sizeof(double); }

    std::string describe() const override {
        std::ostringstream out;
        out << "kernel=spmv\nmatrix=" << name_ << "\nrows=" << rows_ << "\nnonzeros=" << nonzeros_ << '\n';
        return out.str();
    }

private:
    // This process's rows, ghost and send lists, and starting vector as the owner of row block
    // `block`; the lists are those block's vertex gives the graph.
    void take_block(const CooMatrix& matrix, int block, int processes) {
        const RowBlocks blocks(matrix.rows, processes);
        const std::int64_t lo = blocks.first(block), hi = blocks.first(block + 1);
        const auto owned = [&](std::int64_t i) { return lo <= i && i < hi; };
        owned_ = static_cast<std::size_t>(hi - lo);

        // Rows summed in ascending column order make every y_i, and so the checksum, the same
        // bits for any number of processes.
        std::vector<MatrixEntry> mine;
        std::vector<std::int64_t> ghosts;
        std::vector<std::pair<int, std::int64_t>> sends; // (destination, owned column it needs)
        for (const MatrixEntry& e : matrix.entries) {
            if (owned(e.row)) {
                mine.push_back(e);
                if (!owned(e.col)) ghosts.push_back(e.col);
            } else if (owned(e.col)) {
                sends.emplace_back(blocks.owner(e.row), e.col);
            }
        }
        std::ranges::stable_sort(mine, [](const MatrixEntry& a, const MatrixEntry& b) {
            return std::tie(a.row, a.col) < std::tie(b.row, b.col);
        });
        // Sorted by global index, ghosts are grouped by owner in ascending rank order, and a
        // sender that sorts the same columns packs them in the order they are unpacked here.
        std::ranges::sort(ghosts);
        ghosts.erase(std::ranges::unique(ghosts).begin(), ghosts.end());
        std::ranges::sort(sends);
        sends.erase(std::ranges::unique(sends).begin(), sends.end());

        recv_ = Neighbors::group(ghosts.size(), [&](std::size_t k) { return blocks.owner(ghosts[k]); });
        send_ = Neighbors::group(sends.size(), [&](std::size_t k) { return sends[k].first; });
        send_index_.clear();
        for (const auto& [destination, col] : sends) send_index_.push_back(static_cast<std::size_t>(col - lo));

        row_start_.assign(owned_ + 1, 0);
        column_.clear();
        value_.clear();
        for (const MatrixEntry& e : mine) {
            ++row_start_[static_cast<std::size_t>(e.row - lo) + 1];
            column_.push_back(owned(e.col) ? static_cast<std::size_t>(e.col - lo)
                                           : owned_ + static_cast<std::size_t>(std::ranges::lower_bound(ghosts, e.col) -
                                                                               ghosts.begin()));
            value_.push_back(e.value);
        }
        for (std::size_t i = 0; i < owned_; ++i) row_start_[i + 1] += row_start_[i];

        // Exact binary fractions that differ from entry to entry, so misplaced ghosts show.
        x_.resize(owned_ + ghosts.size());
        for (std::size_t i = 0; i < owned_; ++i) x_[i] = 1.0 + static_cast<double>((lo + static_cast<std::int64_t>(i)) % 17) / 16.0;
        y_.resize(owned_);
        send_buffer_.resize(send_index_.size());
        pack();
    }

    void pack() {
        for (std::size_t k = 0; k < send_index_.size(); ++k) send_buffer_[k] = x_[send_index_[k]];
    }

    std::string name_;
    std::int64_t rows_;
    std::int64_t nonzeros_;
    decltype(&MPI_Neighbor_alltoallv) alltoallv_;
    std::size_t owned_ = 0;
    // Local rows in CSR form; columns index x_.
    std::vector<std::size_t> row_start_;
    std::vector<std::size_t> column_;
    std::vector<double> value_;
    // Owned entries, then the ghost entries, grouped by source as recv_ lists them.
    std::vector<double> x_;
    std::vector<double> y_;
    std::vector<std::size_t> send_index_;
    std::vector<double> send_buffer_;
    Neighbors recv_;
    Neighbors send_;
    MPI_Comm comm_ = MPI_COMM_NULL;
};

} // namespace

std::unique_ptr<Workload> make_spmv(const CooMatrix& matrix, const std::string& name, bool reorder, Path path,
                                    MPI_Comm world) {
    return std::make_unique<SpmvPowerIteration>(matrix, name, reorder, path, world);
}

} // namespace halo_job
