// The `te` module's tensor expressions: placeholder, compute, reduce_axis,
// the reducers, const and var.

#include "te/script/builtins/Builtins.h"
#include "te/script/builtins/Helpers.h"

#include "tir/IROperators.h"

namespace tessel::te::script {

using tir::Expr;
using tir::IterVar;

namespace {

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

NativeFunction placeholder(std::shared_ptr<ScriptRecorder> rec) {
    return [rec](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "te.placeholder", c, {{"shape", true}, {"dtype"}, {"name"}});
        auto shape = toShape(in, a, 0);
        DataType dt = a.has(1) ? a.dtype(1) : DataType::float32();
        std::string name = a.has(2) ? a.string(2) : "placeholder";
        Tensor t = in.guarded(c.loc, [&] { return te::placeholder(shape, dt, name); });
        rec->placeholders.push_back(t);
        rec->noteOperation(t->op, c.loc);
        return Value(t);
    };
}

NativeFunction compute(std::shared_ptr<ScriptRecorder> rec) {
    return [rec](Interpreter& in, const Value&, const CallArgs& c) -> Value {
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
        rec->computes.push_back(t);
        // The compute defines its stage and names its loops (the reduction's too).
        rec->noteOperation(t->op, c.loc);
        if (auto* op = dynamic_cast<const ComputeOpNode*>(t->op.get())) {
            rec->noteLoops(op->axis, c.loc);
            rec->noteLoops(op->reduceAxis, c.loc);
        }
        return Value(t);
    };
}

NativeFunction reduceAxis(std::shared_ptr<ScriptRecorder> rec) {
    return [rec](Interpreter& in, const Value&, const CallArgs& c) -> Value {
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
        IterVar iv = te::reduceAxis(range, name);
        rec->noteLoop(iv, c.loc);
        return Value(iv);
    };
}

} // namespace

void installTensorExpr(BuiltinTable& t) {
    ModuleBuilder& te = t.module("te");
    te.fn("placeholder", placeholder(t.recorder()));
    te.fn("compute", compute(t.recorder()));
    te.fn("reduce_axis", reduceAxis(t.recorder()));
    te.fn("sum", reducer("te.sum", tir::ReduceKind::Sum));
    te.fn("max", reducer("te.max", tir::ReduceKind::Max));
    te.fn("min", reducer("te.min", tir::ReduceKind::Min));
    te.fn("prod", reducer("te.prod", tir::ReduceKind::Prod));
    te.fn("const", constFunction("te.const"));
    te.fn("var", varFunction("te.var"));
    te.fn("size_var", varFunction("te.var"));
}

} // namespace tessel::te::script
