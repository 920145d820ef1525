#include "graph/passes/FoldScaleShift.h"

#include "graph/passes/GraphRewrite.h"

#include <type_traits>
#include <unordered_map>

namespace tessel::graph {

namespace {

/// A Conv and the Mul and Add after it that fold into it.
struct Chain {
    const Node* conv = nullptr;
    const Node* mul = nullptr;
    const Node* add = nullptr;
    std::vector<double> scale; ///< per output channel (empty: no Mul)
    std::vector<double> shift; ///< per output channel (empty: no Add)
};

/// The only user of `v`, or null when it has none, several, or is a graph output.
const Node* onlyUser(const Graph& g, const Value& v) {
    for (const auto& o : g.outputs())
        if (o == v) return nullptr;
    auto users = g.users(v);
    if (users.size() != 1) return nullptr;
    int uses = 0;
    for (const auto& in : users[0]->inputs)
        if (in == v) ++uses;
    return uses == 1 ? users[0] : nullptr;
}

/// The per-channel values of the constant operand of `binary` (the operand
/// that is not `v`), for `m` channels of a rank-`rank` tensor; empty when it
/// does not vary along the channel axis only or would change the result's type.
std::vector<double> perChannel(const Node& binary, const Value& v, int64_t m, int rank,
                               DataType dtype) {
    if (binary.inputs.size() != 2) return {};
    const Value& other = binary.inputs[0] == v ? binary.inputs[1] : binary.inputs[0];
    if (!(binary.inputs[0] == v) && !(binary.inputs[1] == v)) return {};
    Ref<Constant> c = other.constant();
    if (!c || c->dtype != dtype || static_cast<int>(c->shape.size()) > rank) return {};
    const int offset = rank - static_cast<int>(c->shape.size());
    int64_t channels = 1;
    for (size_t d = 0; d < c->shape.size(); ++d) {
        const int axis = offset + static_cast<int>(d);
        if (axis == 1)
            channels = c->shape[d];
        else if (c->shape[d] != 1)
            return {};
    }
    if (channels != 1 && channels != m) return {};
    std::vector<double> values = c->toDoubles();
    if (channels == 1) return std::vector<double>(static_cast<size_t>(m), values.at(0));
    return values;
}

/// The output channels of a Conv (W is [M, C / group, k...]) or a
/// ConvTranspose (W is [C, M / group, k...]); 0 when the weights do not fit.
int64_t outputChannels(const Node& n, const Constant& w) {
    if (n.op == "Conv") return w.shape[0];
    const int64_t group = n.attrs.getInt("group", 1);
    if (group < 1 || w.shape[0] % group != 0) return 0;
    return w.shape[1] * group;
}

/// The weights of `n` with every element multiplied by the scale of the
/// output channel it feeds, in the weights' own type. Runs of one channel are
/// contiguous (Conv: a first-axis entry; ConvTranspose [C, M / group, k...]:
/// the k taps of one (c, m) pair), so the channel is found once per run, not
/// per element (ResNet-50's 25M weights took ~0.1 s through doubles).
/// Products of float32 values are rounded once either way, so the result is
/// what the double computation gave.
Ref<Constant> scaledWeights(const Node& n, const Constant& w, const std::vector<double>& scale) {
    const int64_t total = w.numElements(), per = total / w.shape[0];
    const bool transposed = n.op != "Conv";
    const int64_t group = transposed ? n.attrs.getInt("group", 1) : 1;
    const int64_t mg = transposed ? w.shape[1] : 0, run = transposed ? per / mg : per;
    // The output channel of run r (runs in storage order).
    auto channelOf = [&](int64_t r) {
        if (!transposed) return r;
        const int64_t c = r / mg, grp = c / (w.shape[0] / group);
        return grp * mg + r % mg;
    };
    auto scaleAll = [&](auto* data) {
        using T = std::remove_pointer_t<decltype(data)>;
        for (int64_t r = 0; r < total / run; ++r) {
            const T s = static_cast<T>(scale[static_cast<size_t>(channelOf(r))]);
            T* p = data + r * run;
            for (int64_t i = 0; i < run; ++i) p[i] *= s;
        }
    };
    std::vector<uint8_t> bytes = w.bytes;
    if (w.dtype.bits() == 32) scaleAll(reinterpret_cast<float*>(bytes.data()));
    else scaleAll(reinterpret_cast<double*>(bytes.data()));
    return Constant::make(w.dtype, w.shape, std::move(bytes));
}

} // namespace

Graph foldScaleShift(const Graph& g, const FoldScaleShiftOptions& options) {
    Graph sorted = g.clone();
    sorted.sortTopologically();

    std::unordered_map<const Node*, Chain> chains;           // by Conv
    std::unordered_map<const Node*, const Node*> foldedInto; // Mul/Add -> Conv
    for (const auto& n : sorted.nodes()) {
        if ((n->op != "Conv" && n->op != "ConvTranspose") || n->inputs.size() < 2 || n->numOutputs() != 1) continue;
        Ref<Constant> w = n->inputs[1].constant();
        if (!w || !w->dtype.isFloat() || (w->dtype.bits() != 32 && w->dtype.bits() != 64) ||
            w->shape.size() < 3 || !w->layout.empty())
            continue;
        const int64_t m = outputChannels(*n, *w);
        if (m <= 0) continue;
        if (n->inputs.size() > 2 && n->inputs[2].defined()) {
            Ref<Constant> b = n->inputs[2].constant();
            if (!b || b->dtype != w->dtype || b->shape != std::vector<int64_t>{m}) continue;
        }
        const int rank = static_cast<int>(w->shape.size());
        Chain chain;
        chain.conv = n.get();
        Value last = n->output(0);
        const Node* user = onlyUser(sorted, last);
        if (options.foldScale && user && user->op == "Mul") {
            chain.scale = perChannel(*user, last, m, rank, w->dtype);
            if (!chain.scale.empty()) {
                chain.mul = user;
                last = user->output(0);
                user = onlyUser(sorted, last);
            }
        }
        if (options.foldShift && user && user->op == "Add") {
            chain.shift = perChannel(*user, last, m, rank, w->dtype);
            if (!chain.shift.empty()) chain.add = user;
        }
        if (!chain.mul && !chain.add) continue;
        if (chain.mul) foldedInto[chain.mul] = n.get();
        if (chain.add) foldedInto[chain.add] = n.get();
        chains[n.get()] = std::move(chain);
    }
    if (chains.empty()) return g;

    Graph out = detail::rewriteNodes(
        sorted,
        [&](const Node& n, const std::vector<Value>& in,
            Graph& target) -> std::optional<std::vector<Value>> {
            if (auto f = foldedInto.find(&n); f != foldedInto.end()) {
                // The operand that came from the chain is now the folded Conv's output.
                const Value& prev = n.inputs[0].constant() ? in[1] : in[0];
                return std::vector<Value>{prev};
            }
            auto it = chains.find(&n);
            if (it == chains.end()) return std::nullopt;
            const Chain& ch = it->second;
            Ref<Constant> w = in[1].constant();
            const int64_t m = outputChannels(n, *w);
            Ref<Constant> folded;
            if (!ch.scale.empty()) folded = scaledWeights(n, *w, ch.scale);
            const bool hasBias = in.size() > 2 && in[2].defined();
            std::vector<double> bv =
                hasBias ? in[2].constant()->toDoubles() : std::vector<double>(size_t(m), 0.0);
            for (size_t o = 0; o < bv.size(); ++o) {
                if (!ch.scale.empty()) bv[o] *= ch.scale[o];
                if (!ch.shift.empty()) bv[o] += ch.shift[o];
            }
            std::vector<Value> inputs{in[0]};
            if (folded)
                inputs.push_back(target.addConstant(detail::uniqueName(target, in[1].name() + "_folded"), folded));
            else
                inputs.push_back(in[1]);
            const std::string biasBase =
                hasBias ? in[2].name() + "_folded"
                        : (n.name.empty() ? "conv" + std::to_string(n.id) : n.name) + "_bias";
            inputs.push_back(target.addConstant(detail::uniqueName(target, biasBase),
                                                Constant::fromFloats({m}, bv, w->dtype)));
            const Node& last = ch.add ? *ch.add : *ch.mul;
            Ref<Node> conv =
                Node::makeOp(n.id, n.op, inputs, n.attrs, 1, n.name,
                             {last.outputTypes[0].known() ? last.outputTypes[0] : n.outputTypes[0]},
                             {last.outputNames[0]});
            target.append(conv);
            return conv->outputs();
        });
    return detail::dropConstantsNoLongerUsed(sorted, out);
}

} // namespace tessel::graph
