#include "graph/passes/AlterLayout.h"

#include "graph/passes/GraphRewrite.h"
#include "ir/Layout.h"

#include <unordered_map>

namespace tessel::graph {

int64_t channelBlock(int64_t channels, int64_t block) {
    if (channels <= 0 || block <= 1) return 0;
    const int64_t smallest = std::max<int64_t>(4, block / 2);
    for (int64_t b = block; b >= smallest; b /= 2)
        if (channels % b == 0) return b;
    return 0;
}

namespace {

/// The logical type of a value (its plain view).
TensorType logicalOf(const Value& v) { return v.type().logical(); }

bool isPool(const std::string& op) {
    return op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" || op == "GlobalMaxPool";
}

class LayoutRewriter {
public:
    LayoutRewriter(const OpRegistry& ops, int64_t block) : ops_(ops), block_(block) {}

    std::optional<std::vector<Value>> rewrite(const Node& n, const std::vector<Value>& in, Graph& out) {
        const OpInfo* info = ops_.find(n.op);
        if (n.op == "Conv") return conv(n, in, out);
        if (n.op == "ConvTranspose") return convTranspose(n, in, out);
        if (isPool(n.op) && n.numOutputs() == 1 && in[0].defined() && in[0].type().blocked())
            return remake(n, in, n.attrs, out);
        if (n.op == "Concat") return concat(n, in, out);
        if (n.op == "LayoutTransform") return remake(n, in, n.attrs, out);
        if (info && info->layouts == LayoutPolicy::Elementwise) return elementwise(n, in, out);
        return plainInputs(n, in, out);
    }

    /// The plain version of `v` (a LayoutTransform back to the primal
    /// layout, made once per value). `outputName` names the transform's
    /// output (a graph output keeps its name).
    Value plain(const Value& v, Graph& out, const std::string& outputName = {}) {
        if (!v.defined() || !v.type().blocked()) return v;
        return transformed(v, "", out, outputName);
    }

private:
    /// `v` stored in `layout` ("" = plain): itself, a constant stored so, or a
    /// LayoutTransform node (made once per value and layout); nullopt when
    /// the layout does not fit the value.
    std::optional<Value> inLayout(const Value& v, const std::string& layout, Graph& out) {
        if (v.type().layout == layout) return v;
        const TensorType logical = logicalOf(v);
        if (!layout.empty()) {
            const Layout l = Layout::of(layout);
            if (!logical.isStatic() && v.isConstant()) return std::nullopt;
            if (logical.rank() > l.logicalRank()) return std::nullopt;
            if (!v.isConstant() && logical.rank() != l.logicalRank()) return std::nullopt;
            // Numpy broadcasting aligns the trailing axes: [C, 1, 1] is [1, C, 1, 1].
            std::vector<int64_t> shape(size_t(l.logicalRank() - logical.rank()), 1);
            shape.insert(shape.end(), logical.shape.begin(), logical.shape.end());
            if (!TensorType(logical.dtype, shape).inLayout(layout)) return std::nullopt;
            if (auto c = v.constant()) {
                Ref<Constant> plainC = c->inLayout("");
                auto reshaped = Constant::make(plainC->dtype, shape, plainC->bytes);
                const std::string base = v.name().empty() ? "c" : v.name();
                return out.addConstant(detail::uniqueName(out, base + "_" + layout), reshaped->inLayout(layout));
            }
        }
        return transformed(v, layout, out);
    }

    Value transformed(const Value& v, const std::string& layout, Graph& out, const std::string& outputName = {}) {
        auto key = std::make_pair(v, layout);
        for (auto& [k, t] : made_)
            if (k == key) return t;
        Attributes a;
        const std::string src = v.type().blocked() ? v.type().layout : Layout::of("NCHW").str();
        a.set("src_layout", src);
        a.set("dst_layout", layout.empty() ? Layout::of(src).primal().str() : layout);
        const std::string producer = v.producer() ? v.producer()->name : std::string();
        const std::string name =
            producer.empty() ? std::string() : producer + (layout.empty() ? "_plain" : "_" + layout);
        Ref<Node> t = detail::makeTypedOp(ops_, out.newId(), "LayoutTransform", {v}, a, name, {outputName});
        out.append(t);
        made_.emplace_back(key, t->output(0));
        return t->output(0);
    }

    std::vector<Value> remake(const Node& n, const std::vector<Value>& in, const Attributes& attrs, Graph& out) {
        Ref<Node> m = detail::makeTypedOp(ops_, n.id, n.op, in, attrs, n.name, n.outputNames);
        out.append(m);
        return m->outputs();
    }

    std::optional<std::vector<Value>> plainInputs(const Node& n, const std::vector<Value>& in, Graph& out) {
        std::vector<Value> p;
        bool blocked = false;
        for (auto& v : in) {
            blocked = blocked || (v.defined() && v.type().blocked());
            p.push_back(plain(v, out));
        }
        if (!blocked && in == n.inputs) return std::nullopt;
        return remake(n, p, n.attrs, out);
    }

    /// A 2-d float32 convolution with constant weights writes channel blocks.
    std::optional<std::vector<Value>> conv(const Node& n, const std::vector<Value>& in, Graph& out) {
        if (in.size() < 2 || !in[0].defined() || !in[1].defined() || !in[0].type().known()) return plainInputs(n, in, out);
        const TensorType x = logicalOf(in[0]);
        const auto w = in[1].constant();
        const std::string autoPad = n.attrs.getString("auto_pad", "NOTSET");
        if (x.rank() != 4 || x.dtype != DataType::float32() || !w || w->shape.size() != 4 || !w->layout.empty() ||
            (autoPad != "NOTSET" && autoPad != "VALID") || x.shape[1] < 0)
            return plainInputs(n, in, out);
        const int64_t groups = n.attrs.getInt("group", 1), oc = w->shape[0], c = x.shape[1];
        if (groups < 1 || oc % groups != 0 || c % groups != 0) return plainInputs(n, in, out);
        const bool depthwise = groups == c && groups == oc;
        const int64_t b = channelBlock(depthwise ? c : oc / groups, block_);
        if (b == 0) return plainInputs(n, in, out);
        Attributes a = n.attrs;
        a.set("out_layout", Layout::nchwc(b).str());
        std::vector<Value> ins = in;
        for (size_t i = 1; i < ins.size(); ++i) ins[i] = plain(ins[i], out);
        return remake(n, ins, a, out);
    }

    /// A 2-d float32 transposed convolution with constant weights, one group
    /// and dilation 1 (the blocked one, by phases) writes channel blocks and
    /// reads its input as it is stored.
    std::optional<std::vector<Value>> convTranspose(const Node& n, const std::vector<Value>& in, Graph& out) {
        if (in.size() < 2 || !in[0].defined() || !in[1].defined() || !in[0].type().known()) return plainInputs(n, in, out);
        const TensorType x = logicalOf(in[0]);
        const auto w = in[1].constant();
        if (x.rank() != 4 || x.dtype != DataType::float32() || !w || w->shape.size() != 4 || !w->layout.empty() ||
            n.attrs.getInt("group", 1) != 1 || x.shape[1] < 0)
            return plainInputs(n, in, out);
        for (int64_t d : n.attrs.getInts("dilations", {1, 1}))
            if (d != 1) return plainInputs(n, in, out);
        for (int64_t p : n.attrs.getInts("pads", {0, 0, 0, 0}))
            if (p < 0) return plainInputs(n, in, out);
        const int64_t b = channelBlock(w->shape[1], block_);
        Attributes a = n.attrs;
        if (b) a.set("out_layout", Layout::nchwc(b).str());
        std::vector<Value> ins = in;
        for (size_t i = 1; i < ins.size(); ++i) ins[i] = plain(ins[i], out);
        if (!b && !ins[0].type().blocked()) return plainInputs(n, in, out);
        return remake(n, ins, a, out);
    }

    /// Element by element in the layout of the first blocked input; the
    /// other operands are stored the same way, or everything goes plain.
    std::optional<std::vector<Value>> elementwise(const Node& n, const std::vector<Value>& in, Graph& out) {
        std::string layout;
        for (auto& v : in)
            if (v.defined() && v.type().blocked()) {
                layout = v.type().layout;
                break;
            }
        if (layout.empty()) return plainInputs(n, in, out);
        const int rank = Layout::of(layout).logicalRank();
        std::vector<Value> ins;
        for (auto& v : in) {
            if (!v.defined() || (v.type().numElements() == 1 && !v.type().blocked())) {
                ins.push_back(v);
                continue;
            }
            auto s = logicalOf(v).rank() <= rank ? inLayout(v, layout, out) : std::nullopt;
            if (!s) return plainInputs(n, in, out);
            ins.push_back(*s);
        }
        // The output must be of the layout's rank (no operand broadcast it higher).
        for (auto& v : in)
            if (v.defined() && logicalOf(v).rank() > rank) return plainInputs(n, in, out);
        return remake(n, ins, n.attrs, out);
    }

    /// Concat of blocked tensors along a primal axis stays blocked.
    std::optional<std::vector<Value>> concat(const Node& n, const std::vector<Value>& in, Graph& out) {
        std::string layout;
        for (auto& v : in)
            if (v.defined() && v.type().blocked()) {
                layout = v.type().layout;
                break;
            }
        if (layout.empty()) return plainInputs(n, in, out);
        const Layout l = Layout::of(layout);
        const int rank = l.logicalRank();
        int64_t axis = n.attrs.getInt("axis", 0);
        if (axis < 0) axis += rank;
        if (axis < 0 || axis >= rank || l.storedIndexOf(l.primal().axes()[size_t(axis)].name) != axis)
            return plainInputs(n, in, out);
        std::vector<Value> ins;
        for (auto& v : in) {
            if (!v.defined() || logicalOf(v).rank() != rank) return plainInputs(n, in, out);
            auto s = inLayout(v, layout, out);
            if (!s) return plainInputs(n, in, out);
            ins.push_back(*s);
        }
        Attributes a = n.attrs;
        a.set("axis", axis);
        return remake(n, ins, a, out);
    }

    const OpRegistry& ops_;
    int64_t block_;
    /// Values already stored in another layout: (value, layout) -> the new value.
    std::vector<std::pair<std::pair<Value, std::string>, Value>> made_;
};

} // namespace

Graph alterLayout(const Graph& g, const AlterLayoutOptions& options) {
    if (options.block <= 1) return g;
    const OpRegistry& ops = opsOrDefault(options.ops);
    Graph sorted = g.clone();
    sorted.sortTopologically();
    LayoutRewriter rewriter(ops, options.block);
    Graph out = detail::rewriteNodes(sorted, [&](const Node& n, const std::vector<Value>& in, Graph& target) {
        return rewriter.rewrite(n, in, target);
    });
    // Graph outputs are plain, under their own names.
    std::vector<Value> outputs;
    for (auto& v : out.outputs()) outputs.push_back(rewriter.plain(v, out, v.defined() ? v.name() : ""));
    out.setOutputs(std::move(outputs));
    out.sortTopologically();
    return detail::dropConstantsNoLongerUsed(sorted, out);
}

} // namespace tessel::graph
