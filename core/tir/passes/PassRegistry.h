/// \file
/// The TIR passes: one record per pass (ir/Pass.h), added to a registry by
/// one explicit function.
///
/// registerTirPasses() adds every built-in TIR pass, in a fixed order, to a
/// registry object (the driver's Context owns one; a plugin or a test adds
/// more). builtinTirPasses() is a registry filled by it once, for code that
/// has no context. The free functions of the passes (StorageFlatten.h,
/// Vectorize.h ...) can also be called directly with their typed options.
#pragma once

#include "ir/Pass.h"
#include "tir/IR.h"

#include <deque>
#include <string>

namespace tessel::tir {

using tessel::PassOption;
using tessel::PassOptionValues;
using tessel::PassSpec;
using tessel::parsePassSpec;
using tessel::passOptionBool;
using tessel::passOptionInt;

using PassInfo = pass::PassInfo<PrimFunc>;
using PassRegistry = pass::PassRegistry<PrimFunc>;

/// Adds every built-in TIR pass to `registry`, in a fixed order.
void registerTirPasses(PassRegistry& registry);
/// A registry holding the built-in passes (filled once, never changed).
const PassRegistry& builtinTirPasses();

/// The built-in passes, in order.
const std::deque<PassInfo>& tirPasses();
/// The built-in pass called `name`, or null.
const PassInfo* findTirPass(const std::string& name);
/// The names of the built-in passes, comma separated (for error messages).
std::string tirPassNames();

/// Throws CompileError when `values` names an option that `pass` does not have.
void checkPassOptions(const PassInfo& pass, const PassOptionValues& values);

} // namespace tessel::tir
