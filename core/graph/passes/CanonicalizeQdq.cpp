#include "graph/passes/CanonicalizeQdq.h"

#include "graph/OpRegistry.h"
#include "graph/passes/GraphRewrite.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessel::graph {

namespace {

constexpr int64_t kFloat32 = 1; // TensorProto FLOAT

bool isEightBit(const DataType& t) { return t.isIntOrUInt() && t.bits() == 8; }

bool plainOp(const Node* n, const char* op) {
    return n && n->kind == NodeKind::Op && n->op == op && n->domain.empty() && !n->opaque();
}

/// A value read through DequantizeLinear whose scale and zero point are constants.
struct Dequantized {
    const Node* node = nullptr;
    Ref<Constant> scale, zeroPoint; // zeroPoint: null when absent (zero)
    std::vector<double> scales;     // scale's values
    int64_t axis = -1;              // the scale's axis of the input; -1: one scale

    bool perTensor() const { return axis < 0; }
    Value quantized() const { return node->inputs[0]; }
    /// Scale number `i` (the one scale when per tensor).
    double scaleAt(int64_t i) const { return scales[perTensor() ? 0 : static_cast<size_t>(i)]; }
};

std::optional<Dequantized> dequantized(const Value& v) {
    const Node* n = v.producer();
    if (!plainOp(n, "DequantizeLinear") || n->inputs.size() < 2) return std::nullopt;
    if (n->attrs.getInt("block_size", 0) != 0) return std::nullopt; // blocked (opset 21)
    Dequantized d;
    d.node = n;
    d.scale = n->inputs[1].constant();
    if (!d.scale || d.scale->dtype != DataType::float32() || d.scale->shape.size() > 1) return std::nullopt;
    d.scales = d.scale->toDoubles();
    if (n->inputs.size() > 2 && n->inputs[2].defined()) {
        d.zeroPoint = n->inputs[2].constant();
        if (!d.zeroPoint) return std::nullopt;
    }
    const TensorType& q = n->inputs[0].type();
    if (!q.known() || q.blocked()) return std::nullopt;
    if (d.scale->numElements() != 1) {
        auto axis = normalizeAxis(n->attrs.getInt("axis", 1), q.rank());
        if (!axis || d.scale->numElements() != q.shape[static_cast<size_t>(*axis)]) return std::nullopt;
        d.axis = *axis;
    }
    return d;
}

/// An 8-bit activation dequantized with one scale and zero point.
std::optional<Dequantized> activation(const Value& v) {
    auto d = dequantized(v);
    if (!d || !d->perTensor() || !isEightBit(d->quantized().type().dtype)) return std::nullopt;
    return d;
}

/// Constant 8-bit weights dequantized per tensor or along `axis`.
std::optional<Dequantized> weights(const Value& v, int64_t axis) {
    auto d = dequantized(v);
    if (!d || !d->quantized().isConstant() || !isEightBit(d->quantized().type().dtype)) return std::nullopt;
    if (!d->perTensor() && d->axis != axis) return std::nullopt;
    return d;
}

bool allZero(const Ref<Constant>& c) {
    if (!c) return true;
    for (int64_t z : c->toInts())
        if (z != 0) return false;
    return true;
}

/// One quantized product and what the pass replaces with it.
struct Match {
    const Node* product = nullptr;
    const Node* relu = nullptr; // the Relu between product and QuantizeLinear, or null
    const Node* quantize = nullptr;
    Dequantized x, w;
    int64_t channels = 0;     // Conv's M, MatMul's and Gemm's N
    bool transposeB = false;  // Gemm's transB: the weights are [N, K]
    Ref<Constant> bias;       // int32 [channels] with the scale x_scale * w_scale, or null
    Ref<Constant> yScale, yZero; // yZero: null when absent
};

/// The value users of `g` (a user reading a value twice counts twice) and its outputs.
struct Uses {
    std::unordered_map<Value, std::vector<const Node*>, ValueHash> users;
    std::unordered_set<Value, ValueHash> outputs;

    explicit Uses(const Graph& g) {
        for (const auto& n : g.nodes())
            for (const auto& in : n->inputs)
                if (in.defined()) users[in].push_back(n.get());
        for (const auto& v : g.outputs())
            outputs.insert(v);
    }
    /// The one node reading `v`, when `v` is no graph output; null otherwise.
    const Node* onlyUser(const Value& v) const {
        if (outputs.count(v)) return nullptr;
        auto it = users.find(v);
        return it != users.end() && it->second.size() == 1 ? it->second[0] : nullptr;
    }
};

/// The bias as int32 with the scale x_scale * w_scale[m] (float32 products,
/// as the quantizer computes them): an int32 constant dequantized with that
/// scale (within a float32 rounding) and zero point 0, or a float constant
/// rounded to it; null when it is neither or does not fit.
std::optional<Ref<Constant>> quantizedBias(const Value& b, const Match& m) {
    auto scaleAt = [&](int64_t i) {
        return static_cast<double>(static_cast<float>(m.x.scaleAt(0)) * static_cast<float>(m.w.scaleAt(i)));
    };
    auto isVector = [&](const std::vector<int64_t>& shape) {
        return (shape.size() == 1 && shape[0] == m.channels) ||
               (m.product->op == "Gemm" && shape.size() == 2 && shape[0] == 1 && shape[1] == m.channels);
    };
    std::vector<int64_t> q;
    if (auto d = dequantized(b)) {
        Ref<Constant> c = d->quantized().constant();
        if (!c || c->dtype != DataType::int32() || !isVector(c->shape) || !allZero(d->zeroPoint))
            return std::nullopt;
        if (!d->perTensor() && d->axis != static_cast<int64_t>(c->shape.size()) - 1) return std::nullopt;
        for (int64_t i = 0; i < m.channels; ++i) {
            const double want = scaleAt(i), have = d->scaleAt(i);
            if (!(std::abs(have - want) <= 1e-6 * std::abs(want))) return std::nullopt;
        }
        q = c->toInts();
    } else if (Ref<Constant> c = b.constant()) {
        if (c->dtype != DataType::float32() || !isVector(c->shape)) return std::nullopt;
        const auto values = c->toDoubles();
        for (int64_t i = 0; i < m.channels; ++i) {
            const double r = std::nearbyint(values[static_cast<size_t>(i)] / scaleAt(i)); // halves to even
            if (!(std::abs(r) < 2147483647.0)) return std::nullopt;
            q.push_back(static_cast<int64_t>(r));
        }
    } else {
        return std::nullopt;
    }
    return Constant::fromInts({m.channels}, q, DataType::int32());
}

/// The QuantizeLinear (through an optional Relu) that is the only user of
/// the product's result.
bool matchOutput(const Uses& uses, const CanonicalizeQdqOptions& options, Match& m) {
    const Node* next = uses.onlyUser(m.product->output(0));
    if (plainOp(next, "Relu")) {
        if (!options.foldRelu) return false;
        m.relu = next;
        next = uses.onlyUser(next->output(0));
    }
    if (!plainOp(next, "QuantizeLinear") || next->inputs.size() < 2) return false;
    m.quantize = next;
    m.yScale = next->inputs[1].constant();
    if (!m.yScale || m.yScale->dtype != DataType::float32() || m.yScale->numElements() != 1) return false;
    if (next->inputs.size() > 2 && next->inputs[2].defined()) {
        m.yZero = next->inputs[2].constant();
        if (!m.yZero || m.yZero->numElements() != 1) return false;
    }
    if (next->outputTypes.empty() || !isEightBit(next->outputTypes[0].dtype)) return false;
    // Q(relu(v)) = max(Q(v), zero point) needs a positive scale.
    if (m.relu && !(m.yScale->toDoubles()[0] > 0)) return false;
    return true;
}

std::optional<Match> matchProduct(const Node& n, const Uses& uses, const CanonicalizeQdqOptions& options) {
    const bool conv = plainOp(&n, "Conv"), matMul = plainOp(&n, "MatMul"), gemm = plainOp(&n, "Gemm");
    if (!conv && !matMul && !gemm) return std::nullopt;
    if (n.inputs.size() < 2 || n.outputTypes.empty() || n.outputTypes[0].dtype != DataType::float32())
        return std::nullopt;
    Match m;
    m.product = &n;
    auto x = activation(n.inputs[0]);
    if (!x) return std::nullopt;
    m.x = *x;
    const TensorType& wt = n.inputs[1].type();
    if (!wt.known() || (!conv && wt.rank() != 2) || wt.rank() < 1) return std::nullopt;
    int64_t axis = 0;
    if (gemm) {
        if (n.attrs.getInt("transA", 0) != 0 || n.attrs.getFloat("alpha", 1.0) != 1.0) return std::nullopt;
        if (m.x.quantized().type().rank() != 2) return std::nullopt;
        m.transposeB = n.attrs.getInt("transB", 0) != 0;
        axis = m.transposeB ? 0 : 1;
    } else if (matMul) {
        if (m.x.quantized().type().rank() < 2) return std::nullopt;
        axis = 1;
    }
    auto w = weights(n.inputs[1], axis);
    if (!w) return std::nullopt;
    m.w = *w;
    m.channels = wt.shape[static_cast<size_t>(axis)];
    if (n.inputs.size() > 2 && n.inputs[2].defined()) {
        if (matMul) return std::nullopt;
        if (gemm && n.attrs.getFloat("beta", 1.0) != 1.0) return std::nullopt;
        auto bias = quantizedBias(n.inputs[2], m);
        if (!bias) return std::nullopt;
        m.bias = *bias;
    }
    if (!matchOutput(uses, options, m)) return std::nullopt;
    return m;
}

/// DequantizeLinear -> MaxPool -> QuantizeLinear with y's scale, zero point
/// and type those of x: the pool on the 8-bit tensor gives the same values
/// (dequantizing is increasing, so the maximum commutes with it, and
/// Q(DQ(v)) = v). The float pool pads with -inf, the 8-bit one with the
/// type's least value: either loses to any tap inside the input, and a
/// window has one when every padding is smaller than the kernel.
struct PoolMatch {
    const Node* pool = nullptr;
    const Node* quantize = nullptr;
};

bool sameConstant(const Ref<Constant>& a, const Ref<Constant>& b) {
    if (!a || !b) return allZero(a) && allZero(b);
    return a->dtype == b->dtype && a->numElements() == 1 && b->numElements() == 1 && a->bytes == b->bytes;
}

std::optional<PoolMatch> matchPool(const Node& n, const Uses& uses) {
    if (!plainOp(&n, "MaxPool") || n.inputs.size() != 1 || n.outputTypes.size() != 1) return std::nullopt;
    if (n.attrs.getInt("storage_order", 0) != 0 || n.attrs.getString("auto_pad", "NOTSET") != "NOTSET")
        return std::nullopt;
    const auto kernel = n.attrs.getInts("kernel_shape", {});
    const auto pads = n.attrs.getInts("pads", {});
    for (size_t i = 0; i < pads.size(); ++i)
        if (kernel.empty() || pads[i] >= kernel[i % kernel.size()]) return std::nullopt;
    auto x = activation(n.inputs[0]);
    if (!x) return std::nullopt;
    const Node* q = uses.onlyUser(n.output(0));
    if (!plainOp(q, "QuantizeLinear") || q->inputs.size() < 2 || q->outputTypes.empty()) return std::nullopt;
    if (q->outputTypes[0].dtype != x->quantized().type().dtype) return std::nullopt;
    const Ref<Constant> scale = q->inputs[1].constant();
    if (!scale || !(x->scales[0] > 0) || !sameConstant(scale, x->scale)) return std::nullopt;
    const Ref<Constant> zero = q->inputs.size() > 2 && q->inputs[2].defined() ? q->inputs[2].constant() : Ref<Constant>();
    if (q->inputs.size() > 2 && q->inputs[2].defined() && !zero) return std::nullopt;
    if (!sameConstant(zero, x->zeroPoint)) return std::nullopt;
    return PoolMatch{&n, q};
}

/// Writes one match's integer product into the graph being built.
class Writer {
public:
    Writer(const OpRegistry& ops, Graph& g, const Match& m)
        : ops_(ops), g_(g), m_(m),
          base_(m.product->name.empty() ? m.product->op + std::to_string(m.product->id) : m.product->name) {}

    /// The value that replaces the QuantizeLinear's; `xq` is the 8-bit
    /// activation as the graph being built has it.
    Value run(const Value& xq);

private:
    Value constant(const std::string& what, Ref<Constant> c) {
        return g_.addConstant(detail::uniqueName(g_, base_ + "/" + what), std::move(c));
    }
    /// The zero point, or zeros of `dtype` shaped as `scale`.
    Value zeroPoint(const Node* q, size_t index, const Ref<Constant>& scale, DataType dtype,
                    const std::string& what) {
        if (q->inputs.size() > index && q->inputs[index].defined()) return q->inputs[index];
        return constant(what, Constant::zeros(dtype, scale->shape));
    }
    /// Appends an operator; the last one of the chain takes the
    /// QuantizeLinear's id and output name, the product keeps its own id.
    Value op(const std::string& type, std::vector<Value> inputs, Attributes attrs, bool product, bool last) {
        std::vector<std::string> names;
        if (last) names = m_.quantize->outputNames;
        const int64_t id = last && !product ? m_.quantize->id : product ? m_.product->id : g_.newId();
        const std::string name = product ? m_.product->name : last ? m_.quantize->name : base_ + "/" + type;
        Ref<Node> node = detail::makeTypedOp(ops_, id, type, std::move(inputs), std::move(attrs), name, names);
        g_.append(node);
        return node->output(0);
    }

    const OpRegistry& ops_;
    Graph& g_;
    const Match& m_;
    std::string base_;
};

Value Writer::run(const Value& xq) {
    const Node* q = m_.quantize;
    const DataType yType = q->outputTypes[0].dtype;
    const Value xScale = m_.x.node->inputs[1];
    const Value xZero = zeroPoint(m_.x.node, 2, m_.x.scale, xq.type().dtype, "x_zero_point");
    Value w = m_.w.quantized();
    const Value wScale = m_.w.node->inputs[1];
    const Value wZero = zeroPoint(m_.w.node, 2, m_.w.scale, w.type().dtype, "w_zero_point");
    const Value yScale = q->inputs[1];
    const Value yZero = zeroPoint(q, 2, m_.yScale, yType, "y_zero_point");
    // A Relu folds into saturation when y's zero point is its type's least value.
    const int64_t least = yType.isUInt() ? 0 : -128;
    const bool clamp = m_.relu && (m_.yZero ? m_.yZero->toInts()[0] : 0) != least;

    if (m_.transposeB) {
        // Gemm's [N, K] weights as MatMul's [K, N]; the per-channel scales become per column.
        Ref<Constant> c = w.constant();
        const int64_t n = c->shape[0], k = c->shape[1];
        std::vector<uint8_t> bytes(c->bytes.size());
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < k; ++j)
                bytes[static_cast<size_t>(j * n + i)] = c->bytes[static_cast<size_t>(i * k + j)];
        w = constant("weights_t", Constant::make(c->dtype, {k, n}, std::move(bytes)));
    }

    Value y;
    if (m_.product->op == "Conv") {
        std::vector<Value> in{xq, xScale, xZero, w, wScale, wZero, yScale, yZero};
        if (m_.bias) in.push_back(constant("bias", m_.bias));
        y = op("QLinearConv", std::move(in), m_.product->attrs, true, !clamp);
    } else if (!m_.bias) {
        y = op("QLinearMatMul", {xq, xScale, xZero, w, wScale, wZero, yScale, yZero}, {}, true, !clamp);
    } else {
        // Gemm with a bias: the int32 product plus the bias, requantized as
        // QLinearMatMul would: round(acc * (x_scale * w_scale / y_scale)) + y_zero_point.
        Value acc = op("MatMulInteger", {xq, w, xZero, wZero}, {}, true, false);
        acc = op("Add", {acc, constant("bias", m_.bias)}, {}, false, false);
        Attributes toFloat;
        toFloat.set("to", kFloat32);
        Value v = op("Cast", {acc}, toFloat, false, false);
        std::vector<double> multiplier;
        const float ys = static_cast<float>(m_.yScale->toDoubles()[0]);
        for (int64_t i = 0; i < (m_.w.perTensor() ? 1 : m_.channels); ++i)
            multiplier.push_back(static_cast<float>(static_cast<float>(m_.x.scaleAt(0)) *
                                                    static_cast<float>(m_.w.scaleAt(i))) /
                                 ys);
        const std::vector<int64_t> shape = m_.w.perTensor() ? std::vector<int64_t>{} : std::vector<int64_t>{m_.channels};
        v = op("Mul", {v, constant("multiplier", Constant::fromFloats(shape, multiplier))}, {}, false, false);
        y = op("QuantizeLinear", {v, constant("unit_scale", Constant::fromFloats({}, {1.0})), yZero}, {}, false,
               !clamp);
    }
    if (clamp) y = op("Max", {y, yZero}, {}, false, true);
    return y;
}

} // namespace

Graph canonicalizeQdq(const Graph& g, const CanonicalizeQdqOptions& options) {
    const OpRegistry& ops = opsOrDefault(options.ops);
    if (std::none_of(g.nodes().begin(), g.nodes().end(),
                     [](const Ref<Node>& n) { return n->op == "DequantizeLinear"; }))
        return g; // not a QDQ model
    Graph sorted = g.clone();
    sorted.sortTopologically();
    const Uses uses(sorted);
    std::unordered_map<int64_t, Match> matches;      // by product id
    std::unordered_map<int64_t, PoolMatch> pools;    // by MaxPool id
    std::unordered_set<int64_t> replaced;            // the Relu and QuantizeLinear nodes of matches
    std::unordered_set<const Node*> dequantizeNodes; // read by matched products
    for (const auto& n : sorted.nodes())
        if (auto m = matchProduct(*n, uses, options)) {
            if (m->relu) replaced.insert(m->relu->id);
            replaced.insert(m->quantize->id);
            dequantizeNodes.insert(m->x.node);
            dequantizeNodes.insert(m->w.node);
            for (const auto& in : n->inputs)
                if (auto d = dequantized(in)) dequantizeNodes.insert(d->node);
            matches.emplace(n->id, *m);
        } else if (auto pm = matchPool(*n, uses)) {
            replaced.insert(pm->quantize->id);
            dequantizeNodes.insert(n->inputs[0].producer());
            pools.emplace(n->id, *pm);
        }
    if (matches.empty() && pools.empty()) return g;

    std::unordered_map<int64_t, Value> results; // by QuantizeLinear id
    Graph out = detail::rewriteNodes(
        sorted,
        [&](const Node& n, const std::vector<Value>& in, Graph& target) -> std::optional<std::vector<Value>> {
            if (auto it = matches.find(n.id); it != matches.end()) {
                // The activation's DequantizeLinear as rewritten so far reads the 8-bit tensor.
                const Value xq = in[0].producer()->inputs[0];
                results[it->second.quantize->id] = Writer(ops, target, it->second).run(xq);
                return std::vector<Value>{Value()};
            }
            if (auto it = pools.find(n.id); it != pools.end()) {
                // The pool on the 8-bit tensor, in the QuantizeLinear's place.
                const Node* q = it->second.quantize;
                Ref<Node> pool = detail::makeTypedOp(ops, q->id, "MaxPool", {in[0].producer()->inputs[0]}, n.attrs,
                                                     q->name, q->outputNames);
                target.append(pool);
                results[q->id] = pool->output(0);
                return std::vector<Value>{Value()};
            }
            if (!replaced.count(n.id)) return std::nullopt;
            auto r = results.find(n.id);
            return std::vector<Value>{r == results.end() ? Value() : r->second};
        });

    // The DequantizeLinear nodes nothing reads any more go too.
    const auto used = detail::usedValues(out);
    std::unordered_set<int64_t> dequantizeIds;
    for (const Node* d : dequantizeNodes)
        dequantizeIds.insert(d->id);
    Graph pruned = detail::emptyLike(out);
    for (const auto& c : out.constants())
        pruned.append(c);
    for (const auto& n : out.nodes())
        if (!(dequantizeIds.count(n->id) && !used.count(n->output(0)))) pruned.append(n);
    pruned.setOutputs(out.outputs());
    return detail::dropConstantsNoLongerUsed(sorted, pruned);
}

} // namespace tessel::graph
