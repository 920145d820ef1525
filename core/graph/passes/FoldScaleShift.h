/// \file
/// fold-scale-shift: folds a per-channel multiply and add after a convolution
/// (or a transposed convolution) into its weights and bias.
///
/// Summary: fold Conv -> Mul(per-channel constant) -> Add(per-channel
/// constant) into one Conv with scaled weights and an adjusted bias.
///
/// Description (for the pass registry): a convolution is linear in its
/// weights, so multiplying its output channel m by s[m] is the same as
/// multiplying filter m by s[m]; adding t[m] afterwards is the same as adding
/// it to the bias. After simplify-inference turned each batch norm into such a
/// Mul and Add, this pass removes them entirely: W'[m, ...] = W[m, ...] * s[m]
/// and b'[m] = b[m] * s[m] + t[m] (b = 0 when the Conv had no bias, which it
/// then gets). It folds when the weights (and bias) are constants, the other
/// operand of the Mul or Add is a constant that only varies along the channel
/// axis (shape [M, 1, 1], [1, M, 1, 1], [1] or a scalar) and the Conv's (and
/// Mul's) output has no other user, since that user would need the unscaled
/// value. The new weights are computed in double and rounded once, so the
/// folded Conv differs from the original only by float rounding. The Conv keeps
/// its id and name; its output takes the name of the last folded operator's.
/// A ConvTranspose folds the same way: its weights are [C, M / group, k...],
/// so output channel m scales a column of its group's block (DCGAN's batch
/// norms after each ConvTranspose disappear so).
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

struct FoldScaleShiftOptions {
    /// Fold a per-channel Mul into the weights.
    bool foldScale = true;
    /// Fold a per-channel Add into the bias.
    bool foldShift = true;
};

/// Returns `g` with per-channel scales and shifts after convolutions folded into them.
Graph foldScaleShift(const Graph& g, const FoldScaleShiftOptions& options = {});

} // namespace tessel::graph
