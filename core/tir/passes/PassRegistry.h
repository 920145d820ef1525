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

#include "ir/PassOptions.h"
#include "tir/IR.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessel::tir {

using tessel::PassOption;
using tessel::PassOptionValues;
using tessel::PassSpec;
using tessel::parsePassSpec;
using tessel::passOptionBool;
using tessel::passOptionInt;

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

/// Throws CompileError when `values` names an option that `pass` does not have.
void checkPassOptions(const PassInfo& pass, const PassOptionValues& values);

} // namespace tessel::tir
