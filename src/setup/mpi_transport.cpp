#include "src/setup/mpi_transport.h"

#include "schedule/algorithm_table.h"
#include "src/progress/progressing_wait.h"

#include <algorithm>
#include <vector>

namespace nbrcomb::detail {

namespace {

void check(int err) {
    if (err != MPI_SUCCESS) throw TransportError(err);
}

// A message's first part holds its length and up to this many of its values (1 KiB in all, sent
// eagerly by every MPI); a longer message's rest follows as a second part.
constexpr std::size_t values_in_first_part = 255;

int post_send(const int* values, std::size_t count, int peer, int tag, MPI_Comm comm, MPI_Request* request) {
    return PMPI_Isend(values, static_cast<int>(count), MPI_INT, peer, tag, comm, request);
}

}  // namespace

MpiTransport::MpiTransport(MPI_Comm comm, int first_tag) : comm_(comm), first_tag_(first_tag) {
    PMPI_Comm_rank(comm, &rank_);
    PMPI_Comm_size(comm, &size_);
}

int MpiTransport::first_part_tag(Channel channel) const { return first_tag_ + channel; }

int MpiTransport::rest_tag(Channel channel) const { return first_tag_ + channel_count() + channel; }

// Every receive is posted before anything is waited for, so a process waits for all its peers
// at once, in any order of arrival, and never polls: a probe per message would wait for the
// peers one by one, and under SMPI every poll of a waiting process is a simulated event. Two
// messages from one peer on one channel match their receives in the order sent (MPI's
// non-overtaking rule), first parts and rests each on their own tag. Waiting advances the
// library's other operations (progressing_wait.h).
bool MpiTransport::start(Exchange& exchange) {
    const std::vector<Outgoing>& outgoing = exchange.sends();
    std::vector<std::vector<int>> first_parts(outgoing.size());
    std::vector<MPI_Request> sends;
    sends.reserve(2 * outgoing.size());
    for (std::size_t i = 0; i < outgoing.size(); ++i) {
        const Outgoing& send = outgoing[i];
        const std::vector<int>& values = *send.payload;
        const std::size_t in_first = std::min(values.size(), values_in_first_part);
        first_parts[i].reserve(1 + in_first);
        first_parts[i].push_back(static_cast<int>(values.size()));
        first_parts[i].insert(first_parts[i].end(), values.begin(), values.begin() + static_cast<std::ptrdiff_t>(in_first));
        check(post_send(first_parts[i].data(), first_parts[i].size(), send.peer, first_part_tag(send.channel), comm_,
                        &sends.emplace_back()));
        if (values.size() > in_first)
            check(post_send(values.data() + in_first, values.size() - in_first, send.peer, rest_tag(send.channel),
                            comm_, &sends.emplace_back()));
    }

    const std::vector<Expected>& expected = exchange.expected();
    std::vector<std::vector<int>> incoming(expected.size(), std::vector<int>(1 + values_in_first_part));
    std::vector<MPI_Request> receives(expected.size(), MPI_REQUEST_NULL);
    for (std::size_t i = 0; i < expected.size(); ++i)
        check(PMPI_Irecv(incoming[i].data(), static_cast<int>(incoming[i].size()), MPI_INT, expected[i].peer,
                         first_part_tag(expected[i].channel), comm_, &receives[i]));
    check(wait_all_progressing(static_cast<int>(receives.size()), receives.data()));

    std::vector<MPI_Request> rests;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        std::vector<int>& values = incoming[i];
        const auto length = static_cast<std::size_t>(values.front());
        values.erase(values.begin());
        values.resize(length);
        if (length > values_in_first_part)
            check(PMPI_Irecv(values.data() + values_in_first_part, static_cast<int>(length - values_in_first_part),
                             MPI_INT, expected[i].peer, rest_tag(expected[i].channel), comm_, &rests.emplace_back()));
    }
    check(wait_all_progressing(static_cast<int>(rests.size()), rests.data()));

    auto& received = exchange.received();
    received.clear();
    for (std::vector<int>& values : incoming) received.push_back(make_payload(std::move(values)));
    check(wait_all_progressing(static_cast<int>(sends.size()), sends.data()));
    return true;
}

}  // namespace nbrcomb::detail
