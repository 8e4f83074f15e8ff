#include "pattern/simulator.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>

namespace nbrcomb::detail {

// Each process has a list of messages sent to it and not yet received, in arrival order, and
// while parked, its exchange's expected (sender, channel) keys sorted, with a flag per key once
// a message for it has arrived: no hashing and no allocation per message, which matters with
// thousands of processes that each have thousands of friends.
struct SimulatedNetwork::Impl {
    struct Message {
        std::uint64_t key;  // (sender, channel)
        Payload payload;
    };

    struct Inbox {
        std::vector<Message> pending;  // arrival order
        // The exchange the process waits in, if any.
        Exchange* exchange = nullptr;
        std::coroutine_handle<> waiting;
        std::vector<std::uint64_t> expected;  // sorted
        std::vector<char> arrived;            // per expected key
        std::size_t missing = 0;
    };

    explicit Impl(int processes);

    static std::uint64_t key(int from, Channel channel) {
        return static_cast<std::uint64_t>(from) * static_cast<std::uint64_t>(Channel::count) +
               static_cast<std::uint64_t>(channel);
    }

    // Position of key among the sorted expected keys, if expected.
    static std::optional<std::size_t> find(const std::vector<std::uint64_t>& sorted, std::uint64_t key) {
        const auto it = std::lower_bound(sorted.begin(), sorted.end(), key);
        if (it == sorted.end() || *it != key) return std::nullopt;
        return static_cast<std::size_t>(it - sorted.begin());
    }

    void deliver(int from, const Outgoing& send) {
        if (send.peer < 0 || send.peer >= processes)
            throw std::out_of_range("simulated send to rank " + std::to_string(send.peer));
        Inbox& inbox = inboxes[static_cast<std::size_t>(send.peer)];
        const std::uint64_t box = key(from, send.channel);
        inbox.pending.push_back({box, send.payload});
        if (inbox.exchange == nullptr) return;
        if (const auto index = find(inbox.expected, box); index && !inbox.arrived[*index]) {
            inbox.arrived[*index] = 1;
            if (--inbox.missing == 0) ready.push_back(send.peer);
        }
    }

    // Marks which expected keys have a pending message; returns how many are still missing.
    static std::size_t match_pending(Inbox& inbox) {
        inbox.arrived.assign(inbox.expected.size(), 0);
        std::size_t missing = inbox.expected.size();
        for (const Message& message : inbox.pending)
            if (const auto index = find(inbox.expected, message.key); index && !inbox.arrived[*index]) {
                inbox.arrived[*index] = 1;
                --missing;
            }
        return missing;
    }

    // Moves the oldest pending message of every expected key into the exchange.
    static void take(Inbox& inbox, Exchange& exchange) {
        std::vector<Payload> by_key(inbox.expected.size());
        std::size_t kept = 0;
        for (Message& message : inbox.pending) {
            const auto index = find(inbox.expected, message.key);
            if (index && !by_key[*index])
                by_key[*index] = std::move(message.payload);
            else
                inbox.pending[kept++] = std::move(message);
        }
        inbox.pending.resize(kept);
        auto& received = exchange.received();
        received.clear();
        for (const Expected& expected : exchange.expected())
            received.push_back(std::move(by_key[*find(inbox.expected, key(expected.peer, expected.channel))]));
        inbox.exchange = nullptr;
    }

    // Completes the exchange now if every expected message is pending; else waits for them.
    bool start(int rank, Exchange& exchange) {
        Inbox& inbox = inboxes[static_cast<std::size_t>(rank)];
        inbox.expected.clear();
        for (const Expected& expected : exchange.expected()) inbox.expected.push_back(key(expected.peer, expected.channel));
        std::sort(inbox.expected.begin(), inbox.expected.end());
        if (std::adjacent_find(inbox.expected.begin(), inbox.expected.end()) != inbox.expected.end())
            throw std::invalid_argument("an exchange expects two messages from one peer on one channel");
        inbox.missing = match_pending(inbox);
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
