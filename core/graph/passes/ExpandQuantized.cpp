#include "graph/passes/ExpandQuantized.h"

#include "graph/OpRegistry.h"
#include "graph/passes/GraphRewrite.h"
#include "ir/Diagnostic.h"

namespace tessel::graph {

namespace {

constexpr int64_t kInt32 = 6;   // TensorProto INT32
constexpr int64_t kFloat32 = 1; // TensorProto FLOAT

bool isIntegerProduct(const std::string& op) {
    return op == "MatMulInteger" || op == "ConvInteger" || op == "QLinearMatMul" ||
           op == "QLinearConv";
}

/// Appends one integer product's operators to the graph being built.
bool isByte(DataType t) { return t == DataType::uint8() || t == DataType::int8(); }

ProductInput productInput(const Value& v) {
    if (!v.defined()) return {};
    return {true, v.type(), v.constant()};
}

class Expander {
public:
    Expander(const OpRegistry& ops, Graph& g, const Node& n, bool keepConv)
        : ops_(ops), g_(g), n_(n), base_(n.name.empty() ? n.op + std::to_string(n.id) : n.name), keepConv_(keepConv) {}

    Value run(const std::vector<Value>& in);

private:
    Value op(const std::string& type, std::vector<Value> inputs, Attributes attrs = {},
             bool last = false) {
        std::vector<std::string> names;
        if (last && !n_.outputNames.empty()) names.push_back(n_.outputNames[0]);
        Ref<Node> node =
            detail::makeTypedOp(ops_, last ? n_.id : g_.newId(), type, std::move(inputs),
                                std::move(attrs), last ? n_.name : base_ + "/" + type, names);
        g_.append(node);
        return node->output(0);
    }
    Value cast(const Value& v, int64_t to) {
        Attributes a;
        a.set("to", to);
        return op("Cast", {v}, a);
    }
    /// `v` [n] as [n, 1, ..., 1] (`trailing` ones) so that it broadcasts along
    /// an axis that is not the last; one value stays as it is.
    Value alongAxis(const Value& v, int64_t trailing) {
        const TensorType& t = v.type();
        if (t.rank() == 0 || (t.rank() == 1 && t.shape[0] == 1) || trailing == 0) return v;
        std::vector<int64_t> axes;
        for (int64_t i = 1; i <= trailing; ++i)
            axes.push_back(i);
        Value k = g_.addConstant(detail::uniqueName(g_, base_ + "/axes"),
                                 Constant::fromInts({static_cast<int64_t>(axes.size())}, axes));
        return op("Unsqueeze", {v, k});
    }
    /// The operand in int32 less its zero point (absent: 0).
    Value operand(const Value& x, const Value& zeroPoint, int64_t trailing) {
        Value x32 = cast(x, kInt32);
        if (!zeroPoint.defined()) return x32;
        return op("Sub", {x32, alongAxis(cast(zeroPoint, kInt32), trailing)});
    }

    const OpRegistry& ops_;
    Graph& g_;
    const Node& n_;
    std::string base_;
    bool keepConv_;
};

Value Expander::run(const std::vector<Value>& in) {
    auto at = [&](size_t i) { return i < in.size() ? in[i] : Value(); };
    const bool conv = n_.op == "ConvInteger" || n_.op == "QLinearConv";
    const bool qlinear = n_.op == "QLinearMatMul" || n_.op == "QLinearConv";
    // Inputs: x, w and their zero points (QLinear: x, x_scale, x_zp, w, w_scale, w_zp).
    const Value x = in[0], w = qlinear ? in[3] : in[1];
    const Value xZero = at(2), wZero = qlinear ? at(5) : at(3);
    // Per-row zero points of A are [M] for A [..., M, K]: one trailing axis;
    // per-channel ones of Conv's weights [M, C, k...]: all but the first.
    const int64_t wTrailing = conv ? w.type().rank() - 1 : 0;
    Value acc;
    if (conv && keepConv_) {
        // QLinearConv (all four operands given): the blocked integer
        // convolution computes the sum; the bias [M] follows as an Add.
        acc = op("ConvInteger", {x, w, xZero, wZero}, n_.attrs);
        if (at(8).defined()) acc = op("Add", {acc, alongAxis(at(8), acc.type().rank() - 2)});
    } else {
        Value a = operand(x, xZero, conv ? 0 : 1);
        Value b = operand(w, wZero, wTrailing);
        if (!qlinear) return op(conv ? "Conv" : "MatMul", {a, b}, conv ? n_.attrs : Attributes(), true);
        std::vector<Value> productIn{a, b};
        if (conv && at(8).defined()) productIn.push_back(at(8)); // the int32 bias, added in the sum
        acc = op(conv ? "Conv" : "MatMul", productIn, conv ? n_.attrs : Attributes());
    }
    // y = saturate(round_half_even(acc * x_scale * w_scale / y_scale) + y_zero_point)
    const int64_t outRank = acc.type().rank();
    Value xScale = alongAxis(in[1], conv ? 0 : 1);
    Value wScale = alongAxis(in[4], conv ? outRank - 2 : 0);
    Value multiplier = op("Div", {op("Mul", {xScale, wScale}), in[6]});
    Value scaled = op("Mul", {cast(acc, kFloat32), multiplier});
    const TensorType& yZero = in[7].type();
    std::vector<double> ones(static_cast<size_t>(yZero.numElements()), 1.0);
    Value one = g_.addConstant(detail::uniqueName(g_, base_ + "/unit_scale"),
                               Constant::fromFloats(yZero.shape, ones));
    return op("QuantizeLinear", {scaled, one, in[7]}, {}, true);
}

} // namespace

bool keepsConvInteger(const std::vector<ProductInput>& in, const Attributes& attrs) {
    if (in.size() < 2 || !in[0].present || !in[1].present) return false;
    const TensorType &x = in[0].type, &w = in[1].type;
    const std::string autoPad = attrs.getString("auto_pad", "NOTSET");
    if (x.rank() != 4 || w.rank() != 4 || !isByte(x.dtype) || !isByte(w.dtype) || !in[1].constant ||
        attrs.getInt("group", 1) != 1 || (autoPad != "NOTSET" && autoPad != "VALID"))
        return false;
    if (in.size() > 2 && in[2].present && in[2].type.numElements() != 1) return false;
    if (in.size() > 3 && in[3].present) {
        const int64_t n = in[3].type.numElements();
        if (!in[3].constant || (n != 1 && n != w.shape[0])) return false;
    }
    return true;
}

Graph expandQuantized(const Graph& g, const ExpandQuantizedOptions& options) {
    const OpRegistry& ops = opsOrDefault(options.ops);
    bool any = false;
    for (const auto& n : g.nodes())
        any = any || isIntegerProduct(n->op);
    if (!any) return g;
    Graph sorted = g.clone();
    sorted.sortTopologically();
    Graph out =
        detail::rewriteNodes(sorted,
                             [&](const Node& n, const std::vector<Value>& in,
                                 Graph& target) -> std::optional<std::vector<Value>> {
                                 if (!isIntegerProduct(n.op)) return std::nullopt;
                                 for (const auto& v : in)
                                     if (v.defined() && !v.type().known())
                                         return std::nullopt; // behind an unsupported construct
                                 bool keep = false;
                                 if (options.keepConvInteger && (n.op == "ConvInteger" || n.op == "QLinearConv")) {
                                     const bool q = n.op == "QLinearConv";
                                     auto input = [&](size_t i) { return i < in.size() ? in[i] : Value(); };
                                     keep = keepsConvInteger({productInput(input(0)), productInput(input(q ? 3 : 1)),
                                                              productInput(input(2)), productInput(input(q ? 5 : 3))},
                                                             n.attrs);
                                 }
                                 if (keep && n.op == "ConvInteger") return std::nullopt; // computed as it is
                                 return std::vector<Value>{Expander(ops, target, n, keep).run(in)};
                             });
    return detail::dropConstantsNoLongerUsed(sorted, out);
}

} // namespace tessel::graph
