#include "schedule/direct_builder.h"

#include <cassert>

namespace nbrcomb::detail {

Schedule build_direct_schedule(int self, std::span<const int> sources, std::span<const int> destinations,
                               std::span<const Block> send_blocks, std::span<const Block> recv_blocks) {
    assert(sources.size() == recv_blocks.size() && destinations.size() == send_blocks.size());
    Schedule schedule;
    Round round;
    round.ops.reserve(sources.size() + destinations.size());

    std::vector<const Block*> self_receives;
    for (std::size_t j = 0; j < sources.size(); ++j) {
        if (sources[j] == self)
            self_receives.push_back(&recv_blocks[j]);
        else if (recv_blocks[j].bytes > 0)
            round.ops.emplace_back(RecvOp{recv_blocks[j], sources[j]});
    }
    std::size_t self_sends = 0;
    for (std::size_t i = 0; i < destinations.size(); ++i) {
        const Block& block = send_blocks[i];
        if (destinations[i] == self) {
            // A self-loop in the out-list has its partner in the in-list; if the caller's
            // lists disagree the extra ones have nothing to meet, as natively.
            if (self_sends < self_receives.size() && block.bytes > 0)
                round.ops.emplace_back(CopyOp{block, *self_receives[self_sends]});
            ++self_sends;
        } else if (block.bytes > 0) {
            round.ops.emplace_back(SendOp{block, destinations[i]});
            ++schedule.messages;
            schedule.bytes_sent += block.bytes;
        }
    }
    if (!round.ops.empty()) schedule.rounds.push_back(std::move(round));
    return schedule;
}

}  // namespace nbrcomb::detail
