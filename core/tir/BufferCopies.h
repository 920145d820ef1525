/// \file
/// Buffers enlarged to hold several copies side by side, and accesses
/// redirected to one of them: double buffering's two halves of a shared tile
/// (tir/passes/InjectDoubleBuffer.h), one copy of the accumulators per
/// virtual thread (tir/passes/InjectVirtualThread.h).
#pragma once

#include "tir/IR.h"

#include <unordered_map>

namespace tessel::tir {

struct BufferCopy {
    /// The buffer of all copies (same data variable, a multiple of the size).
    Buffer enlarged;
    /// Elements of one copy: copy c starts at c * size.
    Expr size;
};

/// By the data variable of the buffer each replaces.
using BufferCopies = std::unordered_map<const VarNode*, BufferCopy>;

/// `s` with every load and store of a buffer in `copies` going to copy
/// `which` of its enlarged buffer (index + which * size; vector indices get
/// the offset broadcast). Other accesses are left as they are.
Stmt redirectToCopy(const Stmt& s, const BufferCopies& copies, const Expr& which);

} // namespace tessel::tir
