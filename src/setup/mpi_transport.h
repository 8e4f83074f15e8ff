// The pattern algorithms' Transport over MPI: every exchange completes before it returns.
#pragma once

#include "matching/transport.h"

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace nbrcomb::detail {

class MpiTransport final : public Transport {
public:
    // Messages travel on comm with tags first_tag + channel, the rest of a long one on
    // first_tag + channel_count() + channel (TopoState::pattern_tags reserves both).
    MpiTransport(MPI_Comm comm, int first_tag);
    int rank() const override { return rank_; }
    int size() const override { return size_; }

protected:
    bool start(Exchange& exchange) override;
    void park(Exchange&, std::coroutine_handle<>) override {}  // start always completes

private:
    int first_part_tag(Channel channel) const;
    int rest_tag(Channel channel) const;

    MPI_Comm comm_;
    int first_tag_;
    int rank_ = 0;
    int size_ = 0;
};

// Thrown when MPI fails under the pattern algorithms; the topology then stays native.
struct TransportError : std::runtime_error {
    explicit TransportError(int code) : std::runtime_error("MPI error " + std::to_string(code)), code(code) {}
    int code;
};

}  // namespace nbrcomb::detail
