#include "te/script/builtins/Helpers.h"

#include "tir/IROperators.h"

#include <limits>

namespace tessel::te::script {

using tir::Expr;
using tir::IterVar;

Value intOrExpr(const Expr& e) {
    if (auto c = tir::asConstInt(e); c && e.type().isScalar() && !e.type().isBool())
        return Value::integer(*c);
    return Value(e);
}

Value iterVarList(const std::vector<IterVar>& ivs) {
    Value::Items v;
    for (auto& iv : ivs)
        v.push_back(Value(iv));
    return Value::list(std::move(v));
}

std::vector<CallArg> spread(const std::vector<CallArg>& args) {
    if (args.size() == 1 && args[0].get().isSequence()) {
        std::vector<CallArg> out;
        for (auto& v : args[0].get().items())
            out.push_back({std::make_shared<const Value>(v), args[0].loc});
        return out;
    }
    return args;
}

std::vector<Expr> toShape(Interpreter& in, const BoundArgs& a, size_t i) {
    const Value& v = a.value(i);
    std::vector<Value> dims;
    if (v.isSequence())
        dims = v.items();
    else
        dims = {v};
    std::vector<Expr> shape;
    for (size_t d = 0; d < dims.size(); ++d) {
        const Value& dim = dims[d];
        if (dim.isInt()) {
            if (dim.asInt() > std::numeric_limits<int32_t>::max())
                in.fail(a.loc(i), a.fname() + "(): dimension " + std::to_string(d) + " is " +
                                      std::to_string(dim.asInt()) + ", more than 2**31 - 1");
            shape.push_back(tir::makeConst(DataType::int32(), dim.asInt()));
            continue;
        }
        auto e = in.exprOf(dim);
        if (!e || !e->type().isIntOrUInt() || e->type().isBool() || dim.is(Value::Kind::IterVar))
            in.fail(a.loc(i), a.fname() + "(): the shape must be a tuple of ints, but dimension " +
                                  std::to_string(d) + " is " + typeName(dim));
        shape.push_back(*e);
    }
    return shape;
}

Expr toCondition(Interpreter& in, const BoundArgs& a, size_t i) {
    Expr c = a.expr(i);
    if (!c.type().isBool()) c = in.guarded(a.loc(i), [&] { return c != tir::makeZero(c.type()); });
    return c;
}

std::vector<IterVar> toAxes(const BoundArgs& a, size_t i) {
    const Value& v = a.value(i);
    if (v.is(Value::Kind::IterVar)) return {v.asIterVar()};
    std::vector<IterVar> axes;
    if (v.isSequence()) {
        for (auto& item : v.items()) {
            if (!item.is(Value::Kind::IterVar))
                a.typeError(i, "an IterVar or a list of IterVars (from te.reduce_axis)");
            axes.push_back(item.asIterVar());
        }
        return axes;
    }
    a.typeError(i, "an IterVar or a list of IterVars (from te.reduce_axis)");
}

bool isAxisValue(const Value& v) {
    if (v.is(Value::Kind::IterVar)) return true;
    if (!v.isSequence()) return false;
    for (auto& i : v.items())
        if (!i.is(Value::Kind::IterVar)) return false;
    return true;
}

std::vector<IterVar> iterVarArgs(Interpreter& in, const std::string& fname, const CallArgs& c) {
    std::vector<IterVar> ivs;
    auto args = spread(c.positional);
    for (size_t i = 0; i < args.size(); ++i) {
        if (!args[i].get().is(Value::Kind::IterVar))
            in.fail(args[i].loc, fname + "(): argument " + std::to_string(i + 1) +
                                     " must be an IterVar (a loop), not " +
                                     typeName(args[i].get()));
        ivs.push_back(args[i].get().asIterVar());
    }
    return ivs;
}

void noKeywords(Interpreter& in, const std::string& fname, const CallArgs& c) {
    if (!c.keywords.empty())
        in.fail(c.keywords[0].second.loc,
                fname + "() got an unexpected keyword argument '" + c.keywords[0].first + "'");
}

NativeFunction constFunction(std::string fname) {
    return [fname](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, fname, c, {{"value", true}, {"dtype"}});
        const Value& v = a.value(0);
        if (!v.isNumber()) a.typeError(0, "a number");
        if (a.has(1)) {
            DataType dt = a.dtype(1);
            if (v.is(Value::Kind::Float) && !dt.isFloat())
                return Value(tir::makeConst(dt, int64_t(v.asFloat())));
            return v.is(Value::Kind::Float) ? Value(tir::makeConst(dt, v.asFloat()))
                                            : Value(tir::makeConst(dt, v.asInt()));
        }
        return Value(*in.exprOf(v));
    };
}

NativeFunction varFunction(std::string fname) {
    return [fname](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, fname, c, {{"name"}, {"dtype"}});
        std::string name = a.has(0) ? a.string(0) : "tindex";
        DataType dt = a.has(1) ? a.dtype(1) : DataType::int32();
        return Value(Expr(tir::Var(name, dt)));
    };
}

} // namespace tessel::te::script
