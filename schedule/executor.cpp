#include "schedule/executor.h"

#include "schedule/local_copy.h"

#include <cstdint>
#include <cstring>
#include <list>
#include <span>
#include <vector>

namespace nbrcomb::detail {

namespace {

using Bytes = std::vector<std::byte>;

// The state of one execution: where BufferRefs point, and the buffers it creates.
class Execution {
public:
    Execution(const Schedule& schedule, const CallBuffers& buffers, MPI_Comm comm, int first_tag, Traffic& traffic)
        : buffers_(buffers), comm_(comm), first_tag_(first_tag), traffic_(traffic), temp_(schedule.temp_bytes),
          slots_(static_cast<std::size_t>(schedule.slots)) {}

    int run_round(const Round& round) {
        requests_.clear();
        outgoing_.clear();
        std::vector<const ProbeRecvOp*> probes;
        for (const Op& op : round.ops) {
            if (const auto* probe = std::get_if<ProbeRecvOp>(&op)) {
                probes.push_back(probe);  // after every send of the round is posted
                continue;
            }
            if (const int err = std::visit([this](const auto& typed) { return post(typed); }, op); err != MPI_SUCCESS)
                return abandon(err);
        }
        for (const ProbeRecvOp* probe : probes)
            if (const int err = receive_any_size(*probe); err != MPI_SUCCESS) return abandon(err);
        statuses_.resize(requests_.size());
        const int err = PMPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
        return err == MPI_ERR_IN_STATUS ? first_failure() : err;
    }

private:
    template <class Pointer>
    Pointer address(const BufferRef& ref) {
        std::byte* base = nullptr;
        switch (ref.space) {
        case Space::send: base = const_cast<std::byte*>(static_cast<const std::byte*>(buffers_.send)); break;
        case Space::recv: base = static_cast<std::byte*>(buffers_.recv); break;
        case Space::temp: base = temp_.data(); break;
        }
        return static_cast<Pointer>(base + ref.offset);
    }

    int tag(MessageKind kind) const { return first_tag_ + static_cast<int>(kind); }

    int post(const RecvOp& op) {
        requests_.emplace_back();
        return PMPI_Irecv(address<void*>(op.data.at), op.data.count, op.data.type, op.peer, tag(op.kind), comm_,
                          &requests_.back());
    }

    int post(const SendOp& op) {
        return send(address<const void*>(op.data.at), op.data.count, op.data.type, op.data.bytes, op.peer, tag(op.kind));
    }

    int post(const CopyOp& op) {
        return copy_block(address<const void*>(op.from.at), op.from, address<void*>(op.to.at), op.to);
    }

    // Header of byte sizes, then every block packed.
    int post(const PackedSendOp& op) {
        Bytes& message = outgoing_.emplace_back(op.blocks.size() * sizeof(std::uint64_t));
        for (std::size_t k = 0; k < op.blocks.size(); ++k) {
            const std::uint64_t size = op.blocks[k].bytes;
            std::memcpy(message.data() + k * sizeof size, &size, sizeof size);
        }
        for (const Block& block : op.blocks)
            if (const int err = append_packed(message, block); err != MPI_SUCCESS) return err;
        return send(message.data(), static_cast<int>(message.size()), MPI_BYTE, message.size(), op.peer,
                    tag(MessageKind::friend_exchange));
    }

    int post(const ForwardOp& op) {
        std::size_t bytes = op.own.bytes;
        for (const SlotPart& part : op.forwarded) bytes += handed_over(part).size();
        if (bytes == 0) return MPI_SUCCESS;  // the receiver expects nothing either
        Bytes& message = outgoing_.emplace_back();
        message.reserve(bytes);
        if (const int err = append_packed(message, op.own); err != MPI_SUCCESS) return err;
        for (const SlotPart& part : op.forwarded) {
            const std::span<const std::byte> block = handed_over(part);
            message.insert(message.end(), block.begin(), block.end());
        }
        return send(message.data(), static_cast<int>(message.size()), MPI_BYTE, message.size(), op.peer,
                    tag(MessageKind::combined));
    }

    // The block a group member handed over for this combined message, inside its slot.
    std::span<const std::byte> handed_over(const SlotPart& part) const {
        const Bytes& slot = slots_[static_cast<std::size_t>(part.slot)];
        const auto [start, size] = part_of(slot, part.part, part.parts);
        return {slot.data() + start, size};
    }

    int post(const ProbeRecvOp&) { return MPI_ERR_INTERN; }  // handled by receive_any_size

    int receive_any_size(const ProbeRecvOp& op) {
        MPI_Message message = MPI_MESSAGE_NULL;
        MPI_Status status;
        int err = PMPI_Mprobe(op.peer, tag(MessageKind::friend_exchange), comm_, &message, &status);
        if (err != MPI_SUCCESS) return err;
        int bytes = 0;
        PMPI_Get_count(&status, MPI_BYTE, &bytes);
        Bytes& slot = slots_[static_cast<std::size_t>(op.slot)];
        slot.resize(static_cast<std::size_t>(bytes));
        requests_.emplace_back();
        return PMPI_Imrecv(slot.data(), bytes, MPI_BYTE, &message, &requests_.back());
    }

    // Where block part of a member's message of parts blocks starts, after the header, and its size.
    static std::pair<std::size_t, std::size_t> part_of(const Bytes& slot, int part, int parts) {
        std::size_t start = static_cast<std::size_t>(parts) * sizeof(std::uint64_t);
        std::uint64_t size = 0;
        for (int k = 0; k <= part; ++k) {
            start += size;
            std::memcpy(&size, slot.data() + static_cast<std::size_t>(k) * sizeof size, sizeof size);
        }
        return {start, size};
    }

    int append_packed(Bytes& message, const Block& block) {
        const std::size_t start = message.size();
        message.resize(start + block.bytes);
        const Block packed{{Space::temp, 0}, static_cast<int>(block.bytes), MPI_BYTE, block.bytes};
        return copy_block(address<const void*>(block.at), block, message.data() + start, packed);
    }

    int send(const void* data, int count, MPI_Datatype type, std::size_t bytes, int peer, int message_tag) {
        ++traffic_.messages;
        traffic_.bytes += bytes;
        requests_.emplace_back();
        return PMPI_Isend(data, count, type, peer, message_tag, comm_, &requests_.back());
    }

    // After a failed post the requests already posted must not outlive the call.
    int abandon(int err) {
        for (MPI_Request& request : requests_) {
            if (request == MPI_REQUEST_NULL) continue;
            PMPI_Cancel(&request);
            PMPI_Request_free(&request);
        }
        return err;
    }

    // The error of the first failed request: what went wrong (e.g. MPI_ERR_TRUNCATE), rather
    // than MPI_ERR_IN_STATUS, which would point the user at statuses they never see.
    int first_failure() const {
        for (const MPI_Status& status : statuses_)
            if (status.MPI_ERROR != MPI_SUCCESS && status.MPI_ERROR != MPI_ERR_PENDING) return status.MPI_ERROR;
        return MPI_ERR_IN_STATUS;
    }

    const CallBuffers& buffers_;
    MPI_Comm comm_;
    int first_tag_;
    Traffic& traffic_;
    Bytes temp_;
    std::vector<Bytes> slots_;     // friend messages received
    std::list<Bytes> outgoing_;    // messages built for this round's sends; a list keeps them in place
    std::vector<MPI_Request> requests_;
    std::vector<MPI_Status> statuses_;
};

}  // namespace

int execute(const Schedule& schedule, const CallBuffers& buffers, MPI_Comm comm, int first_tag, Traffic& traffic) {
    Execution execution(schedule, buffers, comm, first_tag, traffic);
    for (const Round& round : schedule.rounds)
        if (const int err = execution.run_round(round); err != MPI_SUCCESS) return err;
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
