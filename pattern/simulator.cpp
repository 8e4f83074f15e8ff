#include "pattern/simulator.h"

#include <algorithm>
#include <bit>
#include <deque>
#include <stdexcept>
#include <string>

namespace nbrcomb::detail {

// Each process has a list of messages sent to it and not yet received, in arrival order, and
// while in an exchange, a table of the exchange's expected (sender, channel) keys, with a flag
// per key once a message for it has arrived. Thousands of processes with thousands of friends
// each send hundreds of millions of messages, so matching one is a single probe of an
// open-addressing table, not a binary search of sorted keys (whose cache misses in the
// receiver's keys took most of the run time), and allocates nothing.
struct SimulatedNetwork::Impl {
    struct Message {
        std::uint64_t key;  // (sender, channel)
        Payload payload;
    };

    static constexpr std::uint64_t no_key = ~std::uint64_t{0};

    struct Slot {
        std::uint64_t key = no_key;
        std::uint32_t index = 0;  // in the exchange's expected list
        bool arrived = false;
    };

    struct Inbox {
        std::vector<Message> pending;  // arrival order
        // The exchange the process waits in, if any.
        Exchange* exchange = nullptr;
        std::coroutine_handle<> waiting;
        std::vector<Slot> slots;  // the exchange's expected keys; a power of two, at most half full
        std::size_t missing = 0;

        // The slot holding key, or the empty one where it would go.
        Slot& probe(std::uint64_t key) {
            const std::size_t mask = slots.size() - 1;
            const int shift = 64 - std::countr_zero(slots.size());
            // Fibonacci hashing spreads keys that differ by multiples of the channel count, as
            // the keys of one exchange do.
            for (std::size_t at = (key * 0x9e3779b97f4a7c15ULL) >> shift;; at = (at + 1) & mask)
                if (slots[at].key == key || slots[at].key == no_key) return slots[at];
        }

        // Records a message for key; true when it completes the exchange.
        bool arrive(std::uint64_t key) {
            Slot& slot = probe(key);
            if (slot.key != key || slot.arrived) return false;
            slot.arrived = true;
            return --missing == 0;
        }
    };

    explicit Impl(int processes);

    static std::uint64_t key(int from, Channel channel) {
        return static_cast<std::uint64_t>(from) * static_cast<std::uint64_t>(channel_limit) +
               static_cast<std::uint64_t>(channel);
    }

    void deliver(int from, const Outgoing& send) {
        if (send.peer < 0 || send.peer >= processes)
            throw std::out_of_range("simulated send to rank " + std::to_string(send.peer));
        Inbox& inbox = inboxes[static_cast<std::size_t>(send.peer)];
        const std::uint64_t box = key(from, send.channel);
        inbox.pending.push_back({box, send.payload});
        if (inbox.exchange != nullptr && inbox.arrive(box)) ready.push_back(send.peer);
    }

    // Moves the oldest pending message of every expected key into the exchange.
    static void take(Inbox& inbox, Exchange& exchange) {
        auto& received = exchange.received();
        received.assign(exchange.expected().size(), nullptr);
        std::size_t kept = 0;
        for (Message& message : inbox.pending) {
            const Slot& slot = inbox.probe(message.key);
            if (slot.key == message.key && !received[slot.index])
                received[slot.index] = std::move(message.payload);
            else
                inbox.pending[kept++] = std::move(message);
        }
        inbox.pending.resize(kept);
        inbox.exchange = nullptr;
    }

    // Completes the exchange now if every expected message is pending; else waits for them.
    bool start(int rank, Exchange& exchange) {
        Inbox& inbox = inboxes[static_cast<std::size_t>(rank)];
        const std::vector<Expected>& expected = exchange.expected();
        inbox.slots.assign(std::max<std::size_t>(2, std::bit_ceil(2 * expected.size())), Slot{});
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const std::uint64_t box = key(expected[i].peer, expected[i].channel);
            Slot& slot = inbox.probe(box);
            if (slot.key == box)
                throw std::invalid_argument("an exchange expects two messages from one peer on one channel");
            slot = {box, static_cast<std::uint32_t>(i), false};
        }
        inbox.missing = expected.size();
        for (const Message& message : inbox.pending) inbox.arrive(message.key);
        if (inbox.missing > 0) return false;
        take(inbox, exchange);
        return true;
    }

    void park(int rank, Exchange& exchange, std::coroutine_handle<> waiting) {
        Inbox& inbox = inboxes[static_cast<std::size_t>(rank)];
        inbox.exchange = &exchange;
        inbox.waiting = waiting;
    }

    void resume(int rank) {
        Inbox& inbox = inboxes[static_cast<std::size_t>(rank)];
        const std::coroutine_handle<> waiting = inbox.waiting;
        take(inbox, *inbox.exchange);
        waiting.resume();
    }

    int processes;
    std::vector<std::unique_ptr<Transport>> transports;
    std::vector<Inbox> inboxes;
    std::deque<int> ready;  // parked processes whose messages are all in, in wake-up order
};

namespace {

class SimulatedTransport final : public Transport {
public:
    SimulatedTransport(SimulatedNetwork::Impl& network, int rank) : network_(network), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return network_.processes; }

protected:
    bool start(Exchange& exchange) override {
        for (const Outgoing& send : exchange.sends()) network_.deliver(rank_, send);
        return network_.start(rank_, exchange);
    }
    void park(Exchange& exchange, std::coroutine_handle<> waiting) override { network_.park(rank_, exchange, waiting); }

private:
    SimulatedNetwork::Impl& network_;
    int rank_;
};

}  // namespace

SimulatedNetwork::Impl::Impl(int processes) : processes(processes), inboxes(static_cast<std::size_t>(processes)) {
    transports.reserve(static_cast<std::size_t>(processes));
    for (int rank = 0; rank < processes; ++rank) transports.push_back(std::make_unique<SimulatedTransport>(*this, rank));
}

SimulatedNetwork::SimulatedNetwork(int processes) : impl_(std::make_unique<Impl>(processes)) {}
SimulatedNetwork::~SimulatedNetwork() = default;

Transport& SimulatedNetwork::transport(int rank) { return *impl_->transports.at(static_cast<std::size_t>(rank)); }

void SimulatedNetwork::run_until_quiet() {
    while (!impl_->ready.empty()) {
        const int rank = impl_->ready.front();
        impl_->ready.pop_front();
        impl_->resume(rank);
    }
    for (int rank = 0; rank < impl_->processes; ++rank)
        if (impl_->inboxes[static_cast<std::size_t>(rank)].exchange != nullptr)
            throw SimulationDeadlock("simulated rank " + std::to_string(rank) + " waits for a message nobody sends");
}

}  // namespace nbrcomb::detail
