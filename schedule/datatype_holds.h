// The caller's derived datatypes that a schedule names, duplicated so that they live as long as
// the schedule: MPI lets a program free a datatype while a nonblocking or persistent operation
// that uses it is in flight, and a cached schedule outlives the call it was built for.
#pragma once

#include "schedule/schedule.h"

#include <utility>
#include <vector>

namespace nbrcomb::detail {

class DatatypeHolds {
public:
    DatatypeHolds() = default;
    DatatypeHolds(const DatatypeHolds&) = delete;
    DatatypeHolds& operator=(const DatatypeHolds&) = delete;
    // Frees the duplicates, unless the MPI has finalized (and freed them itself).
    ~DatatypeHolds();

    // Each block's datatype replaced by a duplicate held here, one per datatype; predefined
    // datatypes, which live as long as the MPI, stay. Throws where the MPI cannot duplicate one.
    void hold(std::vector<Block>& blocks);

private:
    MPI_Datatype duplicate_of(MPI_Datatype type);

    std::vector<std::pair<MPI_Datatype, MPI_Datatype>> duplicates_;  // the caller's, ours
};

}  // namespace nbrcomb::detail
