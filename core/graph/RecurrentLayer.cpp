#include "graph/RecurrentLayer.h"

#include "ir/Diagnostic.h"

#include <algorithm>
#include <cctype>

namespace tessel::graph {

namespace {

struct ActivationKind {
    const char* name;
    int params; ///< 0: none, 1: alpha, 2: alpha and beta
    double alpha, beta;
};

// The functions ONNX lists for recurrent layers, with their operators' defaults.
constexpr ActivationKind kActivations[] = {
    {"Relu", 0, 0, 0},           {"Tanh", 0, 0, 0},
    {"Sigmoid", 0, 0, 0},        {"Affine", 2, 1.0, 0.0},
    {"LeakyRelu", 1, 0.01, 0},   {"ThresholdedRelu", 1, 1.0, 0},
    {"ScaledTanh", 2, 1.0, 1.0}, {"HardSigmoid", 2, 0.2, 0.5},
    {"Elu", 1, 1.0, 0},          {"Softsign", 0, 0, 0},
    {"Softplus", 0, 0, 0},
};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::vector<std::string> splitNames(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s + ",") {
        if (c == ',') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else if (!std::isspace(static_cast<unsigned char>(c))) {
            cur += c;
        }
    }
    return out;
}

std::string dimText(int64_t d) {
    return d < 0 ? "?" : std::to_string(d);
}

} // namespace

int recurrentActivationCount(const std::string& op) {
    return op == "LSTM" ? 3 : op == "GRU" ? 2 : 1;
}

RecurrentLayer readRecurrentLayer(const Node& node, const std::vector<Value>& inputs) {
    auto fail = [](const std::string& m) { return CompileError(m); };
    auto has = [&](size_t i) { return i < inputs.size() && inputs[i].defined(); };
    auto type = [&](size_t i) -> const TensorType& { return inputs[i].type(); };
    const Attributes& a = node.attrs;

    RecurrentLayer L;
    L.op = node.op;
    L.gates = L.op == "LSTM" ? 4 : L.op == "GRU" ? 3 : 1;
    const std::string direction = a.getString("direction", "forward");
    if (direction == "bidirectional")
        L.directions = 2;
    else if (direction == "reverse")
        L.reverse = true;
    else if (direction != "forward")
        throw fail("direction '" + direction + "' is not one of forward, reverse, bidirectional");
    const int64_t layout = a.getInt("layout", 0);
    if (layout != 0 && layout != 1)
        throw fail("layout " + std::to_string(layout) + " is not 0 or 1");
    L.batchFirst = layout == 1;

    if (!has(0) || !has(1) || !has(2)) throw fail("inputs X, W and R are required");
    const TensorType& x = type(0);
    if (x.rank() != 3) throw fail("X " + x.str() + " must have rank 3");
    if (!x.dtype.isFloat()) throw fail("X " + x.str() + " must be floating-point");
    L.dtype = x.dtype;
    L.seqLength = x.shape[L.batchFirst ? 1 : 0];
    L.batch = x.shape[L.batchFirst ? 0 : 1];
    L.inputSize = x.shape[2];

    const TensorType& r = type(2);
    if (r.rank() != 3)
        throw fail("R " + r.str() + " must have rank 3 [directions, gates * hidden, hidden]");
    L.hidden = a.getInt("hidden_size", r.shape[2]);
    if (L.hidden <= 0)
        throw fail("hidden_size " + dimText(L.hidden) + " must be known and positive");
    const int64_t rows = L.gates * L.hidden;
    auto expect = [&](size_t i, const char* what, std::vector<int64_t> want) {
        const TensorType& t = type(i);
        bool ok = t.rank() == static_cast<int>(want.size()) && t.dtype == L.dtype;
        for (size_t d = 0; ok && d < want.size(); ++d)
            ok = t.shape[d] < 0 || want[d] < 0 || t.shape[d] == want[d];
        if (ok) return;
        std::string w;
        for (size_t d = 0; d < want.size(); ++d)
            w += (d ? ", " : "") + dimText(want[d]);
        throw fail(std::string(what) + " " + t.str() + " must be " + L.dtype.str() + "[" + w + "]");
    };
    const int64_t D = L.directions;
    expect(1, "W", {D, rows, L.inputSize});
    expect(2, "R", {D, rows, L.hidden});
    if (has(3)) expect(3, "B", {D, 2 * rows});
    if (has(4)) {
        const TensorType& s = type(4);
        if (s.rank() != 1 || !s.dtype.isIntOrUInt() ||
            (s.shape[0] >= 0 && L.batch >= 0 && s.shape[0] != L.batch))
            throw fail("sequence_lens " + s.str() +
                       " must be an integer vector of the batch size " + dimText(L.batch));
    }
    const std::vector<int64_t> state = L.batchFirst ? std::vector<int64_t>{L.batch, D, L.hidden}
                                                    : std::vector<int64_t>{D, L.batch, L.hidden};
    if (has(5)) expect(5, "initial_h", state);
    if (L.op == "LSTM") {
        if (has(6)) expect(6, "initial_c", state);
        if (has(7)) expect(7, "P", {D, 3 * L.hidden});
    } else if (inputs.size() > 6) {
        throw fail(L.op + " takes at most 6 inputs, got " + std::to_string(inputs.size()));
    }

    // Activations: given per direction (or once for both), else ONNX's defaults.
    const int count = recurrentActivationCount(L.op);
    std::vector<std::string> names = splitNames(a.getString("activations", ""));
    if (names.empty()) {
        names = L.op == "LSTM"  ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
                : L.op == "GRU" ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                : std::vector<std::string>{"Tanh"};
    }
    if (D == 2 && static_cast<int>(names.size()) == count) {
        const std::vector<std::string> once = names; // the same functions both ways
        names.insert(names.end(), once.begin(), once.end());
    }
    if (static_cast<int64_t>(names.size()) != count * D)
        throw fail("activations lists " + std::to_string(names.size()) + " functions, expected " +
                   std::to_string(count * D) + " (" + std::to_string(count) + " per direction)");
    // alpha and beta are consumed in order by the functions that take them.
    const std::vector<double> alphas = a.getFloats("activation_alpha", {});
    const std::vector<double> betas = a.getFloats("activation_beta", {});
    size_t ai = 0, bi = 0;
    L.activations.assign(static_cast<size_t>(D), {});
    for (size_t i = 0; i < names.size(); ++i) {
        const ActivationKind* kind = nullptr;
        for (const auto& k : kActivations)
            if (lower(k.name) == lower(names[i])) kind = &k;
        if (!kind)
            throw fail(
                "activation '" + names[i] +
                "' is not supported (Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, "
                "ScaledTanh, HardSigmoid, Elu, Softsign, Softplus)");
        RecurrentActivation f{kind->name, kind->alpha, kind->beta};
        if (kind->params >= 1 && ai < alphas.size()) f.alpha = alphas[ai++];
        if (kind->params >= 2 && bi < betas.size()) f.beta = betas[bi++];
        L.activations[i / static_cast<size_t>(count)].push_back(f);
    }

    if (a.has("clip")) {
        L.hasClip = true;
        L.clip = a.getFloat("clip", 0);
        if (!(L.clip > 0)) throw fail("clip " + std::to_string(L.clip) + " must be positive");
    }
    L.inputForget = L.op == "LSTM" && a.getInt("input_forget", 0) != 0;
    L.linearBeforeReset = L.op == "GRU" && a.getInt("linear_before_reset", 0) != 0;
    return L;
}

} // namespace tessel::graph
