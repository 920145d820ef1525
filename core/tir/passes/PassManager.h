/// \file
/// The pass manager over TIR: the generic one (ir/PassManager.h) with what it
/// needs to know about a PrimFunc, and the names TIR code uses for it.
///
/// \code
///   tir::PassManager pm(tir::builtinTirPasses());
///   auto snapshots = std::make_shared<tir::SnapshotInstrument>();
///   pm.addInstrument(snapshots);
///   tir::PrimFunc out = pm.run(lowered, tir::defaultTirPipeline());
/// \endcode
#pragma once

#include "ir/PassManager.h"
#include "tir/IR.h"
#include "tir/passes/PassRegistry.h"

namespace tessel::pass {

template <>
struct IRTraits<tir::PrimFunc> {
    static constexpr const char* kName = "TIR";
    static constexpr const char* kOptionsWhat = "pass";
    static constexpr StageLevel kLevel = StageLevel::TIR;
    static bool defined(const tir::PrimFunc& f) { return f.defined(); }
    /// The same function node, or one rebuilt around the same body and buffers.
    static bool sameNodes(const tir::PrimFunc& a, const tir::PrimFunc& b);
    /// printPrimFunc(): the text and the node of every line.
    static AnnotatedText print(const tir::PrimFunc& f);
};

} // namespace tessel::pass

namespace tessel::tir {

using PassInstrument = pass::PassInstrument<PrimFunc>;
using TimingInstrument = pass::TimingInstrument<PrimFunc>;
using SnapshotInstrument = pass::SnapshotInstrument<PrimFunc>;
using PrintAfterChangeInstrument = pass::PrintAfterChangeInstrument<PrimFunc>;
using CrashReproducerInstrument = pass::CrashReproducerInstrument<PrimFunc>;

/// A manager over the built-in TIR passes unless given another registry.
class PassManager : public pass::PassManager<PrimFunc> {
public:
    PassManager() : pass::PassManager<PrimFunc>(builtinTirPasses()) {}
    explicit PassManager(const PassRegistry& registry) : pass::PassManager<PrimFunc>(registry) {}
};

} // namespace tessel::tir
