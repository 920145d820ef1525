/// \file
/// The registry of TIR passes: one record per pass.
///
/// Each record gives the pass's kebab-case name (what the command line, the
/// IDE's stage view, pipelines and the docs use), a one-line summary, a
/// paragraph for students, its options with defaults and help, and the
/// function that runs it on a PrimFunc. All records are listed in one explicit
/// function, tirPasses() in PassRegistry.cpp: there is no self-registration.
/// The free functions of the passes (StorageFlatten.h, Vectorize.h ...) can
/// also be called directly with their typed options structs.
#pragma once

#include "tir/IR.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessel::tir {

/// Option values for one run of a pass, by option name, as text (what a
/// command-line flag or the IDE gives). Options not named take their default.
using PassOptionValues = std::map<std::string, std::string>;

/// One option of a pass: kebab-case name, default value as text, help line.
struct PassOption {
    std::string name;
    std::string defaultValue;
    std::string help;
};

/// The record of one pass.
struct PassInfo {
    std::string name;        ///< kebab-case, e.g. "storage-flatten"
    std::string summary;     ///< one line
    std::string description; ///< a paragraph for students
    std::vector<PassOption> options;
    /// Runs the pass. Throws CompileError for bad option values.
    std::function<PrimFunc(const PrimFunc&, const PassOptionValues&)> run;

    /// The option called `name`, or null.
    const PassOption* findOption(const std::string& name) const;
};

/// Every TIR pass, in a fixed order.
const std::vector<PassInfo>& tirPasses();
/// The pass called `name`, or null.
const PassInfo* findTirPass(const std::string& name);
/// The names of all passes, comma separated (for error messages).
std::string tirPassNames();

/// A pipeline entry: a pass name with optional options, written as in MLIR:
/// `unroll-loop{max-steps=16,auto-max-step=4}`.
struct PassSpec {
    std::string name;
    PassOptionValues options;
};
/// Parses a pipeline entry; CompileError on malformed text.
PassSpec parsePassSpec(const std::string& text);

/// Throws CompileError when `values` names an option that `pass` does not have.
void checkPassOptions(const PassInfo& pass, const PassOptionValues& values);

/// The value of option `name` in `values`, or `fallback` when absent;
/// CompileError when the text is not an integer (or a bool: true/false/1/0).
int64_t passOptionInt(const PassOptionValues& values, const std::string& name, int64_t fallback);
bool passOptionBool(const PassOptionValues& values, const std::string& name, bool fallback);

} // namespace tessel::tir
