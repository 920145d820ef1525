// te.create_schedule and the primitives of Schedule and Stage values.

#include "te/script/builtins/Builtins.h"
#include "te/script/builtins/Helpers.h"
#include "tir/IROperators.h"

namespace tessel::te::script {

using tir::Expr;
using tir::IterVar;

namespace {

using Rec = std::shared_ptr<ScriptRecorder>;

NativeFunction createSchedule(Rec rec) {
    return [rec](Interpreter& in, const Value&, const CallArgs& c) -> Value {
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
        Schedule s = te::createSchedule(ops);
        rec->schedules.push_back(s);
        return Value(s);
    };
}

/// A primitive on one loop (vectorize, unroll, parallel).
NativeFunction loopPrimitive(Rec rec, const char* name, void (Stage::*primitive)(IterVar)) {
    return [rec, name, primitive](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
        BoundArgs a(in, name, c, {{"var", true}});
        Stage st = self.asStage();
        IterVar iv = a.iterVar(0);
        (st.*primitive)(iv);
        rec->noteLoop(iv, c.loc);
        return none();
    };
}

Value split(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "split", c, {{"parent", true}, {"factor"}, {"nparts"}});
    IterVar parent = a.iterVar(0);
    if (a.has(1) == a.has(2)) in.fail(c.loc, "split() needs exactly one of 'factor' and 'nparts'");
    Stage st = self.asStage();
    std::pair<IterVar, IterVar> r;
    if (a.has(1)) {
        Expr f = a.expr(1);
        r = in.guarded(c.loc, [&] { return st.split(parent, f); });
    } else {
        Expr n = a.expr(2);
        r = in.guarded(c.loc, [&] { return st.splitByNParts(parent, n); });
    }
    rec.noteLoops({parent, r.first, r.second}, c.loc);
    return Value::tuple({Value(r.first), Value(r.second)});
}

Value tile(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "tile", c,
                {{"x_parent", true}, {"y_parent", true}, {"x_factor", true}, {"y_factor", true}});
    IterVar x = a.iterVar(0), y = a.iterVar(1);
    Expr fx = a.expr(2), fy = a.expr(3);
    Stage st = self.asStage();
    auto [xo, yo, xi, yi] = st.tile(x, y, fx, fy);
    rec.noteLoops({x, y, xo, yo, xi, yi}, c.loc);
    return Value::tuple({Value(xo), Value(yo), Value(xi), Value(yi)});
}

Value fuse(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    noKeywords(in, "fuse", c);
    auto ivs = iterVarArgs(in, "fuse", c);
    if (ivs.empty()) in.fail(c.loc, "fuse() needs the loops to fuse");
    Stage st = self.asStage();
    IterVar fused = ivs[0];
    for (size_t i = 1; i < ivs.size(); ++i)
        fused = st.fuse(fused, ivs[i]);
    rec.noteLoops(ivs, c.loc);
    rec.noteLoop(fused, c.loc);
    return Value(fused);
}

Value reorder(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    noKeywords(in, "reorder", c);
    auto ivs = iterVarArgs(in, "reorder", c);
    Stage st = self.asStage();
    st.reorder(ivs);
    rec.noteLoops(ivs, c.loc);
    return none();
}

Value pragma(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "pragma", c,
                {{"var", true}, {"pragma_type", true}, {"pragma_value", false, "value"}});
    IterVar iv = a.iterVar(0);
    std::string key = a.string(1);
    Expr value = a.has(2) ? a.expr(2) : Expr(1);
    Stage st = self.asStage();
    st.pragma(iv, key, value);
    rec.noteLoop(iv, c.loc);
    return none();
}

Value bind(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "bind", c, {{"ivar", true}, {"thread_ivar", true}});
    IterVar iv = a.iterVar(0), thread = a.iterVar(1);
    Stage st = self.asStage();
    in.guarded(c.loc, [&] { st.bind(iv, thread); });
    rec.noteLoop(iv, c.loc);
    return none();
}

/// te.thread_axis("threadIdx.x"), te.thread_axis((0, 32), "threadIdx.x"),
/// te.thread_axis(tag="blockIdx.y"): TVM's forms.
NativeFunction threadAxis() {
    return [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "te.thread_axis", c, {{"dom"}, {"tag"}, {"name"}});
        std::string tag;
        tir::Range dom;
        if (a.has(0) && a.value(0).is(Value::Kind::String)) {
            if (a.has(1)) in.fail(c.loc, "te.thread_axis: give the tag once (te.thread_axis(\"threadIdx.x\"))");
            tag = a.string(0);
        } else {
            if (!a.has(1)) in.fail(c.loc, "te.thread_axis needs a tag: \"blockIdx.x\" ... \"threadIdx.z\" or \"vthread\"");
            tag = a.string(1);
            if (a.has(0)) {
                const Value& d = a.value(0);
                if (d.is(Value::Kind::Range)) {
                    dom = d.asRange();
                } else if (d.isSequence() && d.items().size() == 2) {
                    auto lo = in.exprOf(d.items()[0]), hi = in.exprOf(d.items()[1]);
                    if (!lo || !hi) a.typeError(0, "a pair of ints (lo, hi)");
                    dom = tir::Range(*lo, *hi - *lo);
                } else if (auto n = in.exprOf(d)) {
                    dom = tir::Range(Expr(0), *n);
                } else {
                    a.typeError(0, "an extent or a pair (lo, hi)");
                }
            }
        }
        return Value(in.guarded(c.loc, [&] { return te::threadAxis(tag, dom); }));
    };
}

Value doubleBuffer(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "double_buffer", c, {});
    Stage st = self.asStage();
    in.guarded(c.loc, [&] { st.doubleBuffer(); });
    rec.noteOperation(st.op(), c.loc);
    return none();
}

/// s[C].launch_bounds(2), s[C].launch_bounds(min_blocks=2): CUDA's minimum
/// of resident blocks per SM (its maximum of threads is the block's own).
Value launchBounds(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "launch_bounds", c, {{"min_blocks", true}});
    Stage st = self.asStage();
    int64_t n = a.integer(0);
    in.guarded(c.loc, [&] { st.launchBounds(n); });
    rec.noteOperation(st.op(), c.loc);
    return none();
}

/// s[AS].storage_align(AS.op.axis[0], 32, 1): pads the stride of an axis
/// of the stage's buffer to k * factor + offset elements.
Value storageAlign(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "storage_align", c, {{"axis", true}, {"factor", true}, {"offset", true}});
    Stage st = self.asStage();
    IterVar axis = a.iterVar(0);
    int64_t factor = a.integer(1), offset = a.integer(2);
    in.guarded(c.loc, [&] { st.storageAlign(axis, factor, offset); });
    rec.noteOperation(st.op(), c.loc);
    return none();
}

Value computeAt(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "compute_at", c, {{"parent", true}, {"scope", true}});
    Stage parent = a.stage(0);
    IterVar scope = a.iterVar(1);
    Stage st = self.asStage();
    st.computeAt(parent, scope);
    // The line is about the loop the stage moves into.
    rec.noteLoop(scope, c.loc);
    return none();
}

Value computeInline(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "compute_inline", c, {});
    Stage st = self.asStage();
    st.computeInline();
    rec.noteOperation(st.op(), c.loc);
    return none();
}

Value computeRoot(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "compute_root", c, {});
    Stage st = self.asStage();
    st.computeRoot();
    rec.noteOperation(st.op(), c.loc);
    return none();
}

/// A method that records into `rec`.
NativeFunction method(Rec rec, Value (*fn)(ScriptRecorder&, Interpreter&, const Value&,
                                           const CallArgs&)) {
    return [rec, fn](Interpreter& in, const Value& self, const CallArgs& c) {
        return fn(*rec, in, self, c);
    };
}

void installStage(BuiltinTable& t) {
    Rec rec = t.recorder();
    TypeInfo& stage = t.type(Value::Kind::Stage, "Stage");
    stage.attrs = {
        {"op", [](Interpreter&, const Value& s, SourceLoc) { return Value(s.asStage().op()); }},
        {"origin_op",
         [](Interpreter&, const Value& s, SourceLoc) { return Value(s.asStage().op()); }},
        {"leaf_iter_vars",
         [rec](Interpreter&, const Value& s, SourceLoc loc) {
             rec->noteLoops(s.asStage().data().leafIterVars, loc);
             return iterVarList(s.asStage().data().leafIterVars);
         }},
        {"all_iter_vars",
         [rec](Interpreter&, const Value& s, SourceLoc loc) {
             rec->noteLoops(s.asStage().data().allIterVars, loc);
             return iterVarList(s.asStage().data().allIterVars);
         }},
        {"scope", [](Interpreter&, const Value& s,
                     SourceLoc) { return Value::string(s.asStage().data().scope); }},
    };
    stage.methods = {
        {"split", method(rec, split)},
        {"tile", method(rec, tile)},
        {"fuse", method(rec, fuse)},
        {"reorder", method(rec, reorder)},
        {"vectorize", loopPrimitive(rec, "vectorize", &Stage::vectorize)},
        {"unroll", loopPrimitive(rec, "unroll", &Stage::unroll)},
        {"parallel", loopPrimitive(rec, "parallel", &Stage::parallel)},
        {"pragma", method(rec, pragma)},
        {"bind", method(rec, bind)},
        {"double_buffer", method(rec, doubleBuffer)},
        {"launch_bounds", method(rec, launchBounds)},
        {"storage_align", method(rec, storageAlign)},
        {"compute_at", method(rec, computeAt)},
        {"compute_inline", method(rec, computeInline)},
        {"compute_root", method(rec, computeRoot)},
    };
}

Value cacheRead(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "cache_read", c, {{"tensor", true}, {"scope", true}, {"readers", true}});
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
    Tensor cache = s.cacheRead(t, scope, readers);
    rec.noteOperation(cache->op, c.loc);
    if (auto* op = dynamic_cast<const ComputeOpNode*>(cache->op.get()))
        rec.noteLoops(op->axis, c.loc);
    return Value(cache);
}

Value cacheWrite(ScriptRecorder& rec, Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "cache_write", c, {{"tensor", true}, {"scope", true}});
    Tensor t = a.tensor(0);
    std::string scope = a.string(1);
    Schedule s = self.asSchedule();
    Tensor cache = s.cacheWrite(t, scope);
    rec.noteOperation(cache->op, c.loc);
    if (auto* op = dynamic_cast<const ComputeOpNode*>(cache->op.get()))
        rec.noteLoops(op->axis, c.loc);
    return Value(cache);
}

void installScheduleType(BuiltinTable& t) {
    Rec rec = t.recorder();
    TypeInfo& schedule = t.type(Value::Kind::Schedule, "Schedule");
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
        {"cache_read", method(rec, cacheRead)},
        {"cache_write", method(rec, cacheWrite)},
    };
}

} // namespace

void installSchedule(BuiltinTable& t) {
    t.module("te").fn("create_schedule", createSchedule(t.recorder()));
    t.module("te").fn("thread_axis", threadAxis());
    installStage(t);
    installScheduleType(t);
}

} // namespace tessel::te::script
