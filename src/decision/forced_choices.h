// The setting NBRCOMB_FORCE (hint nbrcomb_force): what runs for a shape of call, forced by the
// user per collective, form and block-size range. It is the strongest tier of auto mode's
// decisions, above the trials, as Open MPI's coll/tuned lets a user force an algorithm per
// collective (coll_tuned_<collective>_algorithm). Pure: parsing and lookup only, no MPI call.
//
// Grammar (spaces around tokens allowed; empty rules, as in ";;" or a trailing ";", ignored):
//   FORCE      := RULE { ";" RULE }
//   RULE       := SHAPE "=" DECISION
//   SHAPE      := COLLECTIVE [ ":" FORM [ ":" SIZE ] ]
//   COLLECTIVE := allgather | allgatherv | alltoall | alltoallv | alltoallw | *
//   FORM       := blocking | nonblocking | persistent | *
//   SIZE       := "<=" N | "<" N | ">=" N | ">" N | N "-" N      (A-B: inclusive)
//   N          := a decimal integer with an optional unit B, KiB or MiB (16KiB, 4096, 1MiB)
//   DECISION   := native | off | an algorithm's name             (off is native)
// Names and units are case-insensitive.
//
// A SIZE applies to size class c >= 0 (src/base/vocabulary.h) when the class's representative block
// (representative_block, the one auto mode's estimates price) lies in the range: its largest block,
// and for the last, unbounded class 256 KiB. So ">16KiB" covers the classes of 64 KiB and larger,
// "<=4KiB" those up to 4 KiB, "<=100KiB" those up to 64 KiB. A rule with a SIZE never applies to
// class -1 (the v and w forms, whose blocks differ per edge); one without applies to every class.
// Of the rules that apply, the last in the text wins: "*=aggregate;allgather:*:>16KiB=native".
#pragma once

#include "src/decision/auto_tuner.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nbrcomb::detail {

struct ForcedChoice {
    std::optional<Collective> collective;  // none: every collective
    std::optional<Form> form;              // none: every form
    bool sized = false;                    // a SIZE was given
    std::size_t min_bytes = 0, max_bytes = SIZE_MAX;  // inclusive
    std::string decision;                  // "native" or an algorithm's name
};

struct ForcedChoices {
    std::vector<ForcedChoice> choices;
    // The decision forced for the shape (size_class -1: v and w forms), the last choice that
    // applies; nullopt if none.
    std::optional<std::string> find(Collective collective, Form form, int size_class) const;
    bool empty() const { return choices.empty(); }
};

// Parses text; a rule that does not parse is left out and adds one line to problems of the form
//   NBRCOMB_FORCE rule "TEXT": WHY; left out
// (source_name is "NBRCOMB_FORCE" or "nbrcomb_force", as the caller passes), and every other rule
// still applies. known_algorithm says whether a name is an algorithm's (lower-case name).
ForcedChoices parse_forced_choices(std::string_view text, std::string_view source_name,
                                   const std::function<bool(std::string_view)>& known_algorithm,
                                   std::vector<std::string>& problems);

// The text of choices in the grammar above, normalised (lower case, "native" for off, sizes in
// bytes like ">16384"), for a log line and so that processes can compare settings.
std::string format_forced_choices(const ForcedChoices& choices);

}  // namespace nbrcomb::detail
