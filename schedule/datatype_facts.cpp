#include "schedule/datatype_facts.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace nbrcomb::detail {

namespace {

std::atomic<std::uint64_t> next_identity{1};

// A duplicate has the same type map, under an identity of its own, and is never predefined,
// even where the original is (MPI_Type_dup(MPI_DOUBLE)): the program frees it, and its handle
// comes back for another datatype.
int copy_facts(MPI_Datatype, int, void*, void* value_in, void* value_out, int* flag) {
    auto* copy = new DatatypeFacts(*static_cast<const DatatypeFacts*>(value_in));
    copy->identity = next_identity++;
    copy->predefined = false;
    *static_cast<void**>(value_out) = copy;
    *flag = 1;
    return MPI_SUCCESS;
}

int delete_facts(MPI_Datatype, int, void* value, void*) {
    delete static_cast<DatatypeFacts*>(value);
    return MPI_SUCCESS;
}

int facts_keyval() {
    static const int keyval = [] {
        int created = MPI_KEYVAL_INVALID;
        PMPI_Type_create_keyval(copy_facts, delete_facts, &created, nullptr);
        return created;
    }();
    return keyval;
}

// The datatypes MPI_Type_get_contents returns are new handles where they are derived ones.
struct Contents {
    int combiner = MPI_COMBINER_NAMED;
    std::vector<int> integers;
    std::vector<MPI_Aint> addresses;
    std::vector<MPI_Datatype> types;

    explicit Contents(MPI_Datatype type) {
        int integer_count = 0, address_count = 0, type_count = 0;
        PMPI_Type_get_envelope(type, &integer_count, &address_count, &type_count, &combiner);
        if (combiner == MPI_COMBINER_NAMED) return;
        integers.resize(static_cast<std::size_t>(integer_count));
        addresses.resize(static_cast<std::size_t>(address_count));
        types.resize(static_cast<std::size_t>(type_count));
        PMPI_Type_get_contents(type, integer_count, address_count, type_count, integers.data(), addresses.data(),
                               types.data());
    }
    ~Contents() {
        for (MPI_Datatype& type : types)
            if (!datatype_facts(type).predefined) PMPI_Type_free(&type);
    }
    Contents(const Contents&) = delete;
    Contents& operator=(const Contents&) = delete;
};

// Follows a type map built from blocks of elements, in type-map order, and tells whether it
// stays one gap-free run of increasing addresses.
class RunTracker {
public:
    // blocklength elements of a type with the facts of element, from displacement on.
    void add(MPI_Aint displacement, MPI_Aint blocklength, const DatatypeFacts& element) {
        if (!plain_ || blocklength <= 0 || element.size == 0) return;  // nothing in the type map
        if (!element.plain || (blocklength > 1 && element.extent != element.size)) {
            plain_ = false;
            return;
        }
        const MPI_Aint start = displacement + element.start;
        if (any_ && start != end_) {
            plain_ = false;
            return;
        }
        if (!any_) start_ = start;
        any_ = true;
        end_ = start + blocklength * element.size;
    }
    bool plain() const { return plain_; }
    MPI_Aint start() const { return start_; }

private:
    bool plain_ = true;
    bool any_ = false;
    MPI_Aint start_ = 0;
    MPI_Aint end_ = 0;
};

// Whether a derived datatype's type map is one run in memory order, and where it starts, from
// its constructor's arguments. A constructor not followed here (subarray, darray) counts as not
// plain, which only costs the MPI's datatype engine where memcpy would have done.
void follow_constructor(MPI_Datatype type, DatatypeFacts& facts) {
    const Contents contents(type);
    const std::vector<int>& ints = contents.integers;
    const std::vector<MPI_Aint>& addrs = contents.addresses;
    RunTracker run;
    switch (contents.combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED: {  // the type map unchanged
        const DatatypeFacts old = datatype_facts(contents.types[0]);
        facts.plain = old.plain;
        facts.start = old.start;
        return;
    }
    case MPI_COMBINER_CONTIGUOUS: run.add(0, ints[0], datatype_facts(contents.types[0])); break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
        const DatatypeFacts old = datatype_facts(contents.types[0]);
        const MPI_Aint stride =
            contents.combiner == MPI_COMBINER_VECTOR ? MPI_Aint{ints[2]} * old.extent : addrs[0];
        for (int i = 0; i < ints[0] && run.plain(); ++i) run.add(i * stride, ints[1], old);
        break;
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: {
        const DatatypeFacts old = datatype_facts(contents.types[0]);
        const int count = ints[0];
        for (int i = 0; i < count && run.plain(); ++i) {
            const MPI_Aint displacement =
                contents.combiner == MPI_COMBINER_INDEXED ? MPI_Aint{ints[1 + count + i]} * old.extent : addrs[i];
            run.add(displacement, ints[1 + i], old);
        }
        break;
    }
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
        const DatatypeFacts old = datatype_facts(contents.types[0]);
        for (int i = 0; i < ints[0] && run.plain(); ++i) {
            const MPI_Aint displacement =
                contents.combiner == MPI_COMBINER_INDEXED_BLOCK ? MPI_Aint{ints[2 + i]} * old.extent : addrs[i];
            run.add(displacement, ints[1], old);
        }
        break;
    }
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < ints[0] && run.plain(); ++i)
            run.add(addrs[i], ints[1 + i], datatype_facts(contents.types[i]));
        break;
    default: return;
    }
    facts.plain = run.plain();
    facts.start = run.plain() ? run.start() : 0;
}

DatatypeFacts analyze(MPI_Datatype type) {
    DatatypeFacts facts;
    MPI_Count size = 0;
    PMPI_Type_size_x(type, &size);
    MPI_Aint lb = 0;
    PMPI_Type_get_extent(type, &lb, &facts.extent);
    facts.size = static_cast<MPI_Aint>(size);
    int integer_count = 0, address_count = 0, type_count = 0, combiner = MPI_COMBINER_NAMED;
    PMPI_Type_get_envelope(type, &integer_count, &address_count, &type_count, &combiner);
    // The types of Fortran kinds (MPI_Type_create_f90_*) are predefined too: nobody frees them.
    facts.predefined = combiner == MPI_COMBINER_NAMED || combiner == MPI_COMBINER_F90_REAL ||
                       combiner == MPI_COMBINER_F90_COMPLEX || combiner == MPI_COMBINER_F90_INTEGER;
    if (!facts.predefined) {
        follow_constructor(type, facts);
        return facts;
    }
    // A predefined type is one value, or a pair of values that may leave a gap (MPI_FLOAT_INT).
    MPI_Aint true_lb = 0, true_extent = 0;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    facts.plain = true_extent == facts.size;
    facts.start = true_lb;
    return facts;
}

}  // namespace

DatatypeFacts datatype_facts(MPI_Datatype type) {
    const int keyval = facts_keyval();
    void* value = nullptr;
    int found = 0;
    PMPI_Type_get_attr(type, keyval, &value, &found);
    if (found) return *static_cast<const DatatypeFacts*>(value);
    const DatatypeFacts analyzed = analyze(type);  // asks for the facts of the types it is built of
    // Under MPI_THREAD_MULTIPLE two threads may meet a new datatype at once: one sets the
    // attribute, and no value is ever replaced (and deleted) while another thread reads it.
    static std::mutex setting;
    const std::lock_guard lock(setting);
    PMPI_Type_get_attr(type, keyval, &value, &found);
    if (found) return *static_cast<const DatatypeFacts*>(value);
    auto* facts = new DatatypeFacts(analyzed);
    facts->identity = next_identity++;
    PMPI_Type_set_attr(type, keyval, facts);
    return *facts;
}

std::optional<MPI_Aint> contiguous_start(int count, MPI_Datatype type) {
    const DatatypeFacts facts = datatype_facts(type);
    if (!facts.plain || (count > 1 && facts.extent != facts.size)) return std::nullopt;
    return facts.start;
}

}  // namespace nbrcomb::detail
