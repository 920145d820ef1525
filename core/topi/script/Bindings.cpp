#include "topi/script/Bindings.h"

#include "te/Suggest.h"
#include "tir/IROperators.h"
#include "topi/TopiUtil.h"

#include <limits>
#include <unordered_set>

namespace tessel::topi::script {

using ts::Value;

Call::Call(ts::Interpreter& interp, const ts::BoundArgs& a, const std::vector<Param>& params,
           const Context& c)
    : in(interp), args(a), ctx(c), params_(params) {}

void Call::fail(size_t i, const std::string& message) const {
    in.fail(args.loc(i), fname() + "(): " + message);
}

void Call::failCall(const std::string& message) const {
    in.fail(loc(), fname() + "(): " + message);
}

te::Tensor Call::tensor(size_t i) {
    const Value& v = args.value(i);
    if (!v.is(Value::Kind::Tensor)) args.typeError(i, "a Tensor");
    const te::Tensor& t = v.asTensor();
    for (size_t d = 0; d < t->shape.size(); ++d)
        if (!tir::asConstInt(t->shape[d]))
            fail(i, "tensor '" + t.name() + "' has a symbolic extent in dimension " +
                        std::to_string(d) + "; the topi computes need static shapes");
    noteInput(t);
    return t;
}

te::Tensor Call::optionalTensor(size_t i) {
    return has(i) ? tensor(i) : te::Tensor();
}

std::vector<te::Tensor> Call::tensors(size_t i) {
    const Value& v = args.value(i);
    if (!v.isSequence() || v.items().empty())
        args.typeError(i, "a non-empty tuple or list of Tensors");
    std::vector<te::Tensor> out;
    for (size_t k = 0; k < v.items().size(); ++k) {
        const Value& item = v.items()[k];
        if (!item.is(Value::Kind::Tensor))
            fail(i, "item " + std::to_string(k) + " must be a Tensor, not " + ts::typeName(item));
        const te::Tensor& t = item.asTensor();
        for (auto& e : t->shape)
            if (!tir::asConstInt(e))
                fail(i, "tensor '" + t.name() +
                            "' has a symbolic shape; the topi computes need static shapes");
        noteInput(t);
        out.push_back(t);
    }
    return out;
}

std::optional<DataType> Call::tensorDType(size_t i) const {
    const Value& v = args.value(i);
    if (v.is(Value::Kind::Tensor)) return v.asTensor()->dtype;
    return std::nullopt;
}

te::Tensor Call::operand(size_t i, DataType like) {
    const Value& v = args.value(i);
    if (v.is(Value::Kind::Tensor)) return tensor(i);
    std::optional<tir::Expr> e;
    if (v.isNumber()) {
        e = v.is(Value::Kind::Float) ? topi::constant(like, v.asFloat())
                                     : (like.isFloat() ? tir::makeConst(like, double(v.asInt()))
                                                       : tir::makeConst(like, v.asInt()));
    } else if (v.is(Value::Kind::Expr) &&
               (v.asExpr().as<tir::IntImmNode>() || v.asExpr().as<tir::FloatImmNode>())) {
        e = v.asExpr().type() == like ? v.asExpr() : tir::cast(like, v.asExpr());
    }
    if (!e) args.typeError(i, "a Tensor or a number");
    return literalTensor({}, *e, fname().substr(fname().rfind('.') + 1) + "_literal");
}

int64_t Call::integer(size_t i) const {
    return args.integer(i);
}

double Call::number(size_t i) const {
    const Value& v = args.value(i);
    if (v.is(Value::Kind::Expr))
        if (auto* f = v.asExpr().as<tir::FloatImmNode>()) return f->value;
    if (v.is(Value::Kind::Expr))
        if (auto c = tir::asConstInt(v.asExpr())) return double(*c);
    return args.number(i);
}

bool Call::flag(size_t i) const {
    const Value& v = args.value(i);
    if (v.isInt()) return v.asInt() != 0;
    args.typeError(i, "True or False");
}

std::string Call::string(size_t i) const {
    return args.string(i);
}

std::string Call::name(size_t i, const std::string& fallback) const {
    if (!has(i)) return fallback;
    std::string n = args.string(i);
    if (n.empty()) fail(i, "the name must not be empty");
    return n;
}

DataType Call::dtype(size_t i) const {
    return args.dtype(i);
}

std::vector<int64_t> Call::intsOf(size_t i, const Value& v) const {
    auto asInt = [](const Value& x) -> std::optional<int64_t> {
        if (x.isInt()) return x.asInt();
        if (x.is(Value::Kind::Expr))
            if (auto c = tir::asConstInt(x.asExpr()); c && !x.asExpr().type().isBool()) return *c;
        return std::nullopt;
    };
    if (!v.isSequence()) {
        auto x = asInt(v);
        if (!x) args.typeError(i, "an int or a tuple of ints");
        return {*x};
    }
    std::vector<int64_t> out;
    for (size_t k = 0; k < v.items().size(); ++k) {
        auto x = asInt(v.items()[k]);
        if (!x)
            fail(i, "item " + std::to_string(k) + " of " + param(i) + " must be an int, not " +
                        ts::typeName(v.items()[k]));
        out.push_back(*x);
    }
    return out;
}

std::vector<int64_t> Call::ints(size_t i) const {
    if (!has(i)) return {};
    const Value& v = args.value(i);
    if (!v.isSequence() && !v.isInt() && !v.is(Value::Kind::Expr))
        args.typeError(i, "an int or a tuple of ints");
    return intsOf(i, v);
}

std::vector<int64_t> Call::positiveInts(size_t i) const {
    auto v = ints(i);
    for (int64_t x : v)
        if (x < 1) fail(i, param(i) + " must be at least 1, not " + std::to_string(x));
    return v;
}

std::vector<int64_t> Call::nonNegativeInts(size_t i) const {
    auto v = ints(i);
    for (int64_t x : v)
        if (x < 0) fail(i, param(i) + " must not be negative, not " + std::to_string(x));
    return v;
}

std::string Call::choice(size_t i, const std::vector<std::string>& choices) const {
    std::string s = string(i);
    for (auto& c : choices)
        if (s == c) return s;
    std::string list;
    for (size_t k = 0; k < choices.size(); ++k)
        list += (k ? (k + 1 == choices.size() ? " or " : ", ") : "") + ("\"" + choices[k] + "\"");
    fail(i, param(i) + " must be " + list + ", not \"" + s + "\"" + te::didYouMean(s, choices));
}

Value Call::result(const te::Tensor& out) {
    return results({out}).items().front();
}

Value Call::results(const std::vector<te::Tensor>& outs) {
    // The stages between the inputs and the results are what this call made.
    std::vector<te::Operation> inOps, outOps;
    for (auto& t : inputs_)
        inOps.push_back(t->op);
    for (auto& t : outs)
        outOps.push_back(t->op);
    std::unordered_set<const te::OperationNode*> before;
    for (auto& op : te::postOrderOps(inOps))
        before.insert(op.get());
    ts::ScriptRecorder& rec = *ctx.recorder;
    for (auto& op : te::postOrderOps(outOps)) {
        if (before.count(op.get())) continue;
        auto* c = dynamic_cast<const te::ComputeOpNode*>(op.get());
        if (!c) continue;
        rec.noteOperation(op, loc());
        rec.noteLoops(c->axis, loc());
        rec.noteLoops(c->reduceAxis, loc());
    }
    Value::Items items;
    for (auto& t : outs) {
        if (t->op->opKind() == te::OpKind::Compute) rec.computes.push_back(t);
        items.push_back(Value(t));
    }
    return Value::tuple(std::move(items));
}

} // namespace tessel::topi::script
