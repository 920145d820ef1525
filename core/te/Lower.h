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

#include <memory>
#include <unordered_map>

namespace tessel::te {

/// What lowering made from what: each loop variable's stage and iteration
/// variable, and each buffer's stage. TIR passes keep loop variables and
/// buffer data variables, so the record still explains the TIR after the
/// pipeline (te/ScriptLines.h links it to a script through it).
struct LoweringRecord {
    struct Loop {
        std::shared_ptr<StageData> stage;
        IterVar iterVar;
        /// The loop variable (kept alive with the record).
        tir::Var var;
        /// A loop of a reduction's init nest (a copy of iterVar's loop).
        bool init = false;
    };
    struct Buffer {
        std::shared_ptr<StageData> stage;
        tir::Var data;
    };
    std::unordered_map<const tir::VarNode*, Loop> loops;
    /// Buffers of computed stages, by their data variable.
    std::unordered_map<const tir::VarNode*, Buffer> buffers;
};

/// Lowers `sch`; `args` are the function's buffers in order (inputs and
/// outputs). With `record`, fills it with what the loops and buffers come from.
tir::PrimFunc scheduleToPrimFunc(const Schedule& sch, const std::vector<Tensor>& args,
                                 const std::string& name, LoweringRecord* record = nullptr);

} // namespace tessel::te
