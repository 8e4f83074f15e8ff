#include "schedule/executor.h"

#include "schedule/local_copy.h"
#include "schedule/probed_receive.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>

namespace nbrcomb::detail {

namespace {

// The header of a sized message holds each piece's byte size in 32 bits: a message goes with an
// int count of bytes, so no piece is larger. Where every piece has one size (allgather and
// alltoall blocks, as a rule), the header is that size after a mark no size can be, whatever the
// number of pieces: small blocks would otherwise travel with as many header bytes as data.
using PieceSize = std::uint32_t;
constexpr PieceSize same_size_mark = 0xFFFFFFFF;

PieceSize header_word(const ByteBuffer& slot, std::size_t k) {
    PieceSize word = 0;
    std::memcpy(&word, slot.data() + k * sizeof word, sizeof word);
    return word;
}

// Where piece part of a sized message of parts pieces starts, after the header, and its size.
std::pair<std::size_t, std::size_t> part_of(const ByteBuffer& slot, int part, int parts) {
    if (parts > 0 && header_word(slot, 0) == same_size_mark) {
        const std::size_t size = header_word(slot, 1);
        return {2 * sizeof(PieceSize) + static_cast<std::size_t>(part) * size, size};
    }
    std::size_t start = static_cast<std::size_t>(parts) * sizeof(PieceSize);
    PieceSize size = 0;
    for (int k = 0; k <= part; ++k) {
        start += size;
        size = header_word(slot, static_cast<std::size_t>(k));
    }
    return {start, size};
}

}  // namespace

Execution::Execution(std::shared_ptr<const Schedule> schedule, const CallBuffers& buffers, MPI_Comm comm,
                     int first_tag, Reuse reuse, NodeMap nodes)
    : schedule_(std::move(schedule)), buffers_(buffers), comm_(comm), first_tag_(first_tag), nodes_(std::move(nodes)),
      temp_(schedule_->temp_bytes), slots_(static_cast<std::size_t>(schedule_->slots)), reuse_(reuse) {}

Execution::~Execution() {
    if (!done()) fail(MPI_SUCCESS);
    for (std::vector<MPI_Request>& round : persistent_)
        for (MPI_Request& request : round) PMPI_Request_free(&request);
}

void Execution::restart() {
    round_ = 0;
    round_posted_ = false;
    traffic_ = {};
}

void Execution::reuse_for(std::shared_ptr<const Schedule> schedule, const CallBuffers& buffers, int first_tag,
                          NodeMap nodes) {
    schedule_ = std::move(schedule);
    nodes_ = std::move(nodes);
    buffers_ = buffers;
    first_tag_ = first_tag;
    temp_.resize(schedule_->temp_bytes);
    slots_.resize(static_cast<std::size_t>(schedule_->slots));
    restart();
}

// A message buffer of this round, with the memory of an earlier one.
Execution::Bytes& Execution::next_outgoing() {
    if (outgoing_used_ == outgoing_.size()) outgoing_.emplace_back();
    Bytes& message = outgoing_[outgoing_used_++];
    message.clear();
    return message;
}

int Execution::advance(Advance how) {
    while (!done()) {
        if (!round_posted_) {
            round_posted_ = true;
            if (const int err = post_round(); err != MPI_SUCCESS) return fail(err);
        }
        if (const int err = probe_pending(how); err != MPI_SUCCESS) return fail(err);
        if (!unprobed_.empty()) return MPI_SUCCESS;
        bool complete = false;
        if (const int err = complete_round(how, complete); err != MPI_SUCCESS) return fail(err);
        if (!complete) return MPI_SUCCESS;
        ++round_;
        round_posted_ = false;
    }
    return MPI_SUCCESS;
}

// Every send of the round is posted before its friend messages are probed for, so that a probe
// never waits for a message this process has yet to release.
int Execution::post_round() {
    requests_.clear();
    outgoing_used_ = 0;
    unprobed_.clear();
    persistent_posted_ = 0;
    const Round& round = schedule_->rounds[round_];
    if (reuse_ == Reuse::restartable)
        if (const int err = start_persistent(round); err != MPI_SUCCESS) return err;
    for (const Op& op : round.ops) {
        if (const auto* probe = std::get_if<ProbeRecvOp>(&op)) {
            unprobed_.push_back(probe);
            continue;
        }
        const bool started = reuse_ == Reuse::restartable &&
                             (std::holds_alternative<SendOp>(op) || std::holds_alternative<RecvOp>(op));
        if (started) continue;
        if (const int err = std::visit([this](const auto& typed) { return post(typed); }, op); err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

// The round's plain sends and receives as persistent requests: created by posting them the
// first time, then restarted together.
int Execution::start_persistent(const Round& round) {
    if (persistent_.size() <= round_) {
        persistent_.resize(round_ + 1);
        for (const Op& op : round.ops) {
            MPI_Request& request = persistent_[round_].emplace_back(MPI_REQUEST_NULL);
            int err = MPI_SUCCESS;
            if (const auto* send = std::get_if<SendOp>(&op))
                err = PMPI_Send_init(address<const void*>(send->data.at), send->data.count, send->data.type,
                                     send->peer, tag(send->kind), comm_, &request);
            else if (const auto* recv = std::get_if<RecvOp>(&op))
                err = PMPI_Recv_init(address<void*>(recv->data.at), recv->data.count, recv->data.type, recv->peer,
                                     tag(recv->kind), comm_, &request);
            else
                persistent_[round_].pop_back();
            if (err != MPI_SUCCESS) return err;
        }
    }
    std::vector<MPI_Request>& started = persistent_[round_];
    if (started.empty()) return MPI_SUCCESS;
    for (const Op& op : round.ops)
        if (const auto* send = std::get_if<SendOp>(&op)) count_send(send->peer, send->data.bytes);
    if (const int err = PMPI_Startall(static_cast<int>(started.size()), started.data()); err != MPI_SUCCESS) return err;
    requests_.assign(started.begin(), started.end());
    persistent_posted_ = started.size();
    return MPI_SUCCESS;
}

int Execution::probe_pending(Advance how) {
    for (auto it = unprobed_.begin(); it != unprobed_.end();) {
        const ProbeRecvOp& op = **it;
        ProbedMessage message;
        bool found = false;
        const int err =
            probe_message(op.peer, tag(MessageKind::friend_exchange), comm_, how == Advance::wait, message, found);
        if (err != MPI_SUCCESS) return err;
        if (!found) {
            ++it;
            continue;
        }
        if (const int received = receive_probed(op, message); received != MPI_SUCCESS) return received;
        it = unprobed_.erase(it);
    }
    return MPI_SUCCESS;
}

int Execution::complete_round(Advance how, bool& complete) {
    // Open MPI (4.1, 5.0) completes a persistent request that failed, a truncated receive, with
    // MPI_SUCCESS from MPI_Testall and MPI_Waitall and its error in the status alone: the statuses
    // start as successes, so one that says otherwise after a success is that error.
    MPI_Status success{};
    success.MPI_ERROR = MPI_SUCCESS;
    statuses_.assign(requests_.size(), success);
    const int count = static_cast<int>(requests_.size());
    int flag = 1;
    const int err = how == Advance::wait ? PMPI_Waitall(count, requests_.data(), statuses_.data())
                                         : PMPI_Testall(count, requests_.data(), &flag, statuses_.data());
    if (err != MPI_SUCCESS) return err == MPI_ERR_IN_STATUS ? first_failure() : err;
    complete = flag != 0;
    if (complete)
        if (const int failure = first_failure(); failure != MPI_ERR_IN_STATUS) return failure;
    return MPI_SUCCESS;
}

// Requests already posted must not outlive the execution; it is over. Persistent ones stay,
// inactive, for the next start.
int Execution::fail(int err) {
    for (std::size_t i = 0; i < requests_.size(); ++i) {
        MPI_Request& request = requests_[i];
        if (request == MPI_REQUEST_NULL) continue;
        PMPI_Cancel(&request);
        if (i < persistent_posted_)
            PMPI_Wait(&request, MPI_STATUS_IGNORE);
        else
            PMPI_Request_free(&request);
    }
    requests_.clear();
    unprobed_.clear();
    round_ = schedule_->rounds.size();
    return err;
}

template <class Pointer>
Pointer Execution::address(const BufferRef& ref) {
    std::byte* base = nullptr;
    switch (ref.space) {
    case Space::send: base = const_cast<std::byte*>(static_cast<const std::byte*>(buffers_.send)); break;
    case Space::recv: base = static_cast<std::byte*>(buffers_.recv); break;
    case Space::temp: base = temp_.data(); break;
    }
    return static_cast<Pointer>(base + ref.offset);
}

int Execution::post(const RecvOp& op) {
    requests_.push_back(MPI_REQUEST_NULL);  // stays null if posting fails
    return PMPI_Irecv(address<void*>(op.data.at), op.data.count, op.data.type, op.peer, tag(op.kind), comm_,
                      &requests_.back());
}

int Execution::post(const SendOp& op) {
    return send(address<const void*>(op.data.at), op.data.count, op.data.type, op.data.bytes, op.peer, tag(op.kind));
}

int Execution::post(const CopyOp& op) {
    return copy_block(address<const void*>(op.from.at), op.from, address<void*>(op.to.at), op.to);
}

int Execution::post(const RelayOp& op) {
    Bytes& message = next_outgoing();
    if (op.sized) {
        std::vector<PieceSize>& sizes = piece_sizes_;  // kept, so that no call allocates
        sizes.clear();
        for (const Piece& piece : op.pieces)
            sizes.push_back(static_cast<PieceSize>(std::visit([this](const auto& p) { return size_of(p); }, piece)));
        if (sizes.size() > 2 && std::ranges::adjacent_find(sizes, std::not_equal_to<>()) == sizes.end())
            sizes = {same_size_mark, sizes.front()};
        message.resize(sizes.size() * sizeof(PieceSize));
        std::memcpy(message.data(), sizes.data(), message.size());
    }
    for (const Piece& piece : op.pieces) {
        if (const auto* block = std::get_if<Block>(&piece)) {
            if (const int err = append_packed(message, *block); err != MPI_SUCCESS) return err;
            continue;
        }
        const std::span<const std::byte> part = handed_over(std::get<SlotPart>(piece));
        message.insert(message.end(), part.begin(), part.end());
    }
    if (!op.sized && message.empty()) return MPI_SUCCESS;  // the receiver expects nothing either
    if (message.size() > INT_MAX) return MPI_ERR_COUNT;    // more than one message can carry
    return send(message.data(), static_cast<int>(message.size()), MPI_BYTE, message.size(), op.peer, tag(op.kind));
}

int Execution::post(const ProbeRecvOp&) { return MPI_ERR_INTERN; }  // probed after the round's sends

int Execution::post(const SlotCopyOp& op) {
    const std::span<const std::byte> block = handed_over(op.from);
    const Block packed{{Space::temp, 0}, static_cast<int>(block.size()), MPI_BYTE, block.size()};
    return copy_block(block.data(), packed, address<void*>(op.to.at), op.to);
}

// Always the nonblocking collective, whatever the call's form: a blocking collective would not
// match another process's nonblocking one, and it would stall the operations in flight here.
int Execution::post(const GlobalOp& op) {
    for (const CopyOp& copy : op.pack)
        if (const int err = post(copy); err != MPI_SUCCESS) return err;
    ++traffic_.global_collectives;
    const void* send = address<const void*>(op.send_base);
    void* recv = address<void*>(op.recv_base);
    requests_.push_back(MPI_REQUEST_NULL);
    MPI_Request* request = &requests_.back();
    const int* send_counts = op.send_counts.data();
    const int* recv_counts = op.recv_counts.data();
    switch (op.collective) {
    case GlobalCollective::allgather:
        return PMPI_Iallgather(send, *send_counts, MPI_BYTE, recv, *recv_counts, MPI_BYTE, comm_, request);
    case GlobalCollective::allgatherv:
        return PMPI_Iallgatherv(send, *send_counts, MPI_BYTE, recv, recv_counts, op.recv_displs.data(), MPI_BYTE,
                                comm_, request);
    case GlobalCollective::alltoall:
        return PMPI_Ialltoall(send, *send_counts, MPI_BYTE, recv, *recv_counts, MPI_BYTE, comm_, request);
    case GlobalCollective::alltoallv:
        return PMPI_Ialltoallv(send, send_counts, op.send_displs.data(), MPI_BYTE, recv, recv_counts,
                               op.recv_displs.data(), MPI_BYTE, comm_, request);
    }
    return MPI_ERR_INTERN;
}

std::size_t Execution::size_of(const SlotPart& part) const { return handed_over(part).size(); }

// A part of a sized message received into a slot.
std::span<const std::byte> Execution::handed_over(const SlotPart& part) const {
    const Bytes& slot = slots_[static_cast<std::size_t>(part.slot)];
    const auto [start, size] = part_of(slot, part.part, part.parts);
    return {slot.data() + start, size};
}

int Execution::receive_probed(const ProbeRecvOp& op, ProbedMessage& message) {
    Bytes& slot = slots_[static_cast<std::size_t>(op.slot)];
    slot.resize(static_cast<std::size_t>(message.bytes()));
    requests_.push_back(MPI_REQUEST_NULL);
    return receive_message(message, slot.data(), &requests_.back());
}

int Execution::append_packed(Bytes& message, const Block& block) {
    const std::size_t start = message.size();
    message.resize(start + block.bytes);
    const Block packed{{Space::temp, 0}, static_cast<int>(block.bytes), MPI_BYTE, block.bytes};
    return copy_block(address<const void*>(block.at), block, message.data() + start, packed);
}

void Execution::count_send(int peer, std::size_t bytes) {
    ++traffic_.messages;
    traffic_.bytes += bytes;
    if (nodes_.crosses_to(peer)) {
        ++traffic_.internode_messages;
        traffic_.internode_bytes += bytes;
    }
}

int Execution::send(const void* data, int count, MPI_Datatype type, std::size_t bytes, int peer, int message_tag) {
    count_send(peer, bytes);
    requests_.push_back(MPI_REQUEST_NULL);
    return PMPI_Isend(data, count, type, peer, message_tag, comm_, &requests_.back());
}

// The error of the first failed request: what went wrong (e.g. MPI_ERR_TRUNCATE), rather
// than MPI_ERR_IN_STATUS, which would point the user at statuses they never see.
int Execution::first_failure() const {
    for (const MPI_Status& status : statuses_)
        if (status.MPI_ERROR != MPI_SUCCESS && status.MPI_ERROR != MPI_ERR_PENDING) return status.MPI_ERROR;
    return MPI_ERR_IN_STATUS;
}

}  // namespace nbrcomb::detail
