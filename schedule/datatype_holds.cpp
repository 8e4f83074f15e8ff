#include "schedule/datatype_holds.h"

#include "schedule/datatype_facts.h"

#include <stdexcept>

namespace nbrcomb::detail {

DatatypeHolds::~DatatypeHolds() {
    int finalized = 0;
    PMPI_Finalized(&finalized);
    if (finalized) return;
    for (auto& [theirs, ours] : duplicates_) PMPI_Type_free(&ours);
}

void DatatypeHolds::hold(std::vector<Block>& blocks) {
    for (Block& block : blocks) block.type = duplicate_of(block.type);
}

MPI_Datatype DatatypeHolds::duplicate_of(MPI_Datatype type) {
    if (datatype_facts(type).predefined) return type;
    for (const auto& [theirs, ours] : duplicates_)
        if (theirs == type) return ours;
    MPI_Datatype duplicate = MPI_DATATYPE_NULL;
    if (PMPI_Type_dup(type, &duplicate) != MPI_SUCCESS) throw std::runtime_error("a datatype could not be duplicated");
    duplicates_.emplace_back(type, duplicate);
    return duplicate;
}

}  // namespace nbrcomb::detail
