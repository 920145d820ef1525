/// \file
/// inject-virtual-thread: a loop bound to a virtual thread becomes its
/// iterations interleaved statement by statement (TVM's InjectVirtualThread).
///
/// `s[C].bind(vy, te.thread_axis("vthread"))` asks for n copies of the body
/// run by one real thread, not one after another but side by side: the
/// loop goes, and each statement under it that depends on the vthread
/// variable is written n times, for vthread = 0 ... n-1, where it stands (a
/// store inside `for k: for i:` becomes n stores there, so the copies share
/// the loads of k's shared tiles and their arithmetic can overlap).
/// Statements that do not depend on the variable (the cooperative fill of a
/// shared tile) stay one copy. A buffer allocated inside the loop and
/// written with vthread-dependent values (the accumulators, scope "local")
/// gets one copy per vthread: n times the size, accessed at
/// index + vthread * size. Loops and conditions whose bounds do not depend
/// on the variable are kept and the copies made inside them; a statement
/// that has to be copied as a whole and holds loops becomes a serial loop
/// over the copies instead (so does any copy of 16 vthreads or more).
///
/// Dependence is transitive: a buffer stored with a vthread-dependent value
/// or index, or a let of one, counts as the variable itself. Loops whose
/// extent is not a constant are left as they are (the GPU verifier refuses
/// them). Runs on flat TIR after vectorize, before unroll-loop; on a CPU,
/// where the loop would be a serial loop, the result computes the same.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

struct InjectVirtualThreadOptions {
    /// Copies written out one after another up to this many vthreads; more
    /// become a serial loop over the copies (TVM's limit).
    int maxUnrolled = 16;
};

Stmt injectVirtualThread(const Stmt& s, const InjectVirtualThreadOptions& options = {});
PrimFunc injectVirtualThread(const PrimFunc& f, const InjectVirtualThreadOptions& options = {});

} // namespace tessel::tir
