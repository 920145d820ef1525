/// \file
/// Lowering a schedule to TIR: bound inference, loop nests, realizations.
///
/// The result is the unflattened PrimFunc (N-d buffer accesses, BufferRealize
/// for intermediates, For loops carrying the schedule's annotations) that the
/// TIR pipeline (tir/passes/Pipeline.h) then flattens, simplifies and
/// vectorizes.
#pragma once

#include "te/Schedule.h"
#include "tir/IR.h"

namespace tessel::te {

/// Lowers `sch`; `args` are the function's buffers in order (inputs and outputs).
tir::PrimFunc scheduleToPrimFunc(const Schedule& sch, const std::vector<Tensor>& args,
                                 const std::string& name);

} // namespace tessel::te
