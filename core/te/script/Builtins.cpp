// The names a TE script starts with: the `te`, `tvm`, `tir` and `tessel`
// modules, Python's builtins, and the attributes and methods of TE objects.

#include "te/script/Interpreter.h"

#include "te/script/Suggest.h"
#include "tir/IROperators.h"

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tessel::te::script {

using tir::Expr;
using tir::IterVar;

namespace {

constexpr int64_t kMaxRange = 1'000'000;

Value none() {
    return Value();
}

Value items(Value::Items v, bool asList) {
    return asList ? Value::list(std::move(v)) : Value::tuple(std::move(v));
}

/// An int if the expression is an integer constant, else the expression.
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

class ModuleBuilder {
public:
    explicit ModuleBuilder(std::string name) : m_(std::make_shared<ModuleObject>()) {
        m_->name = std::move(name);
    }
    void fn(const std::string& name, NativeFunction f) {
        add(name, Interpreter::makeFunction(m_->name + "." + name, std::move(f)));
    }
    void add(const std::string& name, Value v) {
        for (auto& [n, existing] : m_->members)
            if (n == name) {
                existing = std::make_shared<const Value>(std::move(v));
                return;
            }
        m_->members.emplace_back(name, std::make_shared<const Value>(std::move(v)));
    }
    Value value() const { return Value(std::shared_ptr<const ModuleObject>(m_)); }

private:
    std::shared_ptr<ModuleObject> m_;
};

/// The positional arguments, or the items of a single tuple/list argument.
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

/// Conditions: booleans as they are, numbers compared with zero.
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

/// te.sum / te.max / te.min / te.prod: a reduction, or (two expressions) elementwise.
NativeFunction reducer(const char* name, tir::ReduceKind kind) {
    return [name, kind](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, name, c, {{"expr", true}, {"axis", true}, {"where"}, {"init"}});
        if (a.has(3)) in.fail(a.loc(3), a.fname() + "(): 'init' is not supported yet");
        if (!isAxisValue(a.value(1)) && in.exprOf(a.value(1))) {
            if (a.has(2)) in.fail(a.loc(2), a.fname() + "(): 'where' needs a reduction axis");
            Expr x = a.expr(0), y = a.expr(1);
            switch (kind) {
            case tir::ReduceKind::Sum:
                return Value(x + y);
            case tir::ReduceKind::Prod:
                return Value(x * y);
            case tir::ReduceKind::Min:
                return Value(tir::min(x, y));
            case tir::ReduceKind::Max:
                return Value(tir::max(x, y));
            }
        }
        Expr source = a.expr(0);
        std::vector<IterVar> axes = toAxes(a, 1);
        Expr where = a.has(2) ? toCondition(in, a, 2) : Expr();
        switch (kind) {
        case tir::ReduceKind::Sum:
            return Value(te::sum(source, axes, where));
        case tir::ReduceKind::Prod:
            return Value(te::prod(source, axes, where));
        case tir::ReduceKind::Min:
            return Value(te::min(source, axes, where));
        case tir::ReduceKind::Max:
            return Value(te::max(source, axes, where));
        }
        return none();
    };
}

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

std::vector<Tensor> toTensorList(Interpreter& in, const BoundArgs& a, size_t i) {
    const Value& v = a.value(i);
    if (!v.isSequence()) a.typeError(i, "a list of tensors");
    std::vector<Tensor> out;
    for (size_t k = 0; k < v.items().size(); ++k) {
        const Value& t = v.items()[k];
        if (!t.is(Value::Kind::Tensor))
            in.fail(a.loc(i), a.fname() + "(): args[" + std::to_string(k) +
                                  "] must be a Tensor, not " + typeName(t));
        out.push_back(t.asTensor());
    }
    return out;
}

std::string targetText(Interpreter& in, const BoundArgs& a, size_t i) {
    if (!a.has(i)) return {};
    if (a.value(i).is(Value::Kind::String)) return a.value(i).asString();
    a.typeError(i, "a target string such as \"llvm\"");
}

/// tvm.lower / tvm.build / tessel.build.
NativeFunction buildFunction(std::string name, BuildRequest::Kind kind) {
    return [name, kind](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        std::vector<ParamSpec> params = {{"inputs", true, "sch"}, {"args"}, {"name"}, {"binds"}};
        if (kind == BuildRequest::Kind::Lower) {
            params.push_back({"simple_mode"});
        } else {
            params.push_back({"target"});
            params.push_back({"target_host"});
            params.push_back({"runtime"});
        }
        BoundArgs a(in, name, c, params);
        BuildRequest r;
        const Value& inp = a.value(0);
        if (inp.is(Value::Kind::Schedule)) {
            r.schedule = inp.asSchedule();
            r.name = in.defaultName();
            r.args = in.inferArgs(r.schedule);
        } else if (inp.is(Value::Kind::Opaque) && inp.asOpaque().buildIndex >= 0) {
            r = in.builds[size_t(inp.asOpaque().buildIndex)];
        } else {
            a.typeError(0, "a Schedule (from te.create_schedule)");
        }
        if (a.has(1)) r.args = toTensorList(in, a, 1);
        if (a.has(2)) r.name = a.string(2);
        if (a.has(3)) in.fail(a.loc(3), a.fname() + "(): 'binds' is not supported");
        if (kind == BuildRequest::Kind::Build) {
            if (a.has(4)) r.target = targetText(in, a, 4);
        }
        if (r.args.empty()) in.fail(c.loc, a.fname() + "(): the function has no arguments");
        r.kind = kind;
        r.loc = c.loc;
        r.inferred = false;
        in.builds.push_back(r);
        auto o = std::make_shared<OpaqueObject>();
        o->typeName = kind == BuildRequest::Kind::Lower ? "IRModule" : "Module";
        o->message = "the result of " + name +
                     " cannot be used inside a TE script; Tessel compiles, runs and shows the "
                     "function itself";
        o->buildIndex = static_cast<int>(in.builds.size() - 1);
        return Value(std::shared_ptr<const OpaqueObject>(std::move(o)));
    };
}

/// The IterVars among a call's positional arguments (or in one list argument).
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

} // namespace

// ---------------------------------------------------------------------------

void Interpreter::installBuiltins() {
    // ------------------------------------------------------------------ te
    ModuleBuilder te("te");
    te.fn("placeholder", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "te.placeholder", c, {{"shape", true}, {"dtype"}, {"name"}});
        auto shape = toShape(in, a, 0);
        DataType dt = a.has(1) ? a.dtype(1) : DataType::float32();
        std::string name = a.has(2) ? a.string(2) : "placeholder";
        Tensor t = in.guarded(c.loc, [&] { return te::placeholder(shape, dt, name); });
        in.placeholders.push_back(t);
        return Value(t);
    });
    te.fn("compute", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "te.compute", c,
                    {{"shape", true}, {"fcompute", true}, {"name"}, {"tag"}, {"attrs"}});
        auto shape = toShape(in, a, 0);
        const Value& fn = a.value(1);
        if (!fn.is(Value::Kind::Function)) a.typeError(1, "a function such as 'lambda i, j: ...'");
        std::vector<std::string> axisNames;
        SourceLoc bodyLoc = a.loc(1);
        if (const auto& lam = fn.asFunction().lambda) {
            for (auto& p : lam->params)
                axisNames.push_back(p.name);
            bodyLoc = lam->items[0]->begin;
            if (axisNames.size() != shape.size())
                in.fail(a.loc(1), "te.compute(): the lambda takes " +
                                      std::to_string(axisNames.size()) + " argument" +
                                      (axisNames.size() == 1 ? "" : "s") + " but the shape has " +
                                      std::to_string(shape.size()) + " dimension" +
                                      (shape.size() == 1 ? "" : "s"));
        }
        std::string name = a.has(2) ? a.string(2) : "compute";
        std::string tag = a.has(3) ? a.string(3) : "";
        SourceLoc fnLoc = a.loc(1);
        ComputeFunction f = [&](const std::vector<tir::Var>& vars) -> Expr {
            CallArgs args;
            args.loc = fnLoc;
            for (auto& v : vars)
                args.positional.push_back({std::make_shared<const Value>(Value(Expr(v))), fnLoc});
            Value r = in.call(fn, args);
            if (r.isSequence())
                in.fail(bodyLoc,
                        "te.compute(): computes with several outputs are not supported yet");
            auto e = in.exprOf(r);
            if (!e)
                in.fail(bodyLoc,
                        "te.compute(): the function must return an expression, not " + typeName(r));
            return *e;
        };
        Tensor t = in.guarded(c.loc, [&] { return te::compute(shape, f, name, tag, axisNames); });
        in.computes.push_back(t);
        return Value(t);
    });
    te.fn("reduce_axis", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "te.reduce_axis", c, {{"dom", true}, {"name"}});
        const Value& d = a.value(0);
        tir::Range range;
        if (d.is(Value::Kind::Range)) {
            range = d.asRange();
        } else if (d.isSequence() && d.items().size() == 2) {
            auto lo = in.exprOf(d.items()[0]), hi = in.exprOf(d.items()[1]);
            if (!lo || !hi || !lo->type().isIntOrUInt() || !hi->type().isIntOrUInt())
                a.typeError(0, "a pair of ints (lo, hi)");
            range = in.guarded(a.loc(0), [&] { return tir::Range(*lo, *hi - *lo); });
        } else {
            a.typeError(0, "a pair (lo, hi)");
        }
        std::string name = a.has(1) ? a.string(1) : "rv";
        return Value(te::reduceAxis(range, name));
    });
    te.fn("sum", reducer("te.sum", tir::ReduceKind::Sum));
    te.fn("max", reducer("te.max", tir::ReduceKind::Max));
    te.fn("min", reducer("te.min", tir::ReduceKind::Min));
    te.fn("prod", reducer("te.prod", tir::ReduceKind::Prod));
    te.fn("create_schedule", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "te.create_schedule", c, {{"ops", true}});
        std::vector<Operation> ops;
        const Value& v = a.value(0);
        auto addOp = [&](const Value& x) {
            if (x.is(Value::Kind::Operation))
                ops.push_back(x.asOperation());
            else if (x.is(Value::Kind::Tensor))
                ops.push_back(x.asTensor()->op);
            else
                a.typeError(0, "an operation (such as C.op) or a list of operations");
        };
        if (v.isSequence())
            for (auto& x : v.items())
                addOp(x);
        else
            addOp(v);
        Schedule s = createSchedule(ops);
        in.schedules.push_back(s);
        return Value(s);
    });
    auto constFn = [](const char* fname) {
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
    };
    te.fn("const", constFn("te.const"));
    auto varFn = [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "te.var", c, {{"name"}, {"dtype"}});
        std::string name = a.has(0) ? a.string(0) : "tindex";
        DataType dt = a.has(1) ? a.dtype(1) : DataType::int32();
        return Value(Expr(tir::Var(name, dt)));
    };
    te.fn("var", varFn);
    te.fn("size_var", varFn);

    // Math shared by te and tir.
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
        {"power", tir::Intrinsic::Pow, 2},
    };
    ModuleBuilder tir("tir");
    auto addMath = [&](ModuleBuilder& m, const std::string& prefix) {
        for (auto& i : kIntrinsics)
            m.fn(i.name, intrinsic(prefix + "." + i.name, i.op, i.arity));
        auto ite = [prefix](Interpreter& in, const Value&, const CallArgs& c) -> Value {
            BoundArgs a(in, prefix + ".if_then_else", c,
                        {{"cond", true}, {"t", true}, {"f", true}});
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
        auto allAny = [prefix](bool isAll) {
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
        };
        m.fn("all", allAny(true));
        m.fn("any", allAny(false));
        auto limit = [prefix](bool isMax) {
            return [prefix, isMax](Interpreter& in, const Value&, const CallArgs& c) -> Value {
                BoundArgs a(in, prefix + (isMax ? ".max_value" : ".min_value"), c,
                            {{"dtype", true}});
                return Value(limitValue(a.dtype(0), isMax));
            };
        };
        m.fn("max_value", limit(true));
        m.fn("min_value", limit(false));
    };
    addMath(te, "te");
    addMath(tir, "tir");
    tir.fn("const", constFn("tir.const"));
    tir.add("Select", tir.value().asModule().find("select") ? *tir.value().asModule().find("select")
                                                            : Value());
    tir.fn("Var", varFn);
    tir.fn("max", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "tir.max", c, {{"a", true}, {"b", true}});
        return Value(tir::max(a.expr(0), a.expr(1)));
    });
    tir.fn("min", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "tir.min", c, {{"a", true}, {"b", true}});
        return Value(tir::min(a.expr(0), a.expr(1)));
    });
    Value teValue = te.value();
    Value tirValue = tir.value();

    // --------------------------------------------------------- tvm, tessel
    ModuleBuilder target("target");
    target.fn("Target", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "tvm.target.Target", c, {{"target", true}, {"host"}});
        return Value::string(a.string(0));
    });
    ModuleBuilder tvm("tvm");
    tvm.add("te", teValue);
    tvm.add("tir", tirValue);
    tvm.add("target", target.value());
    tvm.fn("lower", buildFunction("tvm.lower", BuildRequest::Kind::Lower));
    tvm.fn("build", buildFunction("tvm.build", BuildRequest::Kind::Build));
    tvm.fn("const", constFn("tvm.const"));
    ModuleBuilder tessel("tessel");
    tessel.add("te", teValue);
    tessel.add("tir", tirValue);
    tessel.fn("lower", buildFunction("tessel.lower", BuildRequest::Kind::Lower));
    tessel.fn("build", buildFunction("tessel.build", BuildRequest::Kind::Build));

    rootModules["tvm"] = tvm.value();
    rootModules["tessel"] = tessel.value();
    builtins["te"] = teValue;
    builtins["tvm"] = tvm.value();
    builtins["tessel"] = tessel.value();

    // ------------------------------------------------------------ builtins
    auto builtin = [&](const std::string& name, NativeFunction f) {
        builtins[name] = makeFunction(name, std::move(f));
    };
    builtin("len", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "len", c, {{"obj", true}});
        const Value& v = a.value(0);
        if (v.isSequence()) return Value::integer(int64_t(v.items().size()));
        if (v.is(Value::Kind::String)) return Value::integer(int64_t(v.asString().size()));
        in.fail(a.loc(0), "object of type '" + typeName(v) + "' has no len()");
    });
    builtin("range", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "range", c, {{"start", true}, {"stop"}, {"step"}});
        int64_t start = 0, stop = a.integer(0), step = 1;
        if (a.has(1)) {
            start = stop;
            stop = a.integer(1);
        }
        if (a.has(2)) step = a.integer(2);
        if (step == 0) in.fail(a.loc(2), "range() arg 3 must not be zero");
        Value::Items v;
        for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
            if (int64_t(v.size()) >= kMaxRange)
                in.fail(c.loc, "range() of more than " + std::to_string(kMaxRange) +
                                   " elements is not supported");
            v.push_back(Value::integer(i));
            if (__builtin_add_overflow(i, step, &i)) break;
            i -= step;
        }
        return Value::list(std::move(v));
    });
    auto minMax = [](bool isMax) {
        return [isMax](Interpreter& in, const Value&, const CallArgs& c) -> Value {
            const char* fname = isMax ? "max" : "min";
            noKeywords(in, fname, c);
            auto args = spread(c.positional);
            if (args.empty()) in.fail(c.loc, std::string(fname) + "() arg is an empty sequence");
            Value best = args[0].get();
            for (size_t i = 1; i < args.size(); ++i) {
                const Value& v = args[i].get();
                if (Interpreter::isExprLike(best) || Interpreter::isExprLike(v)) {
                    auto x = in.exprOf(best), y = in.exprOf(v);
                    if (!x || !y)
                        in.fail(args[i].loc, std::string(fname) + "(): cannot compare " +
                                                 typeName(best) + " and " + typeName(v));
                    best = Value(isMax ? tir::max(*x, *y) : tir::min(*x, *y));
                    continue;
                }
                Value cmp = in.compare(isMax ? CompareOp::Gt : CompareOp::Lt, v, best, args[i].loc);
                if (cmp.asBool()) best = v;
            }
            return best;
        };
    };
    builtin("min", minMax(false));
    builtin("max", minMax(true));
    builtin("int", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "int", c, {{"x"}});
        if (!a.has(0)) return Value::integer(0);
        const Value& v = a.value(0);
        if (v.isInt()) return Value::integer(v.asInt());
        if (v.is(Value::Kind::Float)) {
            double d = v.asFloat();
            if (!std::isfinite(d) || std::fabs(d) >= 9.2e18)
                in.fail(a.loc(0), "int(): cannot convert " + formatFloat(d) + " to an int");
            return Value::integer(int64_t(d));
        }
        if (v.is(Value::Kind::String)) {
            std::string s = v.asString();
            s.erase(0, s.find_first_not_of(" \t\n"));
            s.erase(s.find_last_not_of(" \t\n") + 1);
            char* end = nullptr;
            errno = 0;
            long long r = std::strtoll(s.c_str(), &end, 10);
            if (s.empty() || *end || errno)
                in.fail(a.loc(0), "invalid literal for int(): " + repr(v));
            return Value::integer(r);
        }
        if (v.is(Value::Kind::Expr))
            if (auto k = tir::asConstInt(v.asExpr())) return Value::integer(*k);
        a.typeError(0, "a number, a string or a constant");
    });
    builtin("float", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "float", c, {{"x"}});
        if (!a.has(0)) return Value::real(0);
        const Value& v = a.value(0);
        if (v.isNumber()) return Value::real(v.asFloat());
        if (v.is(Value::Kind::String)) {
            char* end = nullptr;
            double d = std::strtod(v.asString().c_str(), &end);
            if (v.asString().empty() || *end)
                in.fail(a.loc(0), "could not convert string to float: " + repr(v));
            return Value::real(d);
        }
        if (v.is(Value::Kind::Expr)) {
            if (auto k = tir::asConstFloat(v.asExpr())) return Value::real(*k);
            if (auto k = tir::asConstInt(v.asExpr())) return Value::real(double(*k));
        }
        a.typeError(0, "a number, a string or a constant");
    });
    builtin("str", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "str", c, {{"object"}});
        return Value::string(a.has(0) ? str(a.value(0)) : "");
    });
    builtin("repr", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "repr", c, {{"object", true}});
        return Value::string(repr(a.value(0)));
    });
    builtin("bool", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "bool", c, {{"x"}});
        return Value::boolean(a.has(0) && in.truthy(a.value(0), a.loc(0)));
    });
    builtin("abs", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "abs", c, {{"x", true}});
        const Value& v = a.value(0);
        if (v.isInt()) {
            if (v.asInt() == std::numeric_limits<int64_t>::min())
                in.fail(c.loc, "integer overflow");
            return Value::integer(std::llabs(v.asInt()));
        }
        if (v.is(Value::Kind::Float)) return Value::real(std::fabs(v.asFloat()));
        return Value(tir::call(tir::Intrinsic::Abs, {a.expr(0)}));
    });
    auto seqBuiltin = [](bool asList) {
        return [asList](Interpreter& in, const Value&, const CallArgs& c) -> Value {
            BoundArgs a(in, asList ? "list" : "tuple", c, {{"iterable"}});
            if (!a.has(0)) return items({}, asList);
            const Value& v = a.value(0);
            if (v.isSequence()) return items(v.items(), asList);
            if (v.is(Value::Kind::String)) {
                Value::Items chars;
                for (char ch : v.asString())
                    chars.push_back(Value::string(std::string(1, ch)));
                return items(std::move(chars), asList);
            }
            a.typeError(0, "a tuple, a list or a string");
        };
    };
    builtin("tuple", seqBuiltin(false));
    builtin("list", seqBuiltin(true));
    builtin("print", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        std::string sep = " ", end = "\n";
        for (auto& [k, v] : c.keywords) {
            if (k != "sep" && k != "end" && k != "flush")
                in.fail(v.loc, "print() got an unexpected keyword argument '" + k + "'" +
                                   didYouMean(k, {"sep", "end"}));
            if (k == "flush") continue;
            if (!v.get().is(Value::Kind::String) && !v.get().isNone())
                in.fail(v.loc, "print(): '" + k + "' must be a string, not " + typeName(v.get()));
            if (v.get().is(Value::Kind::String)) (k == "sep" ? sep : end) = v.get().asString();
        }
        std::string text;
        for (size_t i = 0; i < c.positional.size(); ++i)
            text += (i ? sep : "") + str(c.positional[i].get());
        in.pendingOutput += text + end;
        size_t nl;
        while ((nl = in.pendingOutput.find('\n')) != std::string::npos) {
            if (in.printed.size() < 100000) in.printed.push_back(in.pendingOutput.substr(0, nl));
            in.pendingOutput.erase(0, nl + 1);
        }
        return none();
    });

    // ------------------------------------------------------ object types
    using K = Value::Kind;
    TypeInfo tensor{"Tensor", {}, {}};
    tensor.attrs = {
        {"op", [](Interpreter&, const Value& s, SourceLoc) { return Value(s.asTensor()->op); }},
        {"shape",
         [](Interpreter&, const Value& s, SourceLoc) {
             Value::Items dims;
             for (auto& d : s.asTensor()->shape)
                 dims.push_back(intOrExpr(d));
             return Value::tuple(std::move(dims));
         }},
        {"dtype", [](Interpreter&, const Value& s,
                     SourceLoc) { return Value::string(s.asTensor()->dtype.str()); }},
        {"name", [](Interpreter&, const Value& s,
                    SourceLoc) { return Value::string(s.asTensor().name()); }},
        {"ndim", [](Interpreter&, const Value& s,
                    SourceLoc) { return Value::integer(s.asTensor().ndim()); }},
        {"value_index", [](Interpreter&, const Value& s,
                           SourceLoc) { return Value::integer(s.asTensor()->valueIndex); }},
    };
    types_[int(K::Tensor)] = tensor;

    auto computeOf = [](Interpreter& in, const Value& s, SourceLoc loc,
                        const char* attr) -> const ComputeOpNode* {
        auto* c = dynamic_cast<const ComputeOpNode*>(s.asOperation().get());
        if (!c)
            in.fail(loc, "operation '" + s.asOperation()->name + "' is a placeholder and has no '" +
                             attr + "'; only computes have loops");
        return c;
    };
    TypeInfo operation{"Operation", {}, {}};
    operation.attrs = {
        {"name", [](Interpreter&, const Value& s,
                    SourceLoc) { return Value::string(s.asOperation()->name); }},
        {"tag", [](Interpreter&, const Value& s,
                   SourceLoc) { return Value::string(s.asOperation()->tag); }},
        {"axis",
         [computeOf](Interpreter& in, const Value& s, SourceLoc loc) {
             return iterVarList(computeOf(in, s, loc, "axis")->axis);
         }},
        {"reduce_axis",
         [computeOf](Interpreter& in, const Value& s, SourceLoc loc) {
             return iterVarList(computeOf(in, s, loc, "reduce_axis")->reduceAxis);
         }},
        {"body",
         [computeOf](Interpreter& in, const Value& s, SourceLoc loc) {
             Value::Items v;
             for (auto& b : computeOf(in, s, loc, "body")->body)
                 v.push_back(Value(b));
             return Value::list(std::move(v));
         }},
        {"input_tensors",
         [](Interpreter&, const Value& s, SourceLoc) {
             Value::Items v;
             for (auto& t : s.asOperation()->inputTensors())
                 v.push_back(Value(t));
             return Value::list(std::move(v));
         }},
        {"num_outputs", [](Interpreter&, const Value& s,
                           SourceLoc) { return Value::integer(s.asOperation()->numOutputs()); }},
        {"shape",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             auto* p = dynamic_cast<const PlaceholderOpNode*>(s.asOperation().get());
             if (!p)
                 in.fail(loc, "only placeholder operations have a 'shape'; use the tensor's shape "
                              "(C.shape)");
             Value::Items dims;
             for (auto& d : p->shape)
                 dims.push_back(intOrExpr(d));
             return Value::tuple(std::move(dims));
         }},
        {"dtype", [](Interpreter&, const Value& s,
                     SourceLoc) { return Value::string(s.asOperation()->outputType(0).str()); }},
    };
    operation.methods = {
        {"output",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "output", c, {{"index", true}});
             int64_t i = a.integer(0);
             const Operation& op = self.asOperation();
             if (i < 0 || i >= op->numOutputs())
                 in.fail(a.loc(0), "output(): operation '" + op->name + "' has " +
                                       std::to_string(op->numOutputs()) + " output" +
                                       (op->numOutputs() == 1 ? "" : "s") + "; index " +
                                       std::to_string(i) + " is out of range");
             return Value(op.output(int(i)));
         }},
    };
    types_[int(K::Operation)] = operation;

    TypeInfo iterVar{"IterVar", {}, {}};
    iterVar.attrs = {
        {"var",
         [](Interpreter&, const Value& s, SourceLoc) { return Value(Expr(s.asIterVar()->var)); }},
        {"dom",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             const auto& iv = s.asIterVar();
             if (!iv->dom.extent.defined())
                 in.fail(loc, "loop '" + iv->var.name() +
                                  "' was made by a schedule primitive and has no fixed domain");
             return Value(iv->dom);
         }},
    };
    types_[int(K::IterVar)] = iterVar;

    TypeInfo range{"Range", {}, {}};
    range.attrs = {
        {"min", [](Interpreter&, const Value& s, SourceLoc) { return intOrExpr(s.asRange().min); }},
        {"extent",
         [](Interpreter&, const Value& s, SourceLoc) { return intOrExpr(s.asRange().extent); }},
    };
    types_[int(K::Range)] = range;

    TypeInfo expr{"Expr", {}, {}};
    expr.attrs = {
        {"dtype", [](Interpreter&, const Value& s,
                     SourceLoc) { return Value::string(s.asExpr().type().str()); }},
        {"name",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             auto* v = s.asExpr().as<tir::VarNode>();
             if (!v) in.fail(loc, "only variables have a 'name'");
             return Value::string(v->name);
         }},
        {"value",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             if (auto* i = s.asExpr().as<tir::IntImmNode>()) return Value::integer(i->value);
             if (auto* f = s.asExpr().as<tir::FloatImmNode>()) return Value::real(f->value);
             in.fail(loc, "only constants have a 'value'");
         }},
    };
    expr.methods = {
        {"astype",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "astype", c, {{"dtype", true}});
             return Value(tir::cast(a.dtype(0), self.asExpr()));
         }},
    };
    types_[int(K::Expr)] = expr;

    TypeInfo stage{"Stage", {}, {}};
    stage.attrs = {
        {"op", [](Interpreter&, const Value& s, SourceLoc) { return Value(s.asStage().op()); }},
        {"origin_op",
         [](Interpreter&, const Value& s, SourceLoc) { return Value(s.asStage().op()); }},
        {"leaf_iter_vars", [](Interpreter&, const Value& s,
                              SourceLoc) { return iterVarList(s.asStage().data().leafIterVars); }},
        {"all_iter_vars", [](Interpreter&, const Value& s,
                             SourceLoc) { return iterVarList(s.asStage().data().allIterVars); }},
        {"scope", [](Interpreter&, const Value& s,
                     SourceLoc) { return Value::string(s.asStage().data().scope); }},
    };
    stage.methods = {
        {"split",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "split", c, {{"parent", true}, {"factor"}, {"nparts"}});
             IterVar parent = a.iterVar(0);
             if (a.has(1) == a.has(2))
                 in.fail(c.loc, "split() needs exactly one of 'factor' and 'nparts'");
             Stage st = self.asStage();
             std::pair<IterVar, IterVar> r;
             if (a.has(1)) {
                 Expr f = a.expr(1);
                 r = in.guarded(c.loc, [&] { return st.split(parent, f); });
             } else {
                 Expr n = a.expr(2);
                 r = in.guarded(c.loc, [&] { return st.splitByNParts(parent, n); });
             }
             return Value::tuple({Value(r.first), Value(r.second)});
         }},
        {"tile",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(
                 in, "tile", c,
                 {{"x_parent", true}, {"y_parent", true}, {"x_factor", true}, {"y_factor", true}});
             IterVar x = a.iterVar(0), y = a.iterVar(1);
             Expr fx = a.expr(2), fy = a.expr(3);
             Stage st = self.asStage();
             auto [xo, yo, xi, yi] = st.tile(x, y, fx, fy);
             return Value::tuple({Value(xo), Value(yo), Value(xi), Value(yi)});
         }},
        {"fuse",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             noKeywords(in, "fuse", c);
             auto ivs = iterVarArgs(in, "fuse", c);
             if (ivs.empty()) in.fail(c.loc, "fuse() needs the loops to fuse");
             Stage st = self.asStage();
             IterVar fused = ivs[0];
             for (size_t i = 1; i < ivs.size(); ++i)
                 fused = st.fuse(fused, ivs[i]);
             return Value(fused);
         }},
        {"reorder",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             noKeywords(in, "reorder", c);
             auto ivs = iterVarArgs(in, "reorder", c);
             Stage st = self.asStage();
             st.reorder(ivs);
             return none();
         }},
        {"vectorize",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "vectorize", c, {{"var", true}});
             Stage st = self.asStage();
             st.vectorize(a.iterVar(0));
             return none();
         }},
        {"unroll",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "unroll", c, {{"var", true}});
             Stage st = self.asStage();
             st.unroll(a.iterVar(0));
             return none();
         }},
        {"parallel",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "parallel", c, {{"var", true}});
             Stage st = self.asStage();
             st.parallel(a.iterVar(0));
             return none();
         }},
        {"pragma",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "pragma", c,
                         {{"var", true}, {"pragma_type", true}, {"pragma_value", false, "value"}});
             IterVar iv = a.iterVar(0);
             std::string key = a.string(1);
             Expr value = a.has(2) ? a.expr(2) : Expr(1);
             Stage st = self.asStage();
             st.pragma(iv, key, value);
             return none();
         }},
        {"compute_at",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "compute_at", c, {{"parent", true}, {"scope", true}});
             Stage parent = a.stage(0);
             IterVar scope = a.iterVar(1);
             Stage st = self.asStage();
             st.computeAt(parent, scope);
             return none();
         }},
        {"compute_inline",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "compute_inline", c, {});
             Stage st = self.asStage();
             st.computeInline();
             return none();
         }},
        {"compute_root",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "compute_root", c, {});
             Stage st = self.asStage();
             st.computeRoot();
             return none();
         }},
    };
    types_[int(K::Stage)] = stage;

    TypeInfo schedule{"Schedule", {}, {}};
    schedule.attrs = {
        {"stages",
         [](Interpreter&, const Value& s, SourceLoc) {
             Value::Items v;
             for (auto& st : s.asSchedule().stages())
                 v.push_back(Value(st));
             return Value::list(std::move(v));
         }},
        {"outputs",
         [](Interpreter&, const Value& s, SourceLoc) {
             Value::Items v;
             for (auto& op : s.asSchedule().outputs())
                 v.push_back(Value(op));
             return Value::list(std::move(v));
         }},
    };
    schedule.methods = {
        {"cache_read",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "cache_read", c,
                         {{"tensor", true}, {"scope", true}, {"readers", true}});
             Tensor t = a.tensor(0);
             std::string scope = a.string(1);
             std::vector<Operation> readers;
             const Value& r = a.value(2);
             auto addReader = [&](const Value& x) {
                 if (x.is(Value::Kind::Operation))
                     readers.push_back(x.asOperation());
                 else if (x.is(Value::Kind::Tensor))
                     readers.push_back(x.asTensor()->op);
                 else
                     a.typeError(2, "a list of the operations (or tensors) that read the cache");
             };
             if (r.isSequence())
                 for (auto& x : r.items())
                     addReader(x);
             else
                 addReader(r);
             Schedule s = self.asSchedule();
             return Value(s.cacheRead(t, scope, readers));
         }},
        {"cache_write",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "cache_write", c, {{"tensor", true}, {"scope", true}});
             Tensor t = a.tensor(0);
             std::string scope = a.string(1);
             Schedule s = self.asSchedule();
             return Value(s.cacheWrite(t, scope));
         }},
    };
    types_[int(K::Schedule)] = schedule;
}

const TypeInfo* Interpreter::typeInfo(Value::Kind k) const {
    auto it = types_.find(int(k));
    return it == types_.end() ? nullptr : &it->second;
}

} // namespace tessel::te::script
