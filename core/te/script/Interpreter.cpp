#include "te/script/Interpreter.h"

#include "te/Suggest.h"
#include "te/script/Recorder.h"
#include "te/script/builtins/Builtins.h"
#include "tir/IROperators.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessel::te::script {

using tir::Expr;

namespace {

constexpr int kMaxEvalDepth = 1000;
/// The most elements a script may build into one sequence.
constexpr int64_t kMaxSequence = 1'000'000;

struct DepthCounter {
    int& d;
    explicit DepthCounter(int& depth) : d(depth) { ++d; }
    ~DepthCounter() { --d; }
};

int64_t floorDivInt(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

} // namespace

// ---------------------------------------------------------------------------
// Public entry points

const Value* ScriptResult::global(std::string_view name) const {
    for (auto& [n, v] : globals)
        if (n == name) return &v;
    return nullptr;
}

std::string defaultFunctionName(const std::string& fileName) {
    std::string stem = fileName;
    if (auto slash = stem.find_last_of("/\\"); slash != std::string::npos)
        stem = stem.substr(slash + 1);
    if (auto dot = stem.find('.'); dot != std::string::npos) stem = stem.substr(0, dot);
    return stem.empty() ? "main" : stem;
}

std::string formatDiagnostic(const Diagnostic& d, const std::string& fileName) {
    return fileName.empty() ? d.str() : fileName + ":" + d.str();
}

ScriptResult runScript(std::string_view source, const ScriptOptions& opts) {
    ParseResult p = parseScript(source);
    if (!p.ok()) throw CompileError(p.diagnostics.front());
    return runScript(p.module, opts);
}

ScriptResult runScript(std::shared_ptr<const AstModule> module, const ScriptOptions& opts) {
    Interpreter in(opts);
    return in.run(std::move(module));
}

// ---------------------------------------------------------------------------
// Interpreter

Interpreter::Interpreter(const ScriptOptions& o)
    : opts(o), recorder_(std::make_shared<ScriptRecorder>(o)) {
    BuiltinTable table(recorder_);
    for (BuiltinInstaller install : builtinInstallers())
        install(table);
    for (const ModuleInstaller& install : opts.modules)
        if (install) install(table);
    builtins_ = table.globals();
    rootModules_ = table.importable();
    types_ = table.takeTypes();
}

const TypeInfo* Interpreter::typeInfo(Value::Kind k) const {
    auto it = types_.find(int(k));
    return it == types_.end() ? nullptr : &it->second;
}

Value Interpreter::makeFunction(std::string name, NativeFunction fn,
                                std::shared_ptr<const Value> self) {
    auto f = std::make_shared<FunctionObject>();
    f->name = std::move(name);
    f->native = std::move(fn);
    f->self = std::move(self);
    return Value(std::shared_ptr<const FunctionObject>(std::move(f)));
}

void Interpreter::setGlobal(const std::string& name, Value v) {
    auto it = globals_.find(name);
    if (it == globals_.end()) {
        globals_.emplace(name, std::move(v));
        globalOrder_.push_back(name);
    } else {
        it->second = std::move(v);
    }
}

std::vector<std::string> Interpreter::visibleNames(const Scope* scope) const {
    std::vector<std::string> names;
    for (const Scope* s = scope; s; s = s->parent.get())
        for (auto& [n, v] : s->vars)
            names.push_back(n);
    for (auto& n : globalOrder_)
        names.push_back(n);
    for (auto& [n, v] : builtins_)
        names.push_back(n);
    return names;
}

ScriptResult Interpreter::run(std::shared_ptr<const AstModule> module) {
    std::vector<std::pair<int, int>> statementLines;
    for (auto& stmt : module->body)
        statementLines.emplace_back(stmt->loc.line, std::max(stmt->loc.line, stmt->endLine));
    recorder_->setStatementLines(std::move(statementLines));
    for (auto& [n, v] : opts.intGlobals)
        setGlobal(n, Value::integer(v));
    for (auto& [n, v] : opts.globals)
        setGlobal(n, v);
    try {
        for (auto& stmt : module->body) {
            steps_ = 0; // the step budget is per statement
            guarded(stmt->loc, [&] { exec(*stmt); });
        }
        ScriptRecorder& rec = *recorder_;
        if (rec.builds.empty() && opts.inferBuild) inferBuild();
        rec.config.checkConfigUsed();
        rec.checkWorkloadUsed();
        // Where the script made and changed each stage and loop, for lowering's line table.
        for (auto& s : rec.schedules)
            rec.applySources(s);
        for (auto& b : rec.builds)
            if (std::none_of(rec.schedules.begin(), rec.schedules.end(),
                             [&](const Schedule& s) { return &s.data() == &b.schedule.data(); }))
                rec.applySources(b.schedule);
    } catch (const CompileError&) {
        throw;
    } catch (const std::exception& e) {
        throw CompileError(std::string("internal error: ") + e.what());
    }
    ScriptRecorder& rec = *recorder_;
    rec.flushOutput();

    ScriptResult r;
    r.builds = std::move(rec.builds);
    r.printed = std::move(rec.printed);
    for (auto& n : globalOrder_)
        r.globals.emplace_back(n, globals_.at(n));
    r.placeholders = rec.placeholders;
    r.schedules = rec.schedules;
    r.knobs = rec.config.knobs();
    r.flop = rec.config.flop;
    r.workload = rec.workload;
    r.module = std::move(module);
    return r;
}

void Interpreter::inferBuild() {
    ScriptRecorder& rec = *recorder_;
    Schedule sch;
    if (auto it = globals_.find("s"); it != globals_.end() && it->second.is(Value::Kind::Schedule))
        sch = it->second.asSchedule();
    else if (!rec.schedules.empty())
        sch = rec.schedules.back();
    else if (!rec.computes.empty())
        sch = guarded({}, [&] { return createSchedule({rec.computes.back()->op}); });
    if (!sch.defined()) return;
    BuildRequest b;
    b.kind = BuildRequest::Kind::Build;
    b.schedule = sch;
    b.args = rec.inferArgs(sch);
    b.name = rec.defaultName();
    b.inferred = true;
    rec.builds.push_back(std::move(b));
}

// ---------------------------------------------------------------------------
// Statements

void Interpreter::exec(const AstStmt& s) {
    switch (s.kind) {
    case StmtKind::Pass:
        return;
    case StmtKind::Expr:
        eval(s.value, nullptr);
        return;
    case StmtKind::Assign: {
        Value v = eval(s.value, nullptr);
        for (auto& t : s.targets)
            assign(*t, v);
        return;
    }
    case StmtKind::AugAssign: {
        const AstExpr& t = *s.targets[0];
        Value cur = lookup(t.text, nullptr, t.loc);
        Value rhs = eval(s.value, nullptr);
        setGlobal(t.text, binary(s.augOp, cur, rhs, t.loc));
        return;
    }
    case StmtKind::Import:
        execImport(s);
        return;
    }
}

void Interpreter::execImport(const AstStmt& s) {
    for (auto& imp : s.imports) {
        if (s.fromModule.empty()) {
            // import tvm.te [as x]: check the path; bind the root (or x to the leaf).
            auto it = rootModules_.find(imp.path[0]);
            if (it == rootModules_.end()) fail(imp.loc, "no module named '" + imp.path[0] + "'");
            Value m = it->second;
            std::string path = imp.path[0];
            for (size_t i = 1; i < imp.path.size(); ++i) {
                const Value* next =
                    m.is(Value::Kind::Module) ? m.asModule().find(imp.path[i]) : nullptr;
                if (!next || !next->is(Value::Kind::Module))
                    fail(imp.loc, "no module named '" + path + "." + imp.path[i] + "'");
                m = *next;
                path += "." + imp.path[i];
            }
            if (imp.asName.empty())
                setGlobal(imp.path[0], it->second);
            else
                setGlobal(imp.asName, m);
        } else {
            auto it = rootModules_.find(s.fromModule[0]);
            if (it == rootModules_.end())
                fail(s.loc, "no module named '" + s.fromModule[0] + "'");
            Value m = it->second;
            std::string path = s.fromModule[0];
            for (size_t i = 1; i < s.fromModule.size(); ++i) {
                const Value* next = m.asModule().find(s.fromModule[i]);
                if (!next || !next->is(Value::Kind::Module))
                    fail(s.loc, "no module named '" + path + "." + s.fromModule[i] + "'");
                m = *next;
                path += "." + s.fromModule[i];
            }
            const Value* member = m.asModule().find(imp.path[0]);
            if (!member) {
                std::vector<std::string> names;
                for (auto& [n, v] : m.asModule().members)
                    names.push_back(n);
                fail(imp.loc, "cannot import name '" + imp.path[0] + "' from '" + path + "'" +
                                  didYouMean(imp.path[0], names));
            }
            setGlobal(imp.asName.empty() ? imp.path[0] : imp.asName, *member);
        }
    }
}

void Interpreter::assign(const AstExpr& target, const Value& v) {
    if (target.kind == ExprKind::Name) {
        setGlobal(target.text, v);
        return;
    }
    // Tuple or List of targets (the parser allows nothing else).
    size_t n = target.items.size();
    if (!v.isSequence())
        fail(target.begin, "cannot unpack " + typeName(v) + " into " + std::to_string(n) + " name" +
                               (n == 1 ? "" : "s") + "; expected a tuple or list");
    const auto& items = v.items();
    if (items.size() > n)
        fail(target.begin, "too many values to unpack (expected " + std::to_string(n) + ", got " +
                               std::to_string(items.size()) + ")");
    if (items.size() < n)
        fail(target.begin, "not enough values to unpack (expected " + std::to_string(n) + ", got " +
                               std::to_string(items.size()) + ")");
    for (size_t i = 0; i < n; ++i)
        assign(*target.items[i], items[i]);
}

// ---------------------------------------------------------------------------
// Names

Value Interpreter::lookup(const std::string& name, const Scope* scope, SourceLoc loc) const {
    if (scope)
        if (const Value* v = scope->find(name)) return *v;
    if (auto it = globals_.find(name); it != globals_.end()) return it->second;
    if (auto it = builtins_.find(name); it != builtins_.end()) return it->second;
    static const char* kForbidden[] = {
        "exec",    "eval",    "open",       "compile", "__import__", "getattr",
        "setattr", "globals", "locals",     "input",   "vars",       "delattr",
        "exit",    "quit",    "breakpoint", "help",    "memoryview", "__builtins__"};
    for (const char* f : kForbidden)
        if (name == f) fail(loc, "'" + name + "' is not available in TE scripts");
    // `compute` for `te.compute`.
    if (auto te = builtins_.find("te"); te != builtins_.end() && te->second.asModule().find(name))
        fail(loc, "name '" + name + "' is not defined; did you mean 'te." + name + "'?");
    fail(loc, "name '" + name + "' is not defined" + didYouMean(name, visibleNames(scope)));
}

// ---------------------------------------------------------------------------
// Expressions

std::optional<Expr> Interpreter::exprOf(const Value& v) const {
    switch (v.kind()) {
    case Value::Kind::Bool:
        return tir::makeConst(DataType::boolean(), int64_t(v.asBool()));
    case Value::Kind::Int: {
        int64_t i = v.asInt();
        bool fits =
            i >= std::numeric_limits<int32_t>::min() && i <= std::numeric_limits<int32_t>::max();
        return tir::makeConst(fits ? DataType::int32() : DataType::int64(), i);
    }
    case Value::Kind::Float:
        return tir::makeConst(DataType::float32(), v.asFloat());
    case Value::Kind::Expr:
        return v.asExpr();
    case Value::Kind::IterVar:
        return Expr(v.asIterVar()->var);
    default:
        return std::nullopt;
    }
}

Value Interpreter::eval(const AstExprPtr& ep, const ScopePtr& scope) {
    const AstExpr& e = *ep;
    if (++steps_ > opts.maxSteps)
        fail(e.loc, "the script takes too many steps (more than " + std::to_string(opts.maxSteps) +
                        "); is a lambda calling itself?");
    DepthCounter depth(evalDepth_);
    if (evalDepth_ > kMaxEvalDepth)
        fail(e.loc, "the script nests too deeply (is a lambda calling itself?)");
    switch (e.kind) {
    case ExprKind::Name:
        return lookup(e.text, scope.get(), e.loc);
    case ExprKind::Int:
        return Value::integer(e.intValue);
    case ExprKind::Float:
        return Value::real(e.floatValue);
    case ExprKind::String:
        return Value::string(e.text);
    case ExprKind::Bool:
        return Value::boolean(e.intValue != 0);
    case ExprKind::None:
        return Value();
    case ExprKind::Tuple:
    case ExprKind::List: {
        Value::Items items;
        items.reserve(e.items.size());
        for (auto& i : e.items)
            items.push_back(eval(i, scope));
        return e.kind == ExprKind::Tuple ? Value::tuple(std::move(items))
                                         : Value::list(std::move(items));
    }
    case ExprKind::Attribute:
        return getAttr(eval(e.items[0], scope), e.text, e.loc, false);
    case ExprKind::Subscript: {
        Value obj = eval(e.items[0], scope);
        Value index = eval(e.items[1], scope);
        return subscript(obj, index, e);
    }
    case ExprKind::Call:
        return evalCall(e, scope);
    case ExprKind::Unary:
        return unary(e.unaryOp, eval(e.items[0], scope), e.loc);
    case ExprKind::Binary: {
        Value a = eval(e.items[0], scope);
        Value b = eval(e.items[1], scope);
        return binary(e.binaryOp, a, b, e.loc);
    }
    case ExprKind::BoolOp: {
        bool isAnd = e.boolOp == BoolOpKind::And;
        Value acc = eval(e.items[0], scope);
        for (size_t i = 1; i < e.items.size(); ++i) {
            if (isExprLike(acc) && !tir::asConstInt(*exprOf(acc))) {
                // A symbolic condition: build the logical expression.
                Value rhs = eval(e.items[i], scope);
                auto rb = exprOf(rhs);
                if (!rb)
                    fail(e.items[i]->begin,
                         std::string("'") + opSpelling(e.boolOp) +
                             "' of an expression needs another expression, not " + typeName(rhs));
                Expr l = *exprOf(acc), r = *rb;
                acc = Value(guarded(e.loc, [&] { return isAnd ? (l && r) : (l || r); }));
                continue;
            }
            bool t = truthy(acc, e.items[i - 1]->begin);
            if (isAnd ? !t : t) return acc;
            acc = eval(e.items[i], scope);
        }
        return acc;
    }
    case ExprKind::Compare: {
        Value lhs = eval(e.items[0], scope);
        Value result;
        for (size_t i = 0; i < e.compareOps.size(); ++i) {
            Value rhs = eval(e.items[i + 1], scope);
            Value c = compare(e.compareOps[i], lhs, rhs, e.loc);
            if (i == 0) {
                result = c;
            } else if (isExprLike(result) || isExprLike(c)) {
                Expr a = *exprOf(result), b = *exprOf(c);
                result = Value(guarded(e.loc, [&] { return a && b; }));
            } else {
                if (!truthy(result, e.loc)) return result;
                result = c;
            }
            lhs = rhs;
        }
        return result;
    }
    case ExprKind::IfExp: {
        Value cond = eval(e.items[1], scope);
        if (isExprLike(cond) && !tir::asConstInt(*exprOf(cond))) {
            Value t = eval(e.items[0], scope), f = eval(e.items[2], scope);
            auto te = exprOf(t), fe = exprOf(f);
            if (!te)
                fail(e.items[0]->begin,
                     "a conditional on an expression needs expressions on both sides, not " +
                         typeName(t));
            if (!fe)
                fail(e.items[2]->begin,
                     "a conditional on an expression needs expressions on both sides, not " +
                         typeName(f));
            Expr c = *exprOf(cond);
            if (!c.type().isBool())
                c = guarded(e.loc, [&] { return c != tir::makeZero(c.type()); });
            return Value(guarded(e.loc, [&] { return tir::select(c, *te, *fe); }));
        }
        return truthy(cond, e.items[1]->begin) ? eval(e.items[0], scope) : eval(e.items[2], scope);
    }
    case ExprKind::Lambda: {
        auto f = std::make_shared<FunctionObject>();
        f->name = "<lambda>";
        f->lambda = ep;
        f->closure = scope;
        return Value(std::shared_ptr<const FunctionObject>(std::move(f)));
    }
    case ExprKind::Starred:
        fail(e.loc, "'*' is only allowed in the arguments of a call");
    }
    fail(e.loc, "internal error: unknown expression");
}

Value Interpreter::evalCall(const AstExpr& e, const ScopePtr& scope) {
    const AstExprPtr& callee = e.items[0];
    Value fn;
    if (callee->kind == ExprKind::Attribute)
        fn = getAttr(eval(callee->items[0], scope), callee->text, callee->loc, true);
    else
        fn = eval(callee, scope);
    CallArgs args;
    args.loc = e.loc;
    for (size_t i = 1; i < e.items.size(); ++i) {
        const AstExpr& a = *e.items[i];
        if (a.kind == ExprKind::Starred) {
            Value seq = eval(a.items[0], scope);
            if (!seq.isSequence())
                fail(a.items[0]->begin, "'*' needs a tuple or list, not " + typeName(seq));
            for (auto& item : seq.items())
                args.positional.push_back({std::make_shared<const Value>(item), a.items[0]->begin});
        } else {
            args.positional.push_back(
                {std::make_shared<const Value>(eval(e.items[i], scope)), a.begin});
        }
    }
    for (auto& k : e.keywords)
        args.keywords.push_back(
            {k.name, {std::make_shared<const Value>(eval(k.value, scope)), k.loc}});
    if (!fn.is(Value::Kind::Function)) {
        if (fn.is(Value::Kind::Opaque)) fail(e.loc, fn.asOpaque().message);
        fail(e.loc, "'" + typeName(fn) + "' object is not callable");
    }
    return call(fn, args);
}

Value Interpreter::call(const Value& fnValue, const CallArgs& args) {
    if (!fnValue.is(Value::Kind::Function))
        fail(args.loc, "'" + typeName(fnValue) + "' object is not callable");
    const FunctionObject& f = fnValue.asFunction();
    if (f.lambda) return callLambda(f, args);
    static const Value kNone;
    const Value& self = f.self ? *f.self : kNone;
    return guarded(args.loc, [&] { return f.native(*this, self, args); });
}

Value Interpreter::callLambda(const FunctionObject& f, const CallArgs& args) {
    const AstExpr& lam = *f.lambda;
    auto scope = std::make_shared<Scope>();
    scope->parent = f.closure;
    const size_t n = lam.params.size();
    if (args.positional.size() > n)
        fail(args.loc, "the lambda takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") +
                           " but " + std::to_string(args.positional.size()) + " were given");
    std::vector<bool> given(n, false);
    scope->vars.resize(n);
    for (size_t i = 0; i < n; ++i)
        scope->vars[i].first = lam.params[i].name;
    for (size_t i = 0; i < args.positional.size(); ++i) {
        scope->vars[i].second = args.positional[i].get();
        given[i] = true;
    }
    for (auto& [name, arg] : args.keywords) {
        size_t i = 0;
        while (i < n && lam.params[i].name != name)
            ++i;
        if (i == n) {
            std::vector<std::string> names;
            for (auto& p : lam.params)
                names.push_back(p.name);
            fail(arg.loc, "the lambda got an unexpected keyword argument '" + name + "'" +
                              didYouMean(name, names));
        }
        if (given[i]) fail(arg.loc, "the lambda got multiple values for argument '" + name + "'");
        scope->vars[i].second = arg.get();
        given[i] = true;
    }
    for (size_t i = 0; i < n; ++i)
        if (!given[i])
            fail(args.loc, "the lambda is missing argument '" + lam.params[i].name + "'");
    DepthCounter depth(callDepth_);
    if (callDepth_ > opts.maxCallDepth)
        fail(args.loc, "maximum recursion depth exceeded (" + std::to_string(opts.maxCallDepth) +
                           " nested lambda calls)");
    return eval(lam.items[0], scope);
}

Value Interpreter::subscript(const Value& obj, const Value& index, const AstExpr& e) {
    SourceLoc loc = e.loc;
    switch (obj.kind()) {
    case Value::Kind::Tensor: {
        const Tensor& t = obj.asTensor();
        std::vector<Expr> idx;
        auto add = [&](const Value& v, SourceLoc at) {
            auto ex = exprOf(v);
            if (!ex || ex->type().isFloat())
                fail(at, "tensor '" + t.name() +
                             "' must be indexed with integers or loop variables, not " +
                             typeName(v));
            idx.push_back(*ex);
        };
        const AstExpr& ie = *e.items[1];
        if (index.is(Value::Kind::Tuple)) {
            for (size_t i = 0; i < index.items().size(); ++i)
                add(index.items()[i], ie.kind == ExprKind::Tuple && i < ie.items.size()
                                          ? ie.items[i]->begin
                                          : ie.begin);
        } else if (index.is(Value::Kind::List)) {
            for (auto& v : index.items())
                add(v, ie.begin);
        } else {
            add(index, ie.begin);
        }
        return Value(guarded(loc, [&] { return t(idx); }));
    }
    case Value::Kind::Schedule: {
        const Schedule& s = obj.asSchedule();
        if (index.is(Value::Kind::Tensor))
            return Value(guarded(loc, [&] { return s[index.asTensor()]; }));
        if (index.is(Value::Kind::Operation))
            return Value(guarded(loc, [&] { return s[index.asOperation()]; }));
        fail(e.items[1]->begin,
             "a schedule is indexed with a tensor or an operation, not " + typeName(index));
    }
    case Value::Kind::Object:
        if (obj.asObject().getItem)
            return guarded(loc,
                           [&] { return obj.asObject().getItem(*this, index, e.items[1]->begin); });
        break;
    case Value::Kind::Tuple:
    case Value::Kind::List:
    case Value::Kind::String: {
        std::string what = obj.is(Value::Kind::String) ? "str" : typeName(obj);
        if (!index.isInt())
            fail(e.items[1]->begin, what + " indices must be integers, not " + typeName(index));
        int64_t n = obj.is(Value::Kind::String) ? int64_t(obj.asString().size())
                                                : int64_t(obj.items().size());
        int64_t i = index.asInt();
        if (i < 0) i += n;
        if (i < 0 || i >= n)
            fail(e.items[1]->begin, "index " + std::to_string(index.asInt()) +
                                        " is out of range for a " + what + " of " +
                                        std::to_string(n) + " element" + (n == 1 ? "" : "s"));
        if (obj.is(Value::Kind::String))
            return Value::string(std::string(1, obj.asString()[size_t(i)]));
        return obj.items()[size_t(i)];
    }
    default:
        break;
    }
    fail(loc, typeName(obj) +
                  " cannot be indexed; only tensors, schedules, tuples, lists and strings can");
}

bool Interpreter::truthy(const Value& v, SourceLoc loc) {
    switch (v.kind()) {
    case Value::Kind::None:
        return false;
    case Value::Kind::Bool:
        return v.asBool();
    case Value::Kind::Int:
        return v.asInt() != 0;
    case Value::Kind::Float:
        return v.asFloat() != 0;
    case Value::Kind::String:
        return !v.asString().empty();
    case Value::Kind::Tuple:
    case Value::Kind::List:
        return !v.items().empty();
    case Value::Kind::Expr:
    case Value::Kind::IterVar: {
        Expr e = *exprOf(v);
        if (auto c = tir::asConstInt(e)) return *c != 0;
        if (auto c = tir::asConstFloat(e)) return *c != 0;
        fail(
            loc,
            "a symbolic expression has no truth value here; use te.if_then_else, te.all or te.any");
    }
    default:
        return true;
    }
}

bool Interpreter::valueEquals(const Value& a, const Value& b) const {
    if (a.isNumber() && b.isNumber()) {
        if (a.isInt() && b.isInt()) return a.asInt() == b.asInt();
        return a.asFloat() == b.asFloat();
    }
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
    case Value::Kind::None:
        return true;
    case Value::Kind::String:
        return a.asString() == b.asString();
    case Value::Kind::Tuple:
    case Value::Kind::List: {
        if (a.items().size() != b.items().size()) return false;
        for (size_t i = 0; i < a.items().size(); ++i)
            if (!valueEquals(a.items()[i], b.items()[i])) return false;
        return true;
    }
    case Value::Kind::Tensor:
        return a.asTensor().same(b.asTensor());
    case Value::Kind::Operation:
        return a.asOperation().sameAs(b.asOperation());
    case Value::Kind::Stage:
        return a.asStage().ptr() == b.asStage().ptr();
    case Value::Kind::Schedule:
        return &a.asSchedule().data() == &b.asSchedule().data();
    case Value::Kind::Range:
        return a.asRange().min.sameAs(b.asRange().min) &&
               a.asRange().extent.sameAs(b.asRange().extent);
    case Value::Kind::Function:
        return &a.asFunction() == &b.asFunction();
    case Value::Kind::Module:
        return &a.asModule() == &b.asModule();
    case Value::Kind::Opaque:
        return &a.asOpaque() == &b.asOpaque();
    case Value::Kind::Object:
        return &a.asObject() == &b.asObject();
    default:
        return false;
    }
}

Value Interpreter::unary(UnaryOp op, const Value& v, SourceLoc loc) {
    switch (op) {
    case UnaryOp::Not:
        if (isExprLike(v) && !tir::asConstInt(*exprOf(v))) {
            Expr e = *exprOf(v);
            if (!e.type().isBool())
                fail(loc, "'not' needs a condition, not an expression of type " + e.type().str());
            return Value(guarded(loc, [&] { return !e; }));
        }
        return Value::boolean(!truthy(v, loc));
    case UnaryOp::Neg:
    case UnaryOp::Pos:
        if (v.isInt()) {
            if (op == UnaryOp::Pos) return Value::integer(v.asInt());
            if (v.asInt() == std::numeric_limits<int64_t>::min())
                fail(loc, "integer overflow (the result does not fit in 64 bits)");
            return Value::integer(-v.asInt());
        }
        if (v.is(Value::Kind::Float))
            return Value::real(op == UnaryOp::Neg ? -v.asFloat() : v.asFloat());
        if (isExprLike(v)) {
            Expr e = *exprOf(v);
            if (op == UnaryOp::Pos) return Value(e);
            return Value(guarded(loc, [&] { return -e; }));
        }
        fail(loc, std::string("bad operand type for unary ") + opSpelling(op) + ": " + typeName(v));
    case UnaryOp::Invert:
        if (v.isInt()) return Value::integer(~v.asInt());
        fail(loc, "bad operand type for unary ~: " + typeName(v));
    }
    fail(loc, "internal error: unknown unary operator");
}

Value Interpreter::binary(BinaryOp op, const Value& a, const Value& b, SourceLoc loc) {
    const std::string sym = opSpelling(op);
    auto unsupported = [&]() -> Value {
        fail(loc, "unsupported operand types for " + sym + ": '" + typeName(a) + "' and '" +
                      typeName(b) + "'");
    };
    auto overflow = [&]() -> Value {
        fail(loc, "integer overflow (the result does not fit in 64 bits)");
    };

    // Python ints (and bools).
    if (a.isInt() && b.isInt()) {
        int64_t x = a.asInt(), y = b.asInt(), r = 0;
        switch (op) {
        case BinaryOp::Add:
            return __builtin_add_overflow(x, y, &r) ? overflow() : Value::integer(r);
        case BinaryOp::Sub:
            return __builtin_sub_overflow(x, y, &r) ? overflow() : Value::integer(r);
        case BinaryOp::Mul:
            return __builtin_mul_overflow(x, y, &r) ? overflow() : Value::integer(r);
        case BinaryOp::Div:
            if (y == 0) fail(loc, "division by zero");
            return Value::real(double(x) / double(y));
        case BinaryOp::FloorDiv:
        case BinaryOp::Mod: {
            if (y == 0)
                fail(loc,
                     op == BinaryOp::Mod ? "integer modulo by zero" : "integer division by zero");
            if (x == std::numeric_limits<int64_t>::min() && y == -1)
                return op == BinaryOp::Mod ? Value::integer(0) : overflow();
            int64_t q = floorDivInt(x, y);
            return Value::integer(op == BinaryOp::FloorDiv ? q : x - q * y);
        }
        case BinaryOp::Pow: {
            if (y < 0) {
                if (x == 0) fail(loc, "0 cannot be raised to a negative power");
                return Value::real(std::pow(double(x), double(y)));
            }
            if (x == 0 || x == 1) return Value::integer(y == 0 ? 1 : x);
            if (x == -1) return Value::integer(y % 2 ? -1 : 1);
            // |x| >= 2: squaring the base overflows only when the result would.
            int64_t result = 1, base = x;
            for (int64_t e = y; e > 0; e >>= 1) {
                if ((e & 1) && __builtin_mul_overflow(result, base, &result)) return overflow();
                if ((e >> 1) > 0 && __builtin_mul_overflow(base, base, &base)) return overflow();
            }
            return Value::integer(result);
        }
        case BinaryOp::BitAnd:
            return Value::integer(x & y);
        case BinaryOp::BitOr:
            return Value::integer(x | y);
        case BinaryOp::BitXor:
            return Value::integer(x ^ y);
        case BinaryOp::LShift:
            if (y < 0) fail(loc, "negative shift count");
            if (y >= 63 || (x != 0 && (x > (std::numeric_limits<int64_t>::max() >> y) ||
                                       x < (std::numeric_limits<int64_t>::min() >> y))))
                return x == 0 ? Value::integer(0) : overflow();
            return Value::integer(int64_t(uint64_t(x) << y));
        case BinaryOp::RShift:
            if (y < 0) fail(loc, "negative shift count");
            return Value::integer(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
        }
    }
    // Python floats.
    if (a.isNumber() && b.isNumber()) {
        double x = a.asFloat(), y = b.asFloat();
        switch (op) {
        case BinaryOp::Add:
            return Value::real(x + y);
        case BinaryOp::Sub:
            return Value::real(x - y);
        case BinaryOp::Mul:
            return Value::real(x * y);
        case BinaryOp::Div:
            if (y == 0) fail(loc, "float division by zero");
            return Value::real(x / y);
        case BinaryOp::FloorDiv:
            if (y == 0) fail(loc, "float floor division by zero");
            return Value::real(std::floor(x / y));
        case BinaryOp::Mod: {
            if (y == 0) fail(loc, "float modulo by zero");
            double m = std::fmod(x, y);
            if (m != 0 && ((m < 0) != (y < 0))) m += y;
            return Value::real(m);
        }
        case BinaryOp::Pow: {
            if (x == 0 && y < 0) fail(loc, "0.0 cannot be raised to a negative power");
            if (x < 0 && y != std::floor(y))
                fail(loc, "a negative number cannot be raised to a fractional power");
            double r = std::pow(x, y);
            if (std::isinf(r) && !std::isinf(x)) fail(loc, "float overflow in '**'");
            return Value::real(r);
        }
        default:
            return unsupported();
        }
    }
    // Sequences and strings.
    if (op == BinaryOp::Add) {
        if (a.is(Value::Kind::String) && b.is(Value::Kind::String)) {
            if (a.asString().size() + b.asString().size() > size_t(kMaxSequence))
                fail(loc, "string is too long");
            return Value::string(a.asString() + b.asString());
        }
        if (a.isSequence() && a.kind() == b.kind()) {
            Value::Items items = a.items();
            if (int64_t(items.size() + b.items().size()) > kMaxSequence)
                fail(loc, "sequence is too long");
            items.insert(items.end(), b.items().begin(), b.items().end());
            return a.is(Value::Kind::Tuple) ? Value::tuple(std::move(items))
                                            : Value::list(std::move(items));
        }
    }
    if (op == BinaryOp::Mul && ((a.isSequence() || a.is(Value::Kind::String)) && b.isInt()))
        return binary(op, b, a, loc);
    if (op == BinaryOp::Mul && a.isInt() && (b.isSequence() || b.is(Value::Kind::String))) {
        int64_t times = std::max<int64_t>(0, a.asInt());
        int64_t len =
            b.is(Value::Kind::String) ? int64_t(b.asString().size()) : int64_t(b.items().size());
        if (len != 0 && times > kMaxSequence / len)
            fail(loc,
                 "the result would have more than " + std::to_string(kMaxSequence) + " elements");
        if (b.is(Value::Kind::String)) {
            std::string s;
            for (int64_t i = 0; i < times; ++i)
                s += b.asString();
            return Value::string(std::move(s));
        }
        Value::Items items;
        for (int64_t i = 0; i < times; ++i)
            items.insert(items.end(), b.items().begin(), b.items().end());
        return b.is(Value::Kind::Tuple) ? Value::tuple(std::move(items))
                                        : Value::list(std::move(items));
    }
    // Expressions.
    if ((isExprLike(a) || isExprLike(b)) && exprOf(a) && exprOf(b)) {
        Expr x = *exprOf(a), y = *exprOf(b);
        switch (op) {
        case BinaryOp::Add:
            return Value(guarded(loc, [&] { return x + y; }));
        case BinaryOp::Sub:
            return Value(guarded(loc, [&] { return x - y; }));
        case BinaryOp::Mul:
            return Value(guarded(loc, [&] { return x * y; }));
        case BinaryOp::Div:
            if (x.type().isIntOrUInt() && y.type().isIntOrUInt())
                fail(loc, "'/' between integer expressions is ambiguous; use '//' (floor division) "
                          "or te.truncdiv");
            return Value(guarded(loc, [&] { return x / y; }));
        case BinaryOp::FloorDiv:
            return Value(guarded(loc, [&] { return tir::floordiv(x, y); }));
        case BinaryOp::Mod:
            return Value(guarded(loc, [&] { return tir::floormod(x, y); }));
        case BinaryOp::Pow:
            return Value(guarded(loc, [&] { return tir::call(tir::Intrinsic::Pow, {x, y}); }));
        case BinaryOp::BitAnd:
        case BinaryOp::BitOr:
            if (x.type().isBool() && y.type().isBool())
                return Value(
                    guarded(loc, [&] { return op == BinaryOp::BitAnd ? (x && y) : (x || y); }));
            fail(loc,
                 "'" + sym +
                     "' on expressions needs two conditions; use te.all / te.any for conditions");
        default:
            fail(loc, "'" + sym + "' is not supported on expressions");
        }
    }
    return unsupported();
}

Value Interpreter::compare(CompareOp op, const Value& a, const Value& b, SourceLoc loc) {
    if (isExprLike(a) || isExprLike(b)) {
        auto x = exprOf(a), y = exprOf(b);
        if (x && y) {
            Expr l = *x, r = *y;
            return Value(guarded(loc, [&]() -> Expr {
                switch (op) {
                case CompareOp::Eq:
                    return l == r;
                case CompareOp::Ne:
                    return l != r;
                case CompareOp::Lt:
                    return l < r;
                case CompareOp::Le:
                    return l <= r;
                case CompareOp::Gt:
                    return l > r;
                case CompareOp::Ge:
                    return l >= r;
                }
                return l == r;
            }));
        }
    }
    if (op == CompareOp::Eq) return Value::boolean(valueEquals(a, b));
    if (op == CompareOp::Ne) return Value::boolean(!valueEquals(a, b));
    int c = 0;
    if (a.isInt() && b.isInt()) {
        c = a.asInt() < b.asInt() ? -1 : a.asInt() > b.asInt() ? 1 : 0;
    } else if (a.isNumber() && b.isNumber()) {
        double x = a.asFloat(), y = b.asFloat();
        if (std::isnan(x) || std::isnan(y)) return Value::boolean(false);
        c = x < y ? -1 : x > y ? 1 : 0;
    } else if (a.is(Value::Kind::String) && b.is(Value::Kind::String)) {
        c = a.asString().compare(b.asString());
        c = c < 0 ? -1 : c > 0 ? 1 : 0;
    } else {
        fail(loc, std::string("'") + opSpelling(op) + "' is not supported between '" + typeName(a) +
                      "' and '" + typeName(b) + "'");
    }
    switch (op) {
    case CompareOp::Lt:
        return Value::boolean(c < 0);
    case CompareOp::Le:
        return Value::boolean(c <= 0);
    case CompareOp::Gt:
        return Value::boolean(c > 0);
    case CompareOp::Ge:
        return Value::boolean(c >= 0);
    default:
        return Value::boolean(false);
    }
}

// ---------------------------------------------------------------------------
// Attributes

Value Interpreter::getAttr(const Value& obj, const std::string& name, SourceLoc loc, bool forCall) {
    if (obj.is(Value::Kind::Module)) {
        const ModuleObject& m = obj.asModule();
        if (const Value* v = m.find(name)) return *v;
        std::vector<std::string> names;
        for (auto& [n, v] : m.members)
            names.push_back(n);
        fail(loc, "module '" + m.name + "' has no " + (forCall ? "function" : "attribute") + " '" +
                      name + "'" + didYouMean(name, names));
    }
    if (obj.is(Value::Kind::Opaque)) fail(loc, obj.asOpaque().message);
    if (obj.is(Value::Kind::Object)) {
        const NativeObject& o = obj.asObject();
        std::vector<std::string> names;
        for (auto& [n, g] : o.attrs) {
            if (n == name) return guarded(loc, g);
            names.push_back(n);
        }
        for (auto& [n, m] : o.methods) {
            if (n == name)
                return makeFunction(o.typeName + "." + n, m, std::make_shared<const Value>(obj));
            names.push_back(n);
        }
        fail(loc, o.typeName + " has no " + (forCall ? "method" : "attribute") + " '" + name + "'" +
                      didYouMean(name, names));
    }
    const TypeInfo* t = typeInfo(obj.kind());
    std::vector<std::string> names;
    if (t) {
        for (auto& [n, g] : t->attrs)
            if (n == name) {
                const auto& getter = g; // clang before 16 cannot capture a structured binding
                return guarded(loc, [&] { return getter(*this, obj, loc); });
            }
        for (auto& [n, m] : t->methods)
            if (n == name) return makeFunction(n, m, std::make_shared<const Value>(obj));
        for (auto& [n, g] : t->attrs)
            names.push_back(n);
        for (auto& [n, m] : t->methods)
            names.push_back(n);
    }
    std::string type = t ? t->name : typeName(obj);
    fail(loc, type + " has no " + (forCall ? "method" : "attribute") + " '" + name + "'" +
                  didYouMean(name, names));
}

DataType parseDType(const std::string& text, SourceLoc loc) {
    if (auto t = DataType::parse(text); t && !t->isVoid()) return *t;
    static const std::vector<std::string> kTypes = {"float32", "float64", "float16", "int32",
                                                    "int64",   "int16",   "int8",    "uint8",
                                                    "uint16",  "uint32",  "uint64",  "bool"};
    throw CompileError("unknown dtype '" + text + "'" + didYouMean(text, kTypes), loc);
}

} // namespace tessel::te::script
