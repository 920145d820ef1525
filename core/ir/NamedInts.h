/// \file
/// Lists of named integers as a user types them on a command line,
/// "tile_x=3,unroll=0" (a template's knob choices) or "C=128,H=28" (a
/// template's workload): one reader for all of them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace tessel {

struct NamedIntsSyntax {
    /// What the list is, for messages: "config", "workload".
    std::string what;
    /// What an item must look like, for messages: "NAME=INDEX (a knob name and a choice index from 0)".
    std::string form;
    /// Values may be negative.
    bool allowNegative = false;
    /// A name given twice is an error (else the last one counts).
    bool refuseRepeats = false;
};

/// Reads "a=1,b=2" (empty items are skipped). Throws CompileError
/// "<what> item '<item>' is not <form>" for an item that is not a name, '='
/// and an integer of at most 18 digits, and "<what> parameter '<name>' is
/// given twice" for a repeat when refused.
std::map<std::string, int64_t> parseNamedInts(std::string_view text, const NamedIntsSyntax& syntax);

} // namespace tessel
