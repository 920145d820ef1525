#include "graph/passes/ExpandRecurrent.h"

#include "graph/OpRegistry.h"
#include "graph/RecurrentLayer.h"
#include "graph/passes/GraphRewrite.h"
#include "ir/Diagnostic.h"

#include <functional>
#include <map>
#include <tuple>

namespace tessel::graph {

namespace {

/// Appends one recurrent node's unrolled equations to the graph being built.
class Unroller {
public:
    Unroller(const OpRegistry& ops, Graph& g, const Node& n, const RecurrentLayer& layer)
        : ops_(ops), g_(g), n_(n), L_(layer),
          base_(n.name.empty() ? n.op + std::to_string(n.id) : n.name) {}

    /// The values that replace the node's outputs; undefined where `used` is false.
    std::vector<Value> run(const std::vector<Value>& in, const std::vector<bool>& used);

private:
    Value op(const std::string& type, std::vector<Value> inputs, Attributes attrs = {},
             const std::string& outputName = "") {
        std::vector<std::string> names;
        if (!outputName.empty()) names.push_back(outputName);
        Ref<Node> node = detail::makeTypedOp(ops_, g_.newId(), type, std::move(inputs),
                                             std::move(attrs), prefix_ + type, std::move(names));
        g_.append(node);
        return node->output(0);
    }
    Value constant(const std::string& key, const std::function<Ref<Constant>()>& make) {
        auto it = constants_.find(key);
        if (it != constants_.end()) return it->second;
        Value v = g_.addConstant(detail::uniqueName(g_, base_ + "/" + key), make());
        return constants_[key] = v;
    }
    /// A 1-d int64 tensor (Slice's bounds, Unsqueeze's axes, Reshape's shape).
    Value ints(const std::vector<int64_t>& v) {
        std::string key = "ints";
        for (int64_t x : v)
            key += "_" + std::to_string(x);
        return constant(key,
                        [&] { return Constant::fromInts({static_cast<int64_t>(v.size())}, v); });
    }
    Value index(int64_t i) {
        return constant("index_" + std::to_string(i), [&] { return Constant::fromInts({}, {i}); });
    }
    /// A scalar of the layer's element type (it broadcasts against [N, H]).
    Value scalar(const std::string& key, double x) {
        return constant(key, [&] { return Constant::fromFloats({}, {x}, L_.dtype); });
    }

    /// Elements [begin, end) along `axis` (the last one by default: the gates).
    Value slice(const Value& v, int64_t begin, int64_t end, int64_t axis = -1) {
        if (axis < 0) axis = v.type().rank() - 1;
        return op("Slice", {v, ints({begin}), ints({end}), ints({axis})});
    }
    Value gather(const Value& v, int64_t i, int64_t axis) {
        Attributes a;
        a.set("axis", axis);
        return op("Gather", {v, index(i)}, a);
    }
    Value unsqueeze(const Value& v, int64_t axis, const std::string& outputName = "") {
        return op("Unsqueeze", {v, ints({axis})}, {}, outputName);
    }
    Value concat(std::vector<Value> parts, int64_t axis, const std::string& outputName = "") {
        if (parts.size() == 1 && outputName.empty()) return parts[0];
        Attributes a;
        a.set("axis", axis);
        return op("Concat", std::move(parts), a, outputName);
    }
    Value transpose(const Value& v, std::vector<int64_t> perm, const std::string& outputName = "") {
        Attributes a;
        a.set("perm", std::move(perm));
        return op("Transpose", {v}, a, outputName);
    }
    Value add(const Value& a, const Value& b) { return op("Add", {a, b}); }
    Value mul(const Value& a, const Value& b) { return op("Mul", {a, b}); }
    /// a W^T (+ c): the weights stay [rows, K] as ONNX stores them.
    Value gemmT(const Value& a, const Value& w, const Value& c = {}) {
        Attributes at;
        at.set("transB", int64_t(1));
        std::vector<Value> in{a, w};
        if (c.defined()) in.push_back(c);
        return op("Gemm", std::move(in), at);
    }
    /// f(clip(x)): clip bounds the activations' inputs.
    Value activate(const RecurrentActivation& f, Value x, bool clip = true);

    Value stepRnn(const Value& xt, const Value& h);
    Value stepGru(const Value& xt, const Value& h);
    std::pair<Value, Value> stepLstm(const Value& xt, const Value& h, const Value& c);

    const OpRegistry& ops_;
    Graph& g_;
    const Node& n_;
    const RecurrentLayer& L_;
    std::string base_;
    std::string prefix_; ///< the name of the nodes being made, up to the operator
    std::map<std::string, Value> constants_;
    // The weights of the direction being unrolled.
    Value r_, rzr_, rh_, stepBias_, pi_, po_, pf_;
    const std::vector<RecurrentActivation>* f_ = nullptr;
};

Value Unroller::activate(const RecurrentActivation& f, Value x, bool clip) {
    if (clip && L_.hasClip)
        x = op("Clip", {x, scalar("clip_min", -L_.clip), scalar("clip_max", L_.clip)});
    const std::string& k = f.name;
    Attributes a;
    if (k == "Affine")
        return add(mul(x, scalar("alpha_" + std::to_string(f.alpha), f.alpha)),
                   scalar("beta_" + std::to_string(f.beta), f.beta));
    if (k == "ScaledTanh")
        return mul(op("Tanh", {mul(x, scalar("beta_" + std::to_string(f.beta), f.beta))}),
                   scalar("alpha_" + std::to_string(f.alpha), f.alpha));
    if (k == "LeakyRelu" || k == "ThresholdedRelu" || k == "Elu" || k == "HardSigmoid")
        a.set("alpha", f.alpha);
    if (k == "HardSigmoid") a.set("beta", f.beta);
    return op(k, {x}, a);
}

Value Unroller::stepRnn(const Value& xt, const Value& h) {
    Value pre = h.defined() ? add(xt, gemmT(h, r_)) : xt;
    return activate((*f_)[0], pre);
}

Value Unroller::stepGru(const Value& xt, const Value& h) {
    const int64_t H = L_.hidden;
    const auto& f = *f_;
    Value zPre = slice(xt, 0, H), rPre = slice(xt, H, 2 * H), hPre = slice(xt, 2 * H, 3 * H);
    if (L_.linearBeforeReset) {
        // h~ = g(x_h + r (.) (H R_h^T + Rb_h)): Rb stays inside the step.
        Value rec = h.defined() ? gemmT(h, r_, stepBias_) : stepBias_;
        if (rec.defined()) {
            zPre = add(zPre, slice(rec, 0, H));
            Value r = activate(f[0], add(rPre, slice(rec, H, 2 * H)));
            hPre = add(hPre, mul(r, slice(rec, 2 * H, 3 * H)));
        }
    } else if (h.defined()) {
        // h~ = g(x_h + (r (.) H) R_h^T): the reset gate comes first.
        Value zr = gemmT(h, rzr_);
        zPre = add(zPre, slice(zr, 0, H));
        Value r = activate(f[0], add(rPre, slice(zr, H, 2 * H)));
        hPre = add(hPre, gemmT(mul(r, h), rh_));
    }
    Value z = activate(f[0], zPre);
    Value candidate = activate(f[1], hPre);
    Value keep = op("Sub", {scalar("one", 1.0), z});
    Value next = mul(keep, candidate);
    return h.defined() ? add(next, mul(z, h)) : next;
}

std::pair<Value, Value> Unroller::stepLstm(const Value& xt, const Value& h, const Value& c) {
    const int64_t H = L_.hidden;
    const auto& f = *f_;
    Value pre = h.defined() ? add(xt, gemmT(h, r_)) : xt;
    // Gate order in W, R and B: i, o, f, c; in P: i, o, f.
    Value iPre = slice(pre, 0, H), oPre = slice(pre, H, 2 * H), fPre = slice(pre, 2 * H, 3 * H),
          cPre = slice(pre, 3 * H, 4 * H);
    if (pi_.defined() && c.defined()) {
        iPre = add(iPre, mul(pi_, c));
        fPre = add(fPre, mul(pf_, c));
    }
    Value i = activate(f[0], iPre);
    Value candidate = activate(f[1], cPre);
    Value cNext = mul(i, candidate);
    if (c.defined()) {
        Value forget = L_.inputForget ? op("Sub", {scalar("one", 1.0), i}) : activate(f[0], fPre);
        cNext = add(mul(forget, c), cNext);
    }
    if (po_.defined()) oPre = add(oPre, mul(po_, cNext));
    Value o = activate(f[0], oPre);
    return {mul(o, activate(f[2], cNext, false)), cNext};
}

std::vector<Value> Unroller::run(const std::vector<Value>& in, const std::vector<bool>& used) {
    auto has = [&](size_t i) { return i < in.size() && in[i].defined(); };
    const int64_t S = L_.seqLength, H = L_.hidden, G = L_.gates, D = L_.directions;
    int64_t I = L_.inputSize >= 0 ? L_.inputSize : in[1].type().shape[2];
    if (I < 0)
        throw CompileError(n_.describe() + ": the input size of X " + in[0].type().str() +
                           " and W " + in[1].type().str() + " is unknown");
    prefix_ = base_ + "/";
    Value x = L_.batchFirst ? transpose(in[0], {1, 0, 2}) : in[0]; // [S, N, I]

    // sequence_lens masks the steps past each entry's length, unless it is a
    // constant that covers every step.
    Value lens;
    if (has(4)) {
        Ref<Constant> k = in[4].constant();
        bool full = static_cast<bool>(k);
        if (k)
            for (int64_t v : k->toInts()) {
                if (v < 0 || v > S)
                    throw CompileError(n_.describe() + ": sequence_lens holds " +
                                       std::to_string(v) + ", outside 0 to the sequence length " +
                                       std::to_string(S));
                full = full && v == S;
            }
        if (!full) {
            lens = in[4];
            if (lens.type().dtype != DataType::int64()) {
                Attributes a;
                a.set("to", int64_t(7)); // TensorProto INT64
                lens = op("Cast", {lens}, a);
            }
        }
    }
    std::vector<Value> masks(static_cast<size_t>(S));
    auto mask = [&](int64_t k) {
        Value& m = masks[static_cast<size_t>(k)];
        if (!m.defined()) {
            prefix_ = base_ + "/mask" + std::to_string(k) + "/";
            m = unsqueeze(op("Less", {index(k), lens}), 1); // [N, 1]
        }
        return m;
    };
    auto reverseSequence = [&](const Value& v) {
        Attributes a;
        a.set("batch_axis", int64_t(1));
        a.set("time_axis", int64_t(0));
        return op("ReverseSequence", {v, lens}, a);
    };

    std::vector<Value> ys, hs, cs;
    for (int64_t d = 0; d < D; ++d) {
        const bool backwards = L_.reverse || d == 1;
        const std::string dir = D == 1 ? "" : (d == 0 ? "forward/" : "backward/");
        prefix_ = base_ + "/" + dir;
        f_ = &L_.activations[static_cast<size_t>(d)];
        // With lengths, a backward pass reads each entry's own steps in reverse.
        Value xd = backwards && lens.defined() ? reverseSequence(x) : x;
        Value w = gather(in[1], d, 0); // [G*H, I]
        r_ = gather(in[2], d, 0);      // [G*H, H]
        Value preBias;
        stepBias_ = {};
        if (has(3)) {
            Value b = gather(in[3], d, 0);
            Value wb = slice(b, 0, G * H), rb = slice(b, G * H, 2 * G * H);
            if (L_.linearBeforeReset) {
                preBias = wb;
                stepBias_ = rb;
            } else {
                preBias = add(wb, rb);
            }
        }
        if (L_.op == "GRU" && !L_.linearBeforeReset) {
            rzr_ = slice(r_, 0, 2 * H, 0); // rows of z and r
            rh_ = slice(r_, 2 * H, 3 * H, 0);
        }
        pi_ = po_ = pf_ = {};
        if (L_.op == "LSTM" && has(7)) {
            Value p = gather(in[7], d, 0);
            pi_ = slice(p, 0, H);
            po_ = slice(p, H, 2 * H);
            pf_ = slice(p, 2 * H, 3 * H);
        }
        // The input projection does not depend on the state: one Gemm for all steps.
        Value xw = gemmT(op("Reshape", {xd, ints({-1, I})}), w, preBias);
        xw = op("Reshape", {xw, ints({S, -1, G * H})}); // [S, N, G*H]

        const int64_t stateAxis = L_.batchFirst ? 1 : 0;
        Value h = has(5) ? gather(in[5], d, stateAxis) : Value();
        Value c = L_.op == "LSTM" && has(6) ? gather(in[6], d, stateAxis) : Value();
        std::vector<Value> y(static_cast<size_t>(S));
        for (int64_t k = 0; k < S; ++k) {
            // Without lengths, a backward pass reads the steps from the end.
            const int64_t t = backwards && !lens.defined() ? S - 1 - k : k;
            prefix_ = base_ + "/" + dir + "t" + std::to_string(t) + "/";
            Value xt = gather(xw, t, 0); // [N, G*H]
            Value hNext, cNext;
            if (L_.op == "LSTM")
                std::tie(hNext, cNext) = stepLstm(xt, h, c);
            else if (L_.op == "GRU")
                hNext = stepGru(xt, h);
            else
                hNext = stepRnn(xt, h);
            Value out = hNext;
            if (lens.defined()) {
                // Past its length an entry keeps its state and outputs zeros.
                Value m = mask(k);
                prefix_ = base_ + "/" + dir + "t" + std::to_string(t) + "/";
                Value zero = scalar("zero", 0.0);
                out = op("Where", {m, hNext, zero});
                hNext = h.defined() ? op("Where", {m, hNext, h}) : out;
                if (cNext.defined()) cNext = op("Where", {m, cNext, c.defined() ? c : zero});
            }
            y[static_cast<size_t>(t)] = out;
            h = hNext;
            c = cNext;
        }
        prefix_ = base_ + "/" + dir;
        if (used[0]) {
            for (auto& v : y)
                v = unsqueeze(v, 0);
            Value seq = concat(y, 0); // [S, N, H]
            if (backwards && lens.defined()) seq = reverseSequence(seq);
            ys.push_back(seq);
        }
        hs.push_back(h);
        if (c.defined()) cs.push_back(c);
    }

    // Y [S, D, N, H] and the final states [D, N, H]; batch first with layout 1.
    prefix_ = base_ + "/";
    std::vector<Value> out(static_cast<size_t>(n_.numOutputs()));
    auto name = [&](size_t i) {
        return i < n_.outputNames.size() ? n_.outputNames[i] : std::string();
    };
    if (used[0]) {
        if (D == 1)
            out[0] = L_.batchFirst ? unsqueeze(transpose(ys[0], {1, 0, 2}), 2, name(0))
                                   : unsqueeze(ys[0], 1, name(0));
        else {
            Value both =
                concat({unsqueeze(ys[0], 1), unsqueeze(ys[1], 1)}, 1, L_.batchFirst ? "" : name(0));
            out[0] = L_.batchFirst ? transpose(both, {2, 0, 1, 3}, name(0)) : both;
        }
    }
    auto state = [&](std::vector<Value>& parts, size_t i) {
        const int64_t axis = L_.batchFirst ? 1 : 0;
        if (parts.size() == 1) return unsqueeze(parts[0], axis, name(i));
        return concat({unsqueeze(parts[0], axis), unsqueeze(parts[1], axis)}, axis, name(i));
    };
    if (out.size() > 1 && used[1]) out[1] = state(hs, 1);
    if (out.size() > 2 && used[2]) out[2] = state(cs, 2);
    return out;
}

} // namespace

Graph expandRecurrent(const Graph& g, const ExpandRecurrentOptions& options) {
    const OpRegistry& ops = opsOrDefault(options.ops);
    bool any = false;
    for (const auto& n : g.nodes())
        any = any || n->op == "LSTM" || n->op == "GRU" || n->op == "RNN";
    if (!any) return g;
    Graph sorted = g.clone();
    sorted.sortTopologically();
    const auto usedValues = detail::usedValues(sorted);
    Graph out = detail::rewriteNodes(
        sorted,
        [&](const Node& n, const std::vector<Value>& in,
            Graph& target) -> std::optional<std::vector<Value>> {
            if (n.op != "LSTM" && n.op != "GRU" && n.op != "RNN") return std::nullopt;
            for (const auto& v : in)
                if (v.defined() && !v.type().known())
                    return std::nullopt; // behind an unsupported construct
            RecurrentLayer layer;
            try {
                layer = readRecurrentLayer(n, in);
            } catch (const CompileError& e) {
                throw CompileError(n.describe() + ": " + e.what());
            }
            if (layer.seqLength < 0)
                throw CompileError(
                    n.describe() + ": the sequence length of X " + in[0].type().str() +
                    " is not static; " + n.op +
                    " is unrolled over a static number of steps (bind the input's shape)");
            std::vector<bool> used;
            for (int i = 0; i < n.numOutputs(); ++i)
                used.push_back(usedValues.count(n.output(i)) > 0);
            return Unroller(ops, target, n, layer).run(in, used);
        });
    return detail::dropConstantsNoLongerUsed(sorted, out);
}

} // namespace tessel::graph
