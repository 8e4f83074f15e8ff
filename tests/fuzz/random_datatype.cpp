#include "random_datatype.h"

#include <algorithm>
#include <array>

namespace nbrcomb::fuzz {

namespace {

struct Basic {
    MPI_Datatype type;
    const char* name;
};

const std::array<Basic, 5>& basics() {
    static const std::array<Basic, 5> list{{{MPI_CHAR, "char"},
                                            {MPI_SHORT, "short"},
                                            {MPI_INT, "int"},
                                            {MPI_DOUBLE, "double"},
                                            {MPI_LONG_LONG, "long long"}}};
    return list;
}

const char* basic_name(MPI_Datatype type) {
    for (const Basic& basic : basics())
        if (basic.type == type) return basic.name;
    return "?";
}

int size_of(MPI_Datatype type) {
    int size = 0;
    MPI_Type_size(type, &size);
    return size;
}

struct Piece {
    MPI_Datatype type;
    std::string text;
};

struct Extents {
    MPI_Aint lb, extent, true_lb, true_extent;
};

Extents extents_of(MPI_Datatype type) {
    Extents e{};
    MPI_Type_get_extent(type, &e.lb, &e.extent);
    MPI_Type_get_true_extent(type, &e.true_lb, &e.true_extent);
    return e;
}

// Builds one layout; owns the intermediate types until the result is committed.
class Builder {
public:
    Builder(const Signature& unit, Side side, Random& random) : unit_(unit), side_(side), random_(random) {
        // Every displacement is a multiple of the largest element, so no element lies misaligned.
        for (const MPI_Datatype element : unit.elements) align_ = std::max<MPI_Aint>(align_, size_of(element));
    }
    ~Builder() {
        for (MPI_Datatype& type : made_) MPI_Type_free(&type);
    }
    Builder(const Builder&) = delete;
    Builder& operator=(const Builder&) = delete;

    // The type of layout's unit and repeats, and how it was built.
    void finish(Layout& layout) {
        if (unit_.elements.size() == 1 && layout.repeats == 1 && random_.chance(1, 3)) {
            layout.type = unit_.elements[0];
            layout.derived = false;
            layout.text = basic_name(unit_.elements[0]);
            return;
        }
        Piece piece = build(layout.repeats, 0);
        std::erase(made_, piece.type);
        MPI_Type_commit(&piece.type);
        layout.type = piece.type;
        layout.derived = true;
        layout.text = piece.text;
    }

private:
    static constexpr int max_depth = 3;

    // The unit repeated `repeats` times.
    Piece build(int repeats, int depth) {
        Piece piece;
        if (depth + 1 >= max_depth || (repeats == 1 && random_.chance(1, 2))) {
            piece = replicate(unit_piece(), repeats, 1, depth);
        } else {
            const int inner_repeats = divisor_of(repeats);
            piece = replicate(build(inner_repeats, depth + 1), repeats / inner_repeats, inner_repeats, depth);
        }
        return fitted(random_.chance(1, 4) ? wrap(piece) : piece);
    }

    // On the receive side, piece resized where its data reaches past its extent, which a struct
    // does where a field's explicit bounds (a resized field) exclude another field's data:
    // consecutive elements would overlap, and which one a byte receives would be up to the MPI.
    Piece fitted(const Piece& piece) {
        const Extents e = extents_of(piece.type);
        if (side_ == Side::send || e.true_extent <= e.extent) return piece;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        MPI_Type_create_resized(piece.type, e.true_lb, round_up(e.true_extent, align_), &type);
        return {remember(type), "resized-to-fit(" + piece.text + ")"};
    }

    // One unit: its predefined type, or a struct of its elements (runs of one type merged at
    // random into a field) placed in memory in an order of their own.
    Piece unit_piece() {
        const auto& elements = unit_.elements;
        if (elements.size() == 1) return {elements[0], basic_name(elements[0])};
        std::vector<int> lengths;
        std::vector<MPI_Datatype> types;
        for (const MPI_Datatype element : elements) {
            if (!types.empty() && types.back() == element && random_.chance(1, 2)) {
                ++lengths.back();
            } else {
                types.push_back(element);
                lengths.push_back(1);
            }
        }
        std::vector<Span> footprints;
        for (std::size_t i = 0; i < types.size(); ++i) footprints.push_back({0, lengths[i] * size_of(types[i])});
        const std::vector<MPI_Aint> displacements = place(footprints, memory_order(types.size()), align_);
        MPI_Datatype type = MPI_DATATYPE_NULL;
        MPI_Type_create_struct(static_cast<int>(types.size()), lengths.data(), displacements.data(), types.data(),
                               &type);
        std::string text = "struct{";
        for (std::size_t i = 0; i < types.size(); ++i)
            text += std::string(i ? "," : "") + basic_name(types[i]) +
                    (lengths[i] > 1 ? "*" + std::to_string(lengths[i]) : "");
        return {remember(type), text + "}"};
    }

    // inner repeated `times` times, by one of the layouts; inner_repeats is how many units
    // inner holds (the nested struct rebuilds its fields from units).
    Piece replicate(const Piece& inner, int times, int inner_repeats, int depth) {
        const Extents e = extents_of(inner.type);
        MPI_Datatype type = MPI_DATATYPE_NULL;
        const int kinds = side_ == Side::send ? 10 : 9;
        switch (random_.below(kinds)) {
            case 0:
                MPI_Type_contiguous(times, inner.type, &type);
                return {remember(type), "contiguous(" + inner.text + ")"};
            case 1: {
                const int length = divisor_of(times), blocks = times / length;
                const int stride = (length + gap()) * (random_.chance(1, 3) ? -1 : 1);
                MPI_Type_vector(blocks, length, stride, inner.type, &type);
                return {remember(type), std::string(stride < 0 ? "vector-backward(" : "vector(") + inner.text + ")"};
            }
            case 2: {
                const int length = divisor_of(times), blocks = times / length;
                const MPI_Aint stride = (length * e.extent + gap() * align_) * (random_.chance(1, 3) ? -1 : 1);
                MPI_Type_create_hvector(blocks, length, stride, inner.type, &type);
                return {remember(type), std::string(stride < 0 ? "hvector-backward(" : "hvector(") + inner.text + ")"};
            }
            case 3:
            case 4: {
                // Displacements in extents of inner (indexed) or in bytes (hindexed).
                const bool in_bytes = random_.chance(1, 2);
                const std::vector<int> lengths = split(times);
                std::vector<MPI_Aint> byte_displacements =
                    place(block_footprints(e, lengths), memory_order(lengths.size()), in_bytes ? align_ : e.extent);
                if (in_bytes) {
                    MPI_Type_create_hindexed(static_cast<int>(lengths.size()), lengths.data(),
                                             byte_displacements.data(), inner.type, &type);
                    return {remember(type), "hindexed(" + inner.text + ")"};
                }
                std::vector<int> displacements;
                for (const MPI_Aint d : byte_displacements) displacements.push_back(static_cast<int>(d / e.extent));
                MPI_Type_indexed(static_cast<int>(lengths.size()), lengths.data(), displacements.data(), inner.type,
                                 &type);
                return {remember(type), "indexed(" + inner.text + ")"};
            }
            case 5: {
                const int length = divisor_of(times), blocks = times / length;
                const std::vector<int> lengths(static_cast<std::size_t>(blocks), length);
                const std::vector<MPI_Aint> byte_displacements =
                    place(block_footprints(e, lengths), memory_order(lengths.size()), e.extent);
                if (random_.chance(1, 2)) {
                    MPI_Type_create_hindexed_block(blocks, length, byte_displacements.data(), inner.type, &type);
                    return {remember(type), "hindexed_block(" + inner.text + ")"};
                }
                std::vector<int> displacements;
                for (const MPI_Aint d : byte_displacements) displacements.push_back(static_cast<int>(d / e.extent));
                MPI_Type_create_indexed_block(blocks, length, displacements.data(), inner.type, &type);
                return {remember(type), "indexed_block(" + inner.text + ")"};
            }
            case 6:
                return struct_of(inner, e, times, inner_repeats, depth);
            case 7: {
                // A times = rows x columns piece of a larger 2-D array of inner.
                const int rows = divisor_of(times), columns = times / rows;
                const std::array<int, 2> sub{rows, columns};
                const std::array<int, 2> full{rows + random_.between(0, 2), columns + random_.between(0, 2)};
                const std::array<int, 2> start{random_.between(0, full[0] - rows),
                                               random_.between(0, full[1] - columns)};
                const int order = random_.chance(1, 2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
                MPI_Type_create_subarray(2, full.data(), sub.data(), start.data(), order, inner.type, &type);
                return {remember(type), "subarray(" + inner.text + ")"};
            }
            case 8:
                MPI_Type_dup(inner.type, &type);
                return replicate({remember(type), "dup(" + inner.text + ")"}, times, inner_repeats, depth);
            default:
                return repeated_blocks(inner, e, times);
        }
    }

    // The fields listed in the signature's order, placed in memory in another; each field is
    // inner with a block length, or (nested) a layout of its own of as many units.
    Piece struct_of(const Piece& inner, const Extents& e, int times, int inner_repeats, int depth) {
        const std::vector<int> lengths = split(times);
        const bool nested = depth + 2 < max_depth && random_.chance(1, 2);
        std::vector<MPI_Datatype> types;
        std::vector<int> block_lengths;
        std::vector<Span> footprints;
        std::string text = nested ? "struct-nested(" : "struct(";
        for (const int length : lengths) {
            if (nested) {
                const Piece field = build(length * inner_repeats, depth + 1);
                const Extents f = extents_of(field.type);
                types.push_back(field.type);
                block_lengths.push_back(1);
                footprints.push_back({f.true_lb, f.true_lb + f.true_extent});
                text += (types.size() > 1 ? "," : "") + field.text;
            } else {
                types.push_back(inner.type);
                block_lengths.push_back(length);
                footprints.push_back(block_footprints(e, {length})[0]);
            }
        }
        if (!nested) text += inner.text;
        const std::vector<MPI_Aint> displacements = place(footprints, memory_order(lengths.size()), align_);
        MPI_Datatype type = MPI_DATATYPE_NULL;
        MPI_Type_create_struct(static_cast<int>(types.size()), block_lengths.data(), displacements.data(), types.data(),
                               &type);
        return {remember(type), text + ")"};
    }

    // Send side only: indexed blocks of which some lie on an earlier block of the same length,
    // so the same elements are sent more than once.
    Piece repeated_blocks(const Piece& inner, const Extents& e, int times) {
        const std::vector<int> lengths = split(times);
        std::vector<MPI_Aint> byte_displacements =
            place(block_footprints(e, lengths), memory_order(lengths.size()), e.extent);
        for (std::size_t i = 1; i < lengths.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (lengths[j] == lengths[i] && random_.chance(1, 2)) {
                    byte_displacements[i] = byte_displacements[j];
                    break;
                }
            }
        }
        std::vector<int> displacements;
        for (const MPI_Aint d : byte_displacements) displacements.push_back(static_cast<int>(d / e.extent));
        MPI_Datatype type = MPI_DATATYPE_NULL;
        MPI_Type_indexed(static_cast<int>(lengths.size()), lengths.data(), displacements.data(), inner.type, &type);
        return {remember(type), "indexed-repeated(" + inner.text + ")"};
    }

    // piece with a lower lower bound (below 0 where the data starts at 0) and a larger
    // extent; on the send side sometimes a smaller extent, so that consecutive elements overlap.
    Piece wrap(const Piece& piece) {
        const Extents e = extents_of(piece.type);
        MPI_Datatype type = MPI_DATATYPE_NULL;
        if (side_ == Side::send && random_.chance(1, 4) && e.true_extent > align_) {
            MPI_Type_create_resized(piece.type, e.true_lb, round_up(e.true_extent / 2, align_), &type);
            return {remember(type), "resized-overlapping(" + piece.text + ")"};
        }
        const MPI_Aint below = random_.between(0, 2) * align_;
        const MPI_Aint extent =
            round_up(std::max(e.extent, e.true_extent) + below + random_.between(0, 2) * align_, align_);
        MPI_Type_create_resized(piece.type, std::min(e.lb, e.true_lb) - below, extent, &type);
        return {remember(type), "resized(" + piece.text + ")"};
    }

    // Where blocks of lengths elements of a type with extents e lie relative to their displacement.
    static std::vector<Span> block_footprints(const Extents& e, const std::vector<int>& lengths) {
        std::vector<Span> footprints;
        for (const int length : lengths)
            footprints.push_back({e.true_lb, e.true_lb + (length - 1) * e.extent + e.true_extent});
        return footprints;
    }

    // Displacements, multiples of granule, that lay the footprints out apart in memory in the
    // given order with random gaps, from 0 or a little below.
    std::vector<MPI_Aint> place(const std::vector<Span>& footprints, const std::vector<std::size_t>& order,
                                MPI_Aint granule) {
        std::vector<MPI_Aint> displacements(footprints.size());
        MPI_Aint cursor = random_.chance(1, 4) ? -random_.between(1, 2) * align_ : 0;
        for (const std::size_t i : order) {
            displacements[i] = round_up(cursor + gap() * align_ - footprints[i].low, granule);
            cursor = displacements[i] + footprints[i].high;
        }
        return displacements;
    }

    // Memory order of n items listed in order 0..n-1: the same, backwards, or shuffled.
    std::vector<std::size_t> memory_order(std::size_t n) {
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        const int draw = random_.below(3);
        if (draw == 1) std::ranges::reverse(order);
        if (draw == 2) random_.shuffle(order);
        return order;
    }

    // 1..4 positive lengths that add up to total.
    std::vector<int> split(int total) {
        std::vector<int> lengths(static_cast<std::size_t>(random_.between(1, std::min(total, 4))), 1);
        for (int rest = total - static_cast<int>(lengths.size()); rest > 0; --rest)
            ++lengths[static_cast<std::size_t>(random_.below(static_cast<int>(lengths.size())))];
        return lengths;
    }

    int divisor_of(int n) {
        std::vector<int> divisors;
        for (int d = 1; d <= n; ++d)
            if (n % d == 0) divisors.push_back(d);
        return random_.pick(divisors);
    }

    int gap() { return random_.chance(1, 2) ? 0 : random_.between(1, 2); }

    MPI_Datatype remember(MPI_Datatype type) {
        made_.push_back(type);
        return type;
    }

    const Signature& unit_;
    Side side_;
    Random& random_;
    MPI_Aint align_ = 1;
    std::vector<MPI_Datatype> made_;
};

}  // namespace

Signature random_signature(Random& random) {
    Signature unit;
    const int length = random.chance(1, 2) ? 1 : random.between(2, 4);
    for (int i = 0; i < length; ++i)
        unit.elements.push_back(
            basics()[static_cast<std::size_t>(random.below(static_cast<int>(basics().size())))].type);
    return unit;
}

std::string describe(const Signature& unit) {
    std::string text;
    for (const MPI_Datatype element : unit.elements)
        text += (text.empty() ? "" : ",") + std::string(basic_name(element));
    return "{" + text + "}";
}

Layout random_layout(const Signature& unit, int repeats, Side side, Random& random) {
    Layout recipe;
    recipe.unit = unit;
    recipe.repeats = repeats;
    recipe.side = side;
    recipe.draws = random.bits();
    return remade_layout(recipe);
}

Layout remade_layout(const Layout& recipe) {
    Layout layout = recipe;
    Random draws(recipe.draws);
    Builder(recipe.unit, recipe.side, draws).finish(layout);
    return layout;
}

void free_layout(Layout& layout) {
    if (layout.derived && layout.type != MPI_DATATYPE_NULL) MPI_Type_free(&layout.type);
    layout.type = MPI_DATATYPE_NULL;
}

MPI_Aint round_up(MPI_Aint value, MPI_Aint granule) {
    const MPI_Aint floor = (value / granule - (value % granule < 0 ? 1 : 0)) * granule;
    return floor == value ? value : floor + granule;
}

MPI_Aint extent_of(MPI_Datatype type) {
    MPI_Aint lb = 0, extent = 0;
    MPI_Type_get_extent(type, &lb, &extent);
    return extent;
}

Span span_of(MPI_Datatype type, int count) {
    if (count == 0) return {};
    const Extents e = extents_of(type);
    const MPI_Aint reach = (count - 1) * e.extent;
    return {e.true_lb + std::min<MPI_Aint>(0, reach), e.true_lb + e.true_extent + std::max<MPI_Aint>(0, reach)};
}

}  // namespace nbrcomb::fuzz
