// Which way one neighborhood collective call runs on a communicator the library manages.
#pragma once

#include "src/communicator/topo_state.h"
#include "src/decision/auto_tuner.h"
#include "src/route/call_args.h"

namespace nbrcomb::detail {

// Outside auto mode, always the mode's schedule. In auto mode, natively until Phase 1
// (adopt_topology.h: run_phase1_when_due, which the caller runs first); then as the trial and
// decision of the call's shape say. Collective over the processes with edges when it takes a
// trial's decision, and every such process takes the same route, since all call collectives in
// one order; a process without edges (which PETSc lets skip the call) runs it natively and joins
// nothing.
// A persistent collective's init gets the combining route where combining is a candidate, and
// each of its starts is routed by route_start.
Choice route_call(TopoState& state, const CallArgs& args, Form form);

// The route of one start of an auto-mode persistent collective of collective on state's
// communicator, whose blocks are of size_class (-1: the v and w forms), typical_block bytes on
// average here (mean_block). Collective as route_call.
Choice route_start(TopoState& state, Collective collective, int size_class, std::size_t typical_block);

// The size class all processes give the call's shape: its blocks' for allgather and alltoall,
// -1 for the v and w forms, whose processes' blocks differ, and for every call where a candidate
// of the topology relays blocks across connected components, which may each call with
// blocks of their own size (and a process without out-edges with any).
inline int shape_class(const CallArgs& args, const Topology& topology) {
    if (topology.relays_across_components) return -1;
    const std::optional<std::size_t> uniform = uniform_block_bytes(args);
    return uniform ? size_class(*uniform) : -1;
}

}  // namespace nbrcomb::detail
