/// \file
/// What an RNN, GRU or LSTM node says, read and checked once: the number of
/// gates, directions, hidden size, layout, the activation functions with
/// their alpha and beta, clip, and the shapes of the sequence.
///
/// The operators' inference (graph/ops/Recurrent.cpp) and expand-recurrent
/// (graph/passes/ExpandRecurrent.h), which rewrites the node into primitive
/// operators, read a node through readRecurrentLayer(), so both accept and
/// refuse the same nodes with the same messages.
///
/// The importer gives the ONNX attribute `activations` (a list of strings,
/// which attributes cannot hold) as one string, the names joined by commas.
#pragma once

#include "graph/Graph.h"

#include <string>
#include <vector>

namespace tessel::graph {

/// An activation function of a recurrent layer with its parameters (the
/// ONNX operator's defaults when the node gives none).
struct RecurrentActivation {
    std::string name; ///< the ONNX name: Sigmoid, Tanh, Relu, Affine, LeakyRelu ...
    double alpha = 0;
    double beta = 0;
};

/// One recurrent node as readRecurrentLayer() finds it.
struct RecurrentLayer {
    std::string op; ///< "RNN", "GRU" or "LSTM"
    int gates = 1;  ///< 1, 3 or 4 blocks of hidden_size rows in W and R
    int directions = 1;
    bool reverse = false;    ///< direction "reverse" (with one direction)
    int64_t hidden = -1;     ///< hidden_size
    bool batchFirst = false; ///< layout 1: X [N, S, I], Y [N, S, D, H], Y_h [N, D, H]
    int64_t seqLength = -1;  ///< S (-1: unknown)
    int64_t batch = -1;      ///< N (-1: unknown)
    int64_t inputSize = -1;  ///< I
    DataType dtype;
    /// Per direction, in the order the equations name them: f (RNN), f g
    /// (GRU), f g h (LSTM).
    std::vector<std::vector<RecurrentActivation>> activations;
    bool hasClip = false;
    double clip = 0;
    bool inputForget = false;       ///< LSTM: f = 1 - i
    bool linearBeforeReset = false; ///< GRU: r (.) (H R_h + Rb_h)
};

/// Activations a recurrent layer applies per direction: 1 (RNN), 2 (GRU), 3 (LSTM).
int recurrentActivationCount(const std::string& op);

/// Reads `node` (an RNN, GRU or LSTM) with the types of its inputs (absent
/// optional inputs undefined). Throws CompileError for anything the
/// operator does not allow: wrong ranks or sizes, an unknown activation, a
/// direction or layout ONNX does not define. The message does not name the
/// node: the registry's inference (and expand-recurrent) put it in front.
RecurrentLayer readRecurrentLayer(const Node& node, const std::vector<Value>& inputs);

} // namespace tessel::graph
