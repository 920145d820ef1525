/// \file
/// expand-recurrent: writes RNN, GRU and LSTM nodes as the primitive
/// operators of their equations, one time step after another.
///
/// Summary: unroll recurrent layers over their static sequence length into
/// Gemm, Add, activations, Slice and Concat.
///
/// Description (for the pass registry): no kernel computes a recurrent layer
/// as a whole; as TVM's ONNX frontend does, the pass unrolls the recurrence
/// over the sequence, which must have a static length. The input projection
/// X W^T + Wb (+ Rb) does not depend on the state, so it is one Gemm over all
/// time steps per direction; each step adds its row of that product to the
/// hidden projection H_t-1 R^T (a Gemm with the recurrent weights), slices
/// the gates, applies the activations (with alpha and beta, and clip) and
/// combines them with the previous state, peepholes (LSTM) and the reset
/// gate (GRU, before or after the linear map). sequence_lens masks the steps
/// past each batch entry's length with Where (the state is held, Y is zero
/// there), and a reverse direction reads each entry's own steps backwards
/// (ReverseSequence). Y, Y_h and Y_c are concatenated from the steps' states
/// in the ONNX layout (batch first with layout 1). An absent initial state is
/// zero, so the first step drops the terms that read it. The existing fusion
/// and kernels then compile the steps (the Gemms take the dense strategies).
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

struct ExpandRecurrentOptions {
    /// The operators to look up (the inference of the nodes it makes); null:
    /// the default registry (graph/OpRegistry.h). The driver passes its Context's.
    const OpRegistry* ops = nullptr;
};

/// Returns `g` with every RNN, GRU and LSTM node replaced by its unrolled
/// equations. Throws CompileError naming the node when the sequence length
/// is not static or the node does not check (graph/RecurrentLayer.h).
Graph expandRecurrent(const Graph& g, const ExpandRecurrentOptions& options = {});

} // namespace tessel::graph
