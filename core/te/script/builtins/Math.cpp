// The math of `te` and `tir` (exp, floordiv, if_then_else, all, max_value ...)
// and the rest of `tir` (const, Var, Select, max, min).

#include "te/script/builtins/Builtins.h"
#include "te/script/builtins/Helpers.h"

#include "tir/IROperators.h"

#include <cfloat>
#include <limits>

namespace tessel::te::script {

using tir::Expr;

namespace {

NativeFunction intrinsic(std::string name, tir::Intrinsic op, int arity) {
    return [name, op, arity](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        static const char* kNames[] = {"x", "y", "z"};
        std::vector<ParamSpec> params;
        for (int i = 0; i < arity; ++i)
            params.push_back({kNames[i], true});
        BoundArgs a(in, name, c, params);
        std::vector<Expr> args;
        for (int i = 0; i < arity; ++i)
            args.push_back(a.expr(size_t(i)));
        return Value(tir::call(op, std::move(args)));
    };
}

/// floordiv & co: Python ints fold to ints, anything else builds an expression.
NativeFunction division(const char* name, bool floor, bool mod) {
    return [name, floor, mod](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, name, c, {{"a", true}, {"b", true}});
        if (a.value(0).isInt() && a.value(1).isInt()) {
            int64_t x = a.value(0).asInt(), y = a.value(1).asInt();
            if (y == 0) in.fail(a.loc(1), a.fname() + "(): division by zero");
            if (x == std::numeric_limits<int64_t>::min() && y == -1) {
                if (mod) return Value::integer(0);
                in.fail(c.loc, "integer overflow (the result does not fit in 64 bits)");
            }
            int64_t q = x / y, r = x % y;
            if (floor && r != 0 && ((r < 0) != (y < 0))) {
                q -= 1;
                r += y;
            }
            return Value::integer(mod ? r : q);
        }
        Expr x = a.expr(0), y = a.expr(1);
        if (floor) return Value(mod ? tir::floormod(x, y) : tir::floordiv(x, y));
        return Value(mod ? tir::truncmod(x, y) : tir::truncdiv(x, y));
    };
}

Expr limitValue(DataType t, bool isMax) {
    if (t.isFloat()) {
        double v = t.bits() == 64 ? DBL_MAX : t.bits() == 16 ? 65504.0 : double(FLT_MAX);
        return tir::makeConst(t, isMax ? v : -v);
    }
    if (t.isBool()) return tir::makeConst(t, int64_t(isMax ? 1 : 0));
    int bits = t.bits();
    if (t.isUInt()) {
        if (!isMax) return tir::makeConst(t, int64_t(0));
        return tir::makeConst(t, bits >= 64 ? std::numeric_limits<int64_t>::max()
                                            : int64_t((uint64_t(1) << bits) - 1));
    }
    if (bits >= 64)
        return tir::makeConst(t, isMax ? std::numeric_limits<int64_t>::max()
                                       : std::numeric_limits<int64_t>::min());
    int64_t m = (int64_t(1) << (bits - 1));
    return tir::makeConst(t, isMax ? m - 1 : -m);
}

NativeFunction allAny(const std::string& prefix, bool isAll) {
    return [prefix, isAll](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        std::string fname = prefix + (isAll ? ".all" : ".any");
        noKeywords(in, fname, c);
        auto args = spread(c.positional);
        if (args.empty()) in.fail(c.loc, fname + "() needs at least one condition");
        Expr acc;
        for (auto& arg : args) {
            auto e = in.exprOf(arg.get());
            if (!e || !e->type().isBool())
                in.fail(arg.loc, fname + "(): every argument must be a condition, not " +
                                     typeName(arg.get()));
            acc = !acc.defined() ? *e : isAll ? (acc && *e) : (acc || *e);
        }
        return Value(acc);
    };
}

NativeFunction limit(const std::string& prefix, bool isMax) {
    return [prefix, isMax](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, prefix + (isMax ? ".max_value" : ".min_value"), c, {{"dtype", true}});
        return Value(limitValue(a.dtype(0), isMax));
    };
}

void addMath(ModuleBuilder& m, const std::string& prefix) {
    struct Intr {
        const char* name;
        tir::Intrinsic op;
        int arity;
    };
    static const Intr kIntrinsics[] = {
        {"exp", tir::Intrinsic::Exp, 1},     {"log", tir::Intrinsic::Log, 1},
        {"sqrt", tir::Intrinsic::Sqrt, 1},   {"rsqrt", tir::Intrinsic::Rsqrt, 1},
        {"tanh", tir::Intrinsic::Tanh, 1},   {"sigmoid", tir::Intrinsic::Sigmoid, 1},
        {"erf", tir::Intrinsic::Erf, 1},     {"abs", tir::Intrinsic::Abs, 1},
        {"floor", tir::Intrinsic::Floor, 1}, {"ceil", tir::Intrinsic::Ceil, 1},
        {"round", tir::Intrinsic::Round, 1}, {"trunc", tir::Intrinsic::Trunc, 1},
        {"sin", tir::Intrinsic::Sin, 1},     {"cos", tir::Intrinsic::Cos, 1},
        {"fma", tir::Intrinsic::Fma, 3},     {"pow", tir::Intrinsic::Pow, 2},
        {"power", tir::Intrinsic::Pow, 2},   {"pair_dot_i16", tir::Intrinsic::PairDotI16, 2},
        {"round_even", tir::Intrinsic::RoundEven, 1},
    };
    for (auto& i : kIntrinsics)
        m.fn(i.name, intrinsic(prefix + "." + i.name, i.op, i.arity));
    auto ite = [prefix](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, prefix + ".if_then_else", c, {{"cond", true}, {"t", true}, {"f", true}});
        Expr cond = toCondition(in, a, 0);
        return Value(tir::select(cond, a.expr(1), a.expr(2)));
    };
    m.fn("if_then_else", ite);
    m.fn("select", ite);
    m.fn("floordiv", division("floordiv", true, false));
    m.fn("floormod", division("floormod", true, true));
    m.fn("indexdiv", division("indexdiv", true, false));
    m.fn("indexmod", division("indexmod", true, true));
    m.fn("truncdiv", division("truncdiv", false, false));
    m.fn("truncmod", division("truncmod", false, true));
    m.fn("all", allAny(prefix, true));
    m.fn("any", allAny(prefix, false));
    m.fn("max_value", limit(prefix, true));
    m.fn("min_value", limit(prefix, false));
}

} // namespace

void installMath(BuiltinTable& t) {
    addMath(t.module("te"), "te");
    ModuleBuilder& tir = t.module("tir");
    t.hide("tir"); // reached as tvm.tir and tessel.tir
    addMath(tir, "tir");
    tir.fn("const", constFunction("tir.const"));
    tir.add("Select", *tir.find("select"));
    tir.fn("Var", varFunction("te.var"));
    tir.fn("max", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "tir.max", c, {{"a", true}, {"b", true}});
        return Value(tir::max(a.expr(0), a.expr(1)));
    });
    tir.fn("min", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "tir.min", c, {{"a", true}, {"b", true}});
        return Value(tir::min(a.expr(0), a.expr(1)));
    });
}

} // namespace tessel::te::script
