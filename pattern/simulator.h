// P processes of a distributed algorithm inside one process: each runs as a coroutine with its
// own Transport; an exchange suspends until every message it expects has been sent. The
// simulator resumes a process as soon as every message it waits for has been sent, in the order
// those last messages were sent. Deterministic.
#pragma once

#include "matching/task.h"
#include "matching/transport.h"

#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

namespace nbrcomb::detail {

class SimulatedNetwork;

// Thrown when every unfinished process waits for a message nobody will send.
struct SimulationDeadlock : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs algorithm(transport) for ranks 0..processes-1 and returns their results by rank.
template <class T>
std::vector<T> simulate(int processes, const std::function<Task<T>(Transport&)>& algorithm);

// The engine behind simulate, independent of the result type.
class SimulatedNetwork {
public:
    explicit SimulatedNetwork(int processes);
    ~SimulatedNetwork();
    Transport& transport(int rank);
    // Resumes waiting processes until none can go on; throws SimulationDeadlock if some wait.
    void run_until_quiet();

    struct Impl;  // defined with the transports in simulator.cpp

private:
    std::unique_ptr<Impl> impl_;
};

template <class T>
std::vector<T> simulate(int processes, const std::function<Task<T>(Transport&)>& algorithm) {
    SimulatedNetwork network(processes);
    std::vector<Task<T>> tasks;
    tasks.reserve(static_cast<std::size_t>(processes));
    for (int rank = 0; rank < processes; ++rank) tasks.push_back(algorithm(network.transport(rank)));
    for (Task<T>& task : tasks) task.start();
    network.run_until_quiet();
    std::vector<T> results;
    results.reserve(tasks.size());
    for (Task<T>& task : tasks) results.push_back(task.take());
    return results;
}

}  // namespace nbrcomb::detail
