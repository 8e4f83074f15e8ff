#include "schedule/schedule.h"

#include <ostream>

namespace nbrcomb::detail {

namespace {

const char* name(Space space) {
    switch (space) {
    case Space::send: return "send";
    case Space::recv: return "recv";
    case Space::temp: return "temp";
    }
    return "?";
}

std::ostream& operator<<(std::ostream& out, const Block& block) {
    return out << name(block.at.space) << '+' << block.at.offset << " (" << block.count << " elements, "
               << block.bytes << " B)";
}

}  // namespace

void print(std::ostream& out, const Schedule& schedule) {
    out << "schedule: " << schedule.rounds.size() << " rounds, " << schedule.messages << " messages, "
        << schedule.bytes_sent << " B sent, " << schedule.temp_bytes << " B temp\n";
    for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
        out << "round " << r << '\n';
        for (const Op& op : schedule.rounds[r].ops) {
            if (const auto* send = std::get_if<SendOp>(&op))
                out << "  send " << send->data << " to " << send->peer << '\n';
            else if (const auto* recv = std::get_if<RecvOp>(&op))
                out << "  recv " << recv->data << " from " << recv->peer << '\n';
            else {
                const auto& copy = std::get<CopyOp>(op);
                out << "  copy " << copy.from << " to " << copy.to << '\n';
            }
        }
    }
}

}  // namespace nbrcomb::detail
