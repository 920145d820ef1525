/// \file
/// simplify-inference: rewrites operators whose inference-time meaning is
/// simpler than their general one.
///
/// Summary: turn BatchNormalization into a multiply and an add by constants,
/// and remove Dropout and Identity.
///
/// Description (for the pass registry): at inference, batch normalization
/// uses fixed statistics, so y = (x - mean) / sqrt(var + epsilon) * scale + B
/// is an affine map per channel: y = x * s + t with s = scale / sqrt(var +
/// epsilon) and t = B - mean * s. When scale, B, mean and var are constants,
/// the pass computes s and t once (in double, rounded once to the tensor's
/// type) and replaces the node by Mul(x, s) and Add(_, t), with s and t shaped
/// [C, 1, 1] for an NCHW input so that they broadcast along the channel axis.
/// Unlike BatchNormalization (opaque to fusion), Mul and Add are broadcast
/// operators: FuseOps can fuse them into the convolution before them, and
/// fold-scale-shift can fold them into its weights. Dropout is the identity at
/// inference and Identity is the identity always: both disappear and their
/// users read the input directly. The Add keeps the batch norm's id and name.
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

struct SimplifyInferenceOptions {
    /// Rewrite BatchNormalization (inference mode, constant statistics) into Mul and Add.
    bool batchNorm = true;
    /// Remove Dropout (when its mask output is unused).
    bool dropout = true;
    /// Remove Identity.
    bool identity = true;
    /// The operators to look up (the inference of the Mul and Add it makes); null: the default
    /// registry (graph/OpRegistry.h). The driver passes its Context's.
    const OpRegistry* ops = nullptr;
};

/// Returns `g` with batch norms turned into scale and shift, and Dropout and Identity removed.
Graph simplifyInference(const Graph& g, const SimplifyInferenceOptions& options = {});

} // namespace tessel::graph
