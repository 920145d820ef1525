/// \file
/// Printing a schedule as a TE script: the inverse of runScript().
///
/// printScript() writes the placeholders and computes that a schedule's stages
/// come from, `te.create_schedule`, the primitives that rebuild every stage
/// (cache_write / cache_read in the order they were applied, split, fuse,
/// reorder, compute_at / compute_inline, vectorize / unroll / parallel /
/// pragma) and a `tvm.build` call. Tensor, axis and loop names are kept, so
/// lowering the printed script gives the same TIR text as lowering the
/// schedule itself. This is how a fused function of a model is shown (and
/// later edited) as a script.
///
/// What the script language cannot say (symbolic shapes, computes with
/// several outputs, expression nodes that only lowering makes) throws
/// CompileError naming it: the printer never writes a script that would
/// rebuild something else.
#pragma once

#include "te/Schedule.h"

#include <string>
#include <vector>

namespace tessel::te::script {

/// A TE script that rebuilds `sch` and builds it as function `name` over
/// `args` (inputs, then outputs, as given to lowering).
std::string printScript(const Schedule& sch, const std::vector<Tensor>& args,
                        const std::string& name);

/// printScript, and records in the stages of `sch` (StageData::sources,
/// replacing what they had) the printed lines that make, change or name each
/// stage and loop, as running the printed script would. Lowering `sch` then
/// links its TIR to the printed script's lines (driver::LoweredFunction::
/// linkScript for a function lowered before).
std::string printScriptWithSources(const Schedule& sch, const std::vector<Tensor>& args,
                                   const std::string& name);

} // namespace tessel::te::script
