// How the distributed algorithms of matching/ and pattern/ talk: a process sends one message to
// each of some peers and waits for one from each of some peers, both sides knowing who talks to
// whom. It lives in the lowest layer that uses it; the implementations live above: one runs over
// MPI (src/setup/mpi_transport.h), one runs P processes inside one process (pattern/simulator.h), and
// the algorithms cannot tell them apart.
#pragma once

#include <coroutine>
#include <cstdint>
#include <memory>
#include <vector>

namespace nbrcomb::detail {

// What a message is about, so streams between the same two processes never mix. Each module
// that talks numbers its own channels from 0 (MatchingChannel in matching/friends.h, ...); the transport
// adds the first channel of the algorithm whose Phase 1 runs (channel_base), which the algorithm
// table gives out (schedule/algorithm_table.h), so two algorithms' messages never mix either.
using Channel = int;
constexpr int channel_limit = 64;  // channels of all algorithms together

// Immutable and shared, so one list sent to many peers exists once (it matters when the
// simulator holds thousands of processes' messages at a time).
using Payload = std::shared_ptr<const std::vector<int>>;

inline Payload make_payload(std::vector<int> values) {
    return std::make_shared<const std::vector<int>>(std::move(values));
}

struct Outgoing {
    int peer;
    Channel channel;
    Payload payload;
};

struct Expected {
    int peer;
    Channel channel;
};

struct TransportStats {
    std::uint64_t messages = 0;
    std::uint64_t bytes = 0;
    std::uint64_t exchanges = 0;
};

class Transport;

// co_await transport.exchange(sends, expected): posts every send, then resumes with the
// payloads of the expected messages, in the order expected lists them.
class Exchange {
public:
    Exchange(Transport& transport, std::vector<Outgoing> sends, std::vector<Expected> expected)
        : transport_(transport), sends_(std::move(sends)), expected_(std::move(expected)) {}

    bool await_ready();
    void await_suspend(std::coroutine_handle<> waiting);
    std::vector<Payload> await_resume() { return std::move(received_); }

    const std::vector<Outgoing>& sends() const { return sends_; }
    const std::vector<Expected>& expected() const { return expected_; }
    std::vector<Payload>& received() { return received_; }

private:
    Transport& transport_;
    std::vector<Outgoing> sends_;
    std::vector<Expected> expected_;
    std::vector<Payload> received_;
};

class Transport {
public:
    virtual ~Transport() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;

    Exchange exchange(std::vector<Outgoing> sends, std::vector<Expected> expected) {
        for (Outgoing& send : sends) send.channel += channel_base_;
        for (Expected& from : expected) from.channel += channel_base_;
        return Exchange(*this, std::move(sends), std::move(expected));
    }

    // The first channel of the algorithm whose Phase 1 runs next.
    void set_channel_base(Channel base) { channel_base_ = base; }

    const TransportStats& stats() const { return stats_; }

protected:
    friend class Exchange;
    // Posts the exchange's sends and completes its receives if it can now; true when complete.
    virtual bool start(Exchange& exchange) = 0;
    // Called when start returned false: resume waiting once every expected message is in.
    virtual void park(Exchange& exchange, std::coroutine_handle<> waiting) = 0;

    TransportStats stats_;
    Channel channel_base_ = 0;
};

inline bool Exchange::await_ready() {
    ++transport_.stats_.exchanges;
    for (const Outgoing& send : sends_) {
        ++transport_.stats_.messages;
        transport_.stats_.bytes += send.payload->size() * sizeof(int);
    }
    return transport_.start(*this);
}

// The same message to every peer, and one from each.
inline Exchange exchange_with_all(Transport& transport, const std::vector<int>& peers, Channel channel,
                                  const Payload& payload) {
    std::vector<Outgoing> sends;
    std::vector<Expected> from;
    for (const int rank : peers) {
        sends.push_back({rank, channel, payload});
        from.push_back({rank, channel});
    }
    return transport.exchange(std::move(sends), std::move(from));
}

inline void Exchange::await_suspend(std::coroutine_handle<> waiting) { transport_.park(*this, waiting); }

}  // namespace nbrcomb::detail
