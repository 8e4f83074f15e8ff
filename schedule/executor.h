// Runs a Schedule on the MPI's nonblocking point-to-point layer, one round after another, either
// to the end in one call or a step at a time for nonblocking and persistent operations.
#pragma once

#include "schedule/byte_buffer.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace nbrcomb::detail {

// The buffers a schedule's BufferRefs are relative to.
struct CallBuffers {
    const void* send;
    void* recv;
};

// What an execution sent, and the part of it between nodes; the MPI's global collectives it ran
// apart, since their messages are the MPI's.
struct Traffic {
    std::size_t messages = 0;
    std::size_t bytes = 0;
    std::size_t internode_messages = 0;
    std::size_t internode_bytes = 0;
    std::size_t global_collectives = 0;
};

// The node of every rank of the communicator, for telling which messages cross nodes; of_rank
// null when nobody asked where the processes run.
struct NodeMap {
    std::shared_ptr<const std::vector<int>> of_rank;
    int self = 0;  // this process's rank

    bool crosses_to(int peer) const {
        return of_rank && (*of_rank)[static_cast<std::size_t>(peer)] != (*of_rank)[static_cast<std::size_t>(self)];
    }
};

// How far one call of Execution::advance may go.
enum class Advance {
    test,  // post what is due and test for completion, never blocking
    wait,  // block until the last round has completed
};

// Whether an execution runs once, or again and again on the same buffers (a persistent
// collective): then its plain sends and receives are persistent requests, created when first
// posted and restarted each time, and its buffers are kept.
enum class Reuse { once, restartable };

// One execution of a schedule on comm; its messages use tags first_tag ..
// first_tag + tags_per_operation - 1. It holds the schedule, so a cache may drop it meanwhile.
// Its buffers (combined messages, friend messages, requests) keep their memory from one
// execution to the next: allocating them afresh on every call costs page faults that, for
// blocks of tens of KiB, take longer than the messages themselves.
class Execution {
public:
    Execution(std::shared_ptr<const Schedule> schedule, const CallBuffers& buffers, MPI_Comm comm, int first_tag,
              Reuse reuse = Reuse::once, NodeMap nodes = {});
    Execution(const Execution&) = delete;
    Execution& operator=(const Execution&) = delete;
    // An execution dropped before its end cancels and frees what it posted.
    ~Execution();

    // A restartable execution that is done runs again from its first round.
    void restart();
    // An execution that is done runs another schedule (of the same communicator) on other
    // buffers and tags, keeping its memory; once executions only.
    void reuse_for(std::shared_ptr<const Schedule> schedule, const CallBuffers& buffers, int first_tag, NodeMap nodes);

    // Posts rounds as earlier ones complete. Returns MPI_SUCCESS or the first MPI error; after
    // an error the execution is over and has left no request behind.
    int advance(Advance how);
    bool done() const { return round_ == rounds(); }
    const CallBuffers& buffers() const { return buffers_; }
    std::size_t rounds() const { return schedule_->rounds.size(); }
    const Traffic& traffic() const { return traffic_; }

private:
    using Bytes = ByteBuffer;

    int post_round();
    int start_persistent(const Round& round);
    int probe_pending(Advance how);
    int complete_round(Advance how, bool& complete);
    int fail(int err);

    template <class Pointer>
    Pointer address(const BufferRef& ref);
    int tag(MessageKind kind) const { return first_tag_ + static_cast<int>(kind); }
    int post(const SendOp& op);
    int post(const RecvOp& op);
    int post(const CopyOp& op);
    int post(const RelayOp& op);
    int post(const ProbeRecvOp& op);
    int post(const SlotCopyOp& op);
    int post(const GlobalOp& op);
    int receive_probed(const ProbeRecvOp& op, struct ProbedMessage& message);
    std::span<const std::byte> handed_over(const SlotPart& part) const;
    std::size_t size_of(const Block& block) const { return block.bytes; }
    std::size_t size_of(const SlotPart& part) const;
    void count_send(int peer, std::size_t bytes);
    int append_packed(Bytes& message, const Block& block);
    int send(const void* data, int count, MPI_Datatype type, std::size_t bytes, int peer, int message_tag);
    int first_failure() const;

    std::shared_ptr<const Schedule> schedule_;
    CallBuffers buffers_;
    MPI_Comm comm_;
    int first_tag_;
    NodeMap nodes_;
    Traffic traffic_;
    std::size_t round_ = 0;
    bool round_posted_ = false;
    Bytes& next_outgoing();

    Bytes temp_;
    std::vector<Bytes> slots_;     // friend messages received
    std::vector<Bytes> outgoing_;  // messages built this round (their bytes stay put when the vector grows)
    std::size_t outgoing_used_ = 0;
    std::vector<std::uint32_t> piece_sizes_;  // the header of the sized message being built
    std::vector<const ProbeRecvOp*> unprobed_;  // this round's friend messages not yet matched
    std::vector<MPI_Request> requests_;  // this round's; its first persistent_posted_ are persistent
    std::vector<MPI_Status> statuses_;
    Reuse reuse_;
    std::vector<std::vector<MPI_Request>> persistent_;  // per round, once created
    std::size_t persistent_posted_ = 0;
};

}  // namespace nbrcomb::detail
