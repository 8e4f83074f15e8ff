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

const char* name(MessageKind kind) {
    switch (kind) {
    case MessageKind::direct: return "direct";
    case MessageKind::friend_exchange: return "friend";
    case MessageKind::combined: return "combined";
    }
    return "?";
}

std::ostream& operator<<(std::ostream& out, const Block& block) {
    return out << name(block.at.space) << '+' << block.at.offset << " (" << block.count << " elements, "
               << block.bytes << " B)";
}

struct OpPrinter {
    std::ostream& out;
    void operator()(const SendOp& op) const { out << "send " << name(op.kind) << ' ' << op.data << " to " << op.peer; }
    void operator()(const RecvOp& op) const { out << "recv " << name(op.kind) << ' ' << op.data << " from " << op.peer; }
    void operator()(const CopyOp& op) const { out << "copy " << op.from << " to " << op.to; }
    void operator()(const ProbeRecvOp& op) const {
        out << "recv sized any size from " << op.peer << " into slot " << op.slot;
    }
    void operator()(const RelayOp& op) const {
        out << "send " << name(op.kind) << (op.sized ? " sized" : "");
        for (const Piece& piece : op.pieces) {
            if (const auto* block = std::get_if<Block>(&piece))
                out << ' ' << *block;
            else
                print_part(std::get<SlotPart>(piece));
        }
        out << " to " << op.peer;
    }
    void operator()(const SlotCopyOp& op) const {
        out << "copy";
        print_part(op.from);
        out << " to " << op.to;
    }
    void operator()(const GlobalOp& op) const {
        constexpr const char* names[] = {"allgather", "allgatherv", "alltoall", "alltoallv"};
        out << "global " << names[static_cast<int>(op.collective)] << " after " << op.pack.size() << " copies, from "
            << name(op.send_base.space) << '+' << op.send_base.offset << " (";
        print_counts(op.send_counts);
        out << " B) into " << name(op.recv_base.space) << '+' << op.recv_base.offset << " (";
        print_counts(op.recv_counts);
        out << " B)";
    }
    void print_counts(const std::vector<int>& counts) const {
        for (std::size_t r = 0; r < counts.size(); ++r) out << (r > 0 ? " " : "") << counts[r];
    }
    void print_part(const SlotPart& part) const {
        out << " slot " << part.slot << " part " << part.part << '/' << part.parts;
    }
};

}  // namespace

void print(std::ostream& out, const Schedule& schedule) {
    out << "schedule: " << schedule.rounds.size() << " rounds, " << schedule.temp_bytes << " B temp, " << schedule.slots
        << " slots\n";
    for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
        out << "round " << r << '\n';
        for (const Op& op : schedule.rounds[r].ops) {
            out << "  ";
            std::visit(OpPrinter{out}, op);
            out << '\n';
        }
    }
}

}  // namespace nbrcomb::detail
