#include "stencil.h"

#include <array>
#include <sstream>
#include <utility>

namespace halo_job {
namespace {

struct Offset {
    int dy, dx;
};
constexpr std::array<Offset, 8> moore = {{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}};

class MooreStencil final : public Workload {
public:
    MooreStencil(int block, bool reorder, Path path, MPI_Comm world)
        : b_(block), allgather_(path == Path::native ? PMPI_Neighbor_allgather : MPI_Neighbor_allgather),
          u_(cells(block)), next_(cells(block)) {
        int rank = 0, processes = 0;
        MPI_Comm_rank(world, &rank);
        MPI_Comm_size(world, &processes);
        MPI_Dims_create(processes, 2, dims_.data());

        // The offsets are symmetric, so the same list serves as sources and destinations.
        std::array<int, moore.size()> neighbors{};
        for (std::size_t k = 0; k < moore.size(); ++k) {
            const int y = (rank / dims_[1] + moore[k].dy + dims_[0]) % dims_[0];
            const int x = (rank % dims_[1] + moore[k].dx + dims_[1]) % dims_[1];
            neighbors[k] = y * dims_[1] + x;
        }
        const auto create_adjacent =
            path == Path::native ? PMPI_Dist_graph_create_adjacent : MPI_Dist_graph_create_adjacent;
        create_adjacent(world, static_cast<int>(neighbors.size()), neighbors.data(), MPI_UNWEIGHTED,
                        static_cast<int>(neighbors.size()), neighbors.data(), MPI_UNWEIGHTED, MPI_INFO_NULL,
                        reorder ? 1 : 0, &comm_);

        // With reorder=1 the process with new rank v plays vertex v: it takes block v of the grid.
        MPI_Comm_rank(comm_, &rank);
        const int ry = rank / dims_[1], rx = rank % dims_[1];
        for (int i = 1; i <= b_; ++i)
            for (int j = 1; j <= b_; ++j) {
                const long gy = static_cast<long>(ry) * b_ + i - 1, gx = static_cast<long>(rx) * b_ + j - 1;
                at(u_, i, j) = static_cast<double>((31 * gx + 17 * gy) % 97);
            }
        boundary_.resize(4 * static_cast<std::size_t>(b_));
        halo_.resize(moore.size() * boundary_.size());
        pack();
    }

    ~MooreStencil() override { MPI_Comm_free(&comm_); }
    MooreStencil(const MooreStencil&) = delete;
    MooreStencil& operator=(const MooreStencil&) = delete;

    MPI_Comm comm() const override { return comm_; }

    void exchange() override {
        const int count = static_cast<int>(boundary_.size());
        allgather_(boundary_.data(), count, MPI_DOUBLE, halo_.data(), count, MPI_DOUBLE, comm_);
    }

    void update() override {
        unpack();
        for (int i = 1; i <= b_; ++i)
            for (int j = 1; j <= b_; ++j) {
                const double edges = at(u_, i - 1, j) + at(u_, i + 1, j) + at(u_, i, j - 1) + at(u_, i, j + 1);
                const double corners =
                    at(u_, i - 1, j - 1) + at(u_, i - 1, j + 1) + at(u_, i + 1, j - 1) + at(u_, i + 1, j + 1);
                at(next_, i, j) = (4.0 * at(u_, i, j) + 2.0 * edges + corners) / 16.0;
            }
        std::swap(u_, next_);
        pack();
    }

    std::vector<double> values() const override {
        std::vector<double> interior;
        interior.reserve(static_cast<std::size_t>(b_) * static_cast<std::size_t>(b_));
        for (int i = 1; i <= b_; ++i)
            for (int j = 1; j <= b_; ++j) interior.push_back(at(u_, i, j));
        return interior;
    }

    std::uint64_t native_messages_per_call() const override { return moore.size(); }
    std::uint64_t native_bytes_per_call() const override { return moore.size() * boundary_.size() * sizeof(double); }

    std::string describe() const override {
        std::ostringstream out;
        out << "kernel=stencil\ngrid=" << dims_[0] << 'x' << dims_[1] << "\nblock=" << b_ << '\n';
        return out.str();
    }

private:
    static std::size_t cells(int block) { return static_cast<std::size_t>(block + 2) * static_cast<std::size_t>(block + 2); }
    // The field has a one-cell halo: interior cells are 1..b in both directions.
    double& at(std::vector<double>& field, int i, int j) const { return field[static_cast<std::size_t>(i * (b_ + 2) + j)]; }
    double at(const std::vector<double>& field, int i, int j) const { return field[static_cast<std::size_t>(i * (b_ + 2) + j)]; }

    // A process sends its boundary as four runs: top row, bottom row, left column, right column.
    std::size_t boundary_index(int i, int j) const {
        const auto b = static_cast<std::size_t>(b_);
        if (i == 1) return static_cast<std::size_t>(j - 1);
        if (i == b_) return b + static_cast<std::size_t>(j - 1);
        if (j == 1) return 2 * b + static_cast<std::size_t>(i - 1);
        return 3 * b + static_cast<std::size_t>(i - 1);
    }

    void pack() {
        for (int k = 1; k <= b_; ++k) {
            boundary_[boundary_index(1, k)] = at(u_, 1, k);
            boundary_[boundary_index(b_, k)] = at(u_, b_, k);
            boundary_[boundary_index(k, 1)] = at(u_, k, 1);
            boundary_[boundary_index(k, b_)] = at(u_, k, b_);
        }
    }

    // The halo cells facing neighbor (dy, dx) are that neighbor's boundary cells on the far side.
    void unpack() {
        const auto span = [this](int d) { return d < 0 ? std::pair{0, 0} : d > 0 ? std::pair{b_ + 1, b_ + 1} : std::pair{1, b_}; };
        const auto source = [this](int d, int own) { return d < 0 ? b_ : d > 0 ? 1 : own; };
        for (std::size_t k = 0; k < moore.size(); ++k) {
            const double* from = halo_.data() + k * boundary_.size();
            const auto [i0, i1] = span(moore[k].dy);
            const auto [j0, j1] = span(moore[k].dx);
            for (int i = i0; i <= i1; ++i)
                for (int j = j0; j <= j1; ++j)
                    at(u_, i, j) = from[boundary_index(source(moore[k].dy, i), source(moore[k].dx, j))];
        }
    }

    int b_;
    decltype(&MPI_Neighbor_allgather) allgather_;
    std::array<int, 2> dims_{};
    std::vector<double> u_;
    std::vector<double> next_;
    std::vector<double> boundary_;
    std::vector<double> halo_; // one boundary per neighbor, in moore order
    MPI_Comm comm_ = MPI_COMM_NULL;
};

} // namespace

std::unique_ptr<Workload> make_stencil(int block, bool reorder, Path path, MPI_Comm world) {
    return std::make_unique<MooreStencil>(block, reorder, path, world);
}

} // namespace halo_job
