#include "te/script/ScriptPrinter.h"

#include "ir/Diagnostic.h"
#include "te/script/Value.h"
#include "tir/ExprEquality.h"
#include "tir/IROperators.h"
#include "tir/Substitute.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tessel::te::script {

using tir::Expr;
using tir::IterVar;

namespace {

[[noreturn]] void unsupported(const std::string& what) {
    throw CompileError("print script: " + what + " cannot be written as a TE script");
}

bool isIdentifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

const std::set<std::string>& keywords() {
    static const std::set<std::string> kNames = {
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    return kNames;
}

/// Names no global of the printed script takes: the script language's
/// modules and builtins, and the script's own `s` and `func`.
const std::set<std::string>& builtinNames() {
    static const std::set<std::string> kNames = {
        "te",  "tvm",  "tir",  "tessel", "len",   "range", "min",  "max", "int", "float",
        "str", "repr", "bool", "abs",    "print", "tuple", "list", "cfg", "s",   "func"};
    return kNames;
}

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                unsupported("the name " + s + " (a control character)");
            out += c;
        }
    }
    return out + "\"";
}

std::string floatLiteral(double v) {
    if (std::isnan(v)) return "float(\"nan\")";
    if (std::isinf(v)) return v > 0 ? "float(\"inf\")" : "float(\"-inf\")";
    std::string s = formatFloat(v);
    return s[0] == '-' ? "(" + s + ")" : s;
}

std::string intLiteral(int64_t v) {
    if (v == INT64_MIN) return "(-9223372036854775807 - 1)";
    return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
}

/// `s` without the parentheses around all of it: arguments and indices are
/// delimited already.
std::string bare(const std::string& s) {
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
    int depth = 0;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
        depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        if (depth == 0) return s; // the first parenthesis closes before the end
    }
    return s.substr(1, s.size() - 2);
}

bool isConstant(const Expr& e) {
    return e.as<tir::IntImmNode>() || e.as<tir::FloatImmNode>();
}

const char* intrinsicFunction(tir::Intrinsic op) {
    switch (op) {
    case tir::Intrinsic::Exp:
        return "exp";
    case tir::Intrinsic::Log:
        return "log";
    case tir::Intrinsic::Sqrt:
        return "sqrt";
    case tir::Intrinsic::Rsqrt:
        return "rsqrt";
    case tir::Intrinsic::Fma:
        return "fma";
    case tir::Intrinsic::Tanh:
        return "tanh";
    case tir::Intrinsic::Sigmoid:
        return "sigmoid";
    case tir::Intrinsic::Pow:
        return "pow";
    case tir::Intrinsic::Abs:
        return "abs";
    case tir::Intrinsic::Erf:
        return "erf";
    case tir::Intrinsic::Floor:
        return "floor";
    case tir::Intrinsic::Ceil:
        return "ceil";
    case tir::Intrinsic::Round:
        return "round";
    case tir::Intrinsic::Trunc:
        return "trunc";
    case tir::Intrinsic::RoundEven:
        return "round_even";
    case tir::Intrinsic::Sin:
        return "sin";
    case tir::Intrinsic::Cos:
        return "cos";
    case tir::Intrinsic::PairDotI16:
        return "pair_dot_i16";
    default:
        return nullptr;
    }
}

const ComputeOpNode* asCompute(const Operation& op) {
    return dynamic_cast<const ComputeOpNode*>(op.get());
}

/// A cache_read or cache_write, recovered from ScheduleData::replaced.
struct CacheEvent {
    bool write = false;
    Operation cache;                ///< the stage it created
    Operation source;               ///< cache_read: the tensor read; cache_write: the stage cached
    std::vector<Operation> readers; ///< cache_read only
    std::string scope;
};

class Printer {
public:
    Printer(const Schedule& sch, const std::vector<Tensor>& args, const std::string& name)
        : data_(sch.data()), args_(args), name_(name) {}

    std::string run() {
        for (auto& [from, to] : data_.replaced)
            previous_[to.get()] = from;
        for (auto& st : data_.stages)
            for (Operation op = st->op; op.defined(); op = previousOf(op))
                stageOf_[op.get()] = st.get();
        auto events = recoverEvents();
        std::unordered_set<const OperationNode*> created;
        for (auto& e : events)
            created.insert(e.cache.get());

        // The operations the script defines: what the outputs were before caching.
        std::vector<Operation> outputs;
        for (auto& o : data_.outputs)
            outputs.push_back(base(o));
        std::vector<Operation> ops = postOrderOps(outputs);
        std::unordered_set<const OperationNode*> defined;
        for (auto& op : ops) {
            if (op->numOutputs() != 1)
                unsupported("operation '" + op->name + "' with several outputs");
            defined.insert(op.get());
        }
        for (auto& st : data_.stages) {
            Operation b = base(st->op);
            if (!defined.count(b.get()) && !created.count(b.get()))
                unsupported("stage '" + st->op->name + "', which the outputs do not read,");
        }

        used_ = keywords();
        used_.insert(builtinNames().begin(), builtinNames().end());
        // Lambdas read tensors and reduce axes as globals: no global may be
        // named like a lambda parameter.
        for (auto& op : ops)
            if (auto* c = asCompute(op))
                for (auto& iv : c->axis)
                    used_.insert(iv->var.name());

        for (auto& op : ops)
            printOperation(op);
        line("");
        std::string outs;
        for (size_t i = 0; i < outputs.size(); ++i)
            outs += (i ? ", " : "") + opVar_.at(outputs[i].get()) + ".op";
        line("s = te.create_schedule(" + (outputs.size() == 1 ? outs : "[" + outs + "]") + ")");
        for (auto& e : events)
            printEvent(e);
        for (auto& st : data_.stages)
            printLoops(*st);
        for (auto& st : data_.stages)
            printAttach(*st);
        for (auto& st : data_.stages)
            printAnnotations(*st);
        std::string argList;
        for (size_t i = 0; i < args_.size(); ++i) {
            if (args_[i]->valueIndex != 0)
                unsupported("argument '" + args_[i].name() + "' (a second output)");
            argList += (i ? ", " : "") + varOf(args_[i]->op);
        }
        line("func = tvm.build(s, [" + argList + "], name=" + quote(name_) + ")");
        return out_;
    }

    /// Writes where the printed script makes and changes each stage and loop
    /// into the stages of `sch` (replacing what they had).
    void recordSources(const Schedule& sch) const {
        std::vector<Stage> stages = sch.stages();
        for (auto& st : stages)
            st.ptr()->sources = {};
        for (auto& [op, loc] : opNotes_)
            if (Stage st = sch.find(op); st.defined()) st.addSource(loc);
        for (auto& [iv, loc] : loopNotes_)
            for (auto& st : stages)
                if (st.owns(iv)) st.addSource(iv, loc);
    }

private:
    void line(const std::string& s) {
        out_ += s + "\n";
        ++lines_;
    }
    /// The last line printed makes or changes `op` (its stage) / loops `ivs`.
    void noteOp(const Operation& op) { opNotes_.emplace_back(op, SourceLoc{lines_, 1}); }
    void noteLoops(const std::vector<IterVar>& ivs) {
        for (auto& iv : ivs)
            loopNotes_.emplace_back(iv, SourceLoc{lines_, 1});
    }

    Operation previousOf(const Operation& op) const {
        auto it = previous_.find(op.get());
        return it == previous_.end() ? Operation() : it->second;
    }
    /// The operation `op` stands for before any cache_read / cache_write.
    Operation base(Operation op) const {
        for (Operation p = previousOf(op); p.defined(); p = previousOf(op))
            op = p;
        return op;
    }
    const std::string& varOf(const Operation& op) const {
        auto it = opVar_.find(base(op).get());
        if (it == opVar_.end())
            unsupported("a read of '" + op->name + "', which is not part of the schedule,");
        return it->second;
    }
    std::string stageRef(const StageData& st) const { return "s[" + varOf(st.op) + "]"; }

    /// A new global named after `name` (or `prefix_name` when that is taken).
    std::string fresh(const std::string& name, const std::string& prefix = {}) {
        std::string base;
        for (char c : name)
            base += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
        if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "t_" + base;
        std::string n = base;
        if (used_.count(n) && !prefix.empty()) n = prefix + "_" + base;
        for (int i = 1; used_.count(n); ++i)
            n = base + "_" + std::to_string(i);
        used_.insert(n);
        return n;
    }

    // ------------------------------------------------------------- events

    /// Groups the replacements into the cache_write / cache_read calls that made them.
    std::vector<CacheEvent> recoverEvents() const {
        std::vector<CacheEvent> events;
        const auto& rep = data_.replaced;
        for (size_t i = 0; i < rep.size();) {
            const auto& [from, to] = rep[i];
            if (auto e = asCacheWrite(from, to)) {
                events.push_back(*e);
                ++i;
                continue;
            }
            auto* oldC = asCompute(from);
            auto* newC = asCompute(to);
            if (!oldC || !newC) unsupported("a replaced operation '" + from->name + "'");
            // cache_read: `to` reads a new cache of a tensor that `from` read.
            std::optional<Tensor> cache, source;
            for (auto& t : newC->inputTensors()) {
                auto* c = asCompute(t->op);
                if (!c || c->tag != "cache_read" || c->body.size() != 1) continue;
                auto* load = c->body[0].as<tir::ProducerLoadNode>();
                auto* src = load ? dynamic_cast<const TensorNode*>(load->producer.get()) : nullptr;
                if (!src) continue;
                bool oldReads = false;
                for (auto& in : oldC->inputTensors())
                    oldReads |= in.same(Tensor(src));
                if (oldReads) {
                    cache = t;
                    source = Tensor(src);
                }
            }
            if (!cache)
                unsupported("the replacement of '" + from->name +
                            "' (neither cache_read nor cache_write)");
            CacheEvent e;
            e.cache = (*cache)->op;
            e.source = (*source)->op;
            e.scope = stageScope(e.cache);
            if ((*source).name() + "_" + e.scope != e.cache->name)
                unsupported("cache stage '" + e.cache->name + "'");
            // The call's other readers follow: each now reads the cache instead of the source.
            auto reads = [](const Operation& op, const Operation& t) {
                auto* c = asCompute(op);
                if (!c) return false;
                for (auto& in : c->inputTensors())
                    if (in->op.sameAs(t)) return true;
                return false;
            };
            for (; i < rep.size(); ++i) {
                const auto& [r0, r1] = rep[i];
                if (!reads(r1, e.cache) || reads(r0, e.cache) || !reads(r0, e.source) ||
                    reads(r1, e.source))
                    break;
                e.readers.push_back(r0);
            }
            events.push_back(e);
        }
        return events;
    }

    std::string stageScope(const Operation& op) const {
        auto it = stageOf_.find(op.get());
        if (it == stageOf_.end()) unsupported("cache stage '" + op->name + "', which is no stage,");
        return it->second->scope;
    }

    /// `to` is the copy that cache_write left of `from`, reading the cache
    /// that computes from's body over renamed axes.
    std::optional<CacheEvent> asCacheWrite(const Operation& from, const Operation& to) const {
        auto* oldC = asCompute(from);
        auto* newC = asCompute(to);
        if (!oldC || !newC || newC->body.size() != 1 || !newC->reduceAxis.empty() ||
            oldC->body.size() != 1 || newC->axis.size() != oldC->axis.size())
            return std::nullopt;
        auto* load = newC->body[0].as<tir::ProducerLoadNode>();
        auto* cacheT = load ? dynamic_cast<const TensorNode*>(load->producer.get()) : nullptr;
        if (!cacheT || load->indices.size() != newC->axis.size()) return std::nullopt;
        auto* cache = asCompute(cacheT->op);
        if (!cache || cache->axis.size() != oldC->axis.size() || cache->tag != oldC->tag ||
            cache->reduceAxis.size() != oldC->reduceAxis.size())
            return std::nullopt;
        tir::VarMap vmap;
        for (size_t d = 0; d < oldC->axis.size(); ++d) {
            if (!newC->axis[d].sameAs(oldC->axis[d]) ||
                !load->indices[d].sameAs(newC->axis[d]->var) ||
                cache->axis[d]->var.name() != oldC->axis[d]->var.name() + "_c")
                return std::nullopt;
            vmap[oldC->axis[d]->var.get()] = cache->axis[d]->var;
        }
        for (size_t r = 0; r < oldC->reduceAxis.size(); ++r)
            if (!cache->reduceAxis[r].sameAs(oldC->reduceAxis[r])) return std::nullopt;
        if (!tir::structuralEqual(tir::substitute(oldC->body[0], vmap), cache->body[0]))
            return std::nullopt;
        CacheEvent e;
        e.write = true;
        e.cache = cacheT->op;
        e.source = from;
        e.scope = stageScope(e.cache);
        if (from->name + "_" + e.scope != e.cache->name) return std::nullopt;
        return e;
    }

    void printEvent(const CacheEvent& e) {
        std::string var = fresh(e.cache->name);
        if (e.write) {
            line(var + " = s.cache_write(" + varOf(e.source) + ", " + quote(e.scope) + ")");
            noteCache(e.cache);
        } else {
            std::string readers;
            for (size_t i = 0; i < e.readers.size(); ++i)
                readers += (i ? ", " : "") + varOf(e.readers[i]);
            line(var + " = s.cache_read(" + varOf(e.source) + ", " + quote(e.scope) + ", [" +
                 readers + "])");
            noteCache(e.cache);
        }
        opVar_[e.cache.get()] = var;
    }

    void noteCache(const Operation& cache) {
        noteOp(cache);
        if (auto* c = asCompute(cache)) noteLoops(c->axis);
    }

    // ------------------------------------------------- tensor expressions

    void printOperation(const Operation& op) {
        std::string var = fresh(op->name);
        std::string shape;
        auto dims = op->outputShape(0);
        for (size_t d = 0; d < dims.size(); ++d) {
            auto c = tir::asConstInt(dims[d]);
            if (!c) unsupported("the symbolic shape of '" + op->name + "'");
            shape += (d ? ", " : "") + std::to_string(*c);
        }
        shape = "(" + shape + (dims.size() == 1 ? ",)" : ")");
        if (dynamic_cast<const PlaceholderOpNode*>(op.get())) {
            line(var + " = te.placeholder(" + shape + ", dtype=" + quote(op->outputType(0).str()) +
                 ", name=" + quote(op->name) + ")");
            noteOp(op);
            opVar_[op.get()] = var;
            return;
        }
        auto* c = asCompute(op);
        if (!c) unsupported("operation '" + op->name + "'");
        for (auto& iv : c->reduceAxis) {
            if (ivVar_.count(iv.get())) continue;
            auto mn = tir::asConstInt(iv->dom.min), ex = tir::asConstInt(iv->dom.extent);
            if (!mn || !ex)
                unsupported("the symbolic range of reduce axis '" + iv->var.name() + "'");
            std::string rv = fresh(iv->var.name());
            line(rv + " = te.reduce_axis((" + std::to_string(*mn) + ", " +
                 std::to_string(*mn + *ex) + "), name=" + quote(iv->var.name()) + ")");
            noteLoops({iv});
            ivVar_[iv.get()] = rv;
            reduceVar_[iv->var.get()] = rv;
        }
        params_.clear();
        std::string params;
        for (auto& iv : c->axis) {
            const std::string& p = iv->var.name();
            // A body uses `te` and `float` besides the globals.
            if (!isIdentifier(p) || keywords().count(p) || p == "te" || p == "float")
                unsupported("axis '" + p + "' of '" + op->name +
                            "' (not a usable lambda parameter)");
            for (auto& [other, n] : params_)
                if (n == p)
                    unsupported("compute '" + op->name + "' with two axes named '" + p + "'");
            params_[iv->var.get()] = p;
            params += (params.empty() ? " " : ", ") + p;
        }
        std::string body = bare(expr(c->body[0], true));
        std::string tag = c->tag.empty() ? "" : ", tag=" + quote(c->tag);
        line(var + " = te.compute(" + shape + ", lambda" + params + ": " + body +
             ", name=" + quote(op->name) + tag + ")");
        noteOp(op);
        noteLoops(c->axis);
        noteLoops(c->reduceAxis);
        opVar_[op.get()] = var;
    }

    /// A constant as the script writes it; `asExpr` keeps it an expression
    /// (te.const) so that operators fold it as TIR would, not as Python does.
    std::string constant(const Expr& e, bool asExpr) const {
        DataType t = e.type();
        if (auto* i = e.as<tir::IntImmNode>()) {
            if (!asExpr && t == DataType::int32()) return intLiteral(i->value);
            if (!asExpr && t.isBool()) return i->value ? "True" : "False";
            return "te.const(" +
                   (t.isBool() ? std::string(i->value ? "True" : "False") : intLiteral(i->value)) +
                   ", " + quote(t.str()) + ")";
        }
        auto* f = e.as<tir::FloatImmNode>();
        if (!asExpr && t == DataType::float32()) return floatLiteral(f->value);
        return "te.const(" + floatLiteral(f->value) + ", " + quote(t.str()) + ")";
    }

    std::string binary(const char* op, const Expr& a, const Expr& b) {
        // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on the chain of +.
        std::string s = "(";
        s += expr(a, false, isConstant(b));
        s += ' ';
        s += op;
        s += ' ';
        s += expr(b);
        s += ')';
        return s;
    }
    std::string call(const std::string& fn, const std::vector<Expr>& args) {
        bool allConst = std::all_of(args.begin(), args.end(), isConstant);
        std::string s = fn + "(";
        for (size_t i = 0; i < args.size(); ++i)
            s += (i ? ", " : "") + bare(expr(args[i], false, i == 0 && allConst));
        return s + ")";
    }

    /// `e` where the script needs an expression value: a reduce axis is an
    /// IterVar there, and `k.var` its variable.
    std::string exprValue(const Expr& e) {
        auto* v = e.as<tir::VarNode>();
        return v && reduceVar_.count(v) ? expr(e) + ".var" : expr(e);
    }

    std::string expr(const Expr& e, bool top = false, bool constAsExpr = false) {
        using K = tir::NodeKind;
        switch (e.kind()) {
        case K::IntImm:
        case K::FloatImm:
            return constant(e, constAsExpr);
        case K::Var: {
            auto* v = e.as<tir::VarNode>();
            if (auto it = params_.find(v); it != params_.end()) return it->second;
            if (auto it = reduceVar_.find(v); it != reduceVar_.end()) return it->second;
            unsupported("variable '" + v->name + "'");
        }
        case K::Cast: {
            auto* c = e.as<tir::CastNode>();
            if (isConstant(c->value)) unsupported("a cast of a constant");
            return exprValue(c->value) + ".astype(" + quote(e.type().str()) + ")";
        }
        case K::Add:
            return binary("+", e.as<tir::AddNode>()->a, e.as<tir::AddNode>()->b);
        case K::Sub:
            return binary("-", e.as<tir::SubNode>()->a, e.as<tir::SubNode>()->b);
        case K::Mul:
            return binary("*", e.as<tir::MulNode>()->a, e.as<tir::MulNode>()->b);
        case K::Div: {
            auto* d = e.as<tir::DivNode>();
            if (e.type().isFloat()) return binary("/", d->a, d->b);
            return call("te.truncdiv", {d->a, d->b});
        }
        case K::Mod:
            return call("te.truncmod", {e.as<tir::ModNode>()->a, e.as<tir::ModNode>()->b});
        case K::FloorDiv: {
            // The script's `//` on floats means floor(a / b), another tree.
            if (e.type().isFloat()) unsupported("a floor division of floats");
            return binary("//", e.as<tir::FloorDivNode>()->a, e.as<tir::FloorDivNode>()->b);
        }
        case K::FloorMod:
            return binary("%", e.as<tir::FloorModNode>()->a, e.as<tir::FloorModNode>()->b);
        case K::Min:
        case K::Max: {
            // A bare reduce axis as the second argument would make te.min a reduction.
            Expr a = e.kind() == K::Min ? e.as<tir::MinNode>()->a : e.as<tir::MaxNode>()->a;
            Expr b = e.kind() == K::Min ? e.as<tir::MinNode>()->b : e.as<tir::MaxNode>()->b;
            return std::string(e.kind() == K::Min ? "te.min(" : "te.max(") +
                   bare(expr(a, false, isConstant(b))) + ", " + bare(exprValue(b)) + ")";
        }
        case K::EQ:
            return binary("==", e.as<tir::EQNode>()->a, e.as<tir::EQNode>()->b);
        case K::NE:
            return binary("!=", e.as<tir::NENode>()->a, e.as<tir::NENode>()->b);
        case K::LT:
            return binary("<", e.as<tir::LTNode>()->a, e.as<tir::LTNode>()->b);
        case K::LE:
            return binary("<=", e.as<tir::LENode>()->a, e.as<tir::LENode>()->b);
        case K::GT:
            return binary(">", e.as<tir::GTNode>()->a, e.as<tir::GTNode>()->b);
        case K::GE:
            return binary(">=", e.as<tir::GENode>()->a, e.as<tir::GENode>()->b);
        case K::And:
            return binary("&", e.as<tir::AndNode>()->a, e.as<tir::AndNode>()->b);
        case K::Or:
            return binary("|", e.as<tir::OrNode>()->a, e.as<tir::OrNode>()->b);
        case K::Not: {
            auto* n = e.as<tir::NotNode>();
            return "(not " + expr(n->a, false, true) + ")";
        }
        case K::Select: {
            auto* s = e.as<tir::SelectNode>();
            return "te.if_then_else(" + bare(expr(s->condition, false, true)) + ", " +
                   bare(expr(s->trueValue)) + ", " + bare(expr(s->falseValue)) + ")";
        }
        case K::Call: {
            auto* c = e.as<tir::CallNode>();
            const char* fn = intrinsicFunction(c->op);
            if (!fn) unsupported("a call of '" + c->name + "'");
            return call(std::string("te.") + fn, c->args);
        }
        case K::ProducerLoad: {
            auto* l = e.as<tir::ProducerLoadNode>();
            auto* t = dynamic_cast<const TensorNode*>(l->producer.get());
            if (!t) unsupported("a read of '" + l->producer->producerName() + "'");
            if (t->valueIndex != 0)
                unsupported("a read of a second output of '" + t->op->name + "'");
            std::string s = varOf(t->op) + "[";
            if (l->indices.empty()) s += "()";
            for (size_t i = 0; i < l->indices.size(); ++i)
                s += (i ? ", " : "") + bare(expr(l->indices[i]));
            return s + "]";
        }
        case K::Reduce: {
            auto* r = e.as<tir::ReduceNode>();
            if (!top) unsupported("a reduction inside an expression");
            std::string axes;
            for (size_t i = 0; i < r->axis.size(); ++i)
                axes += (i ? ", " : "") + ivVar_.at(r->axis[i].get());
            if (r->axis.size() != 1) axes = "[" + axes + "]";
            std::string s = std::string("te.") + tir::reduceKindName(r->combiner) + "(" +
                            bare(expr(r->source)) + ", axis=" + axes;
            if (r->condition.defined()) s += ", where=" + bare(expr(r->condition, false, true));
            return s + ")";
        }
        default:
            unsupported(std::string("a ") + tir::nodeKindName(e.kind()) + " expression");
        }
    }

    // ---------------------------------------------------------- schedule

    /// The global that holds `iv`, a loop of `st`; roots are fetched from
    /// the stage's operation on first use.
    std::string loop(const StageData& st, const IterVar& iv) {
        if (auto it = ivVar_.find(iv.get()); it != ivVar_.end()) return it->second;
        auto* c = asCompute(st.op);
        if (!c) unsupported("a loop of input '" + st.op->name + "'");
        std::string field;
        for (size_t i = 0; i < c->axis.size() && field.empty(); ++i)
            if (c->axis[i].sameAs(iv)) field = ".op.axis[" + std::to_string(i) + "]";
        for (size_t i = 0; i < c->reduceAxis.size() && field.empty(); ++i)
            if (c->reduceAxis[i].sameAs(iv)) field = ".op.reduce_axis[" + std::to_string(i) + "]";
        if (field.empty())
            unsupported("loop '" + iv->var.name() + "' of stage '" + st.op->name + "'");
        std::string var = fresh(iv->var.name(), varOf(st.op));
        line(var + " = " + stageRef(st) + field);
        noteLoops({iv});
        ivVar_[iv.get()] = var;
        return var;
    }

    /// Replays splits and fuses in order. A fuse needs its loops adjacent, and
    /// a reorder in between may have made them so: before such a fuse the
    /// leaves are put in the order that agrees with the final one.
    void printLoops(const StageData& st) {
        auto sameLoops = [](const std::vector<IterVar>& x, const std::vector<IterVar>& y) {
            return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(),
                                                      [](auto& p, auto& q) { return p.sameAs(q); });
        };
        if (st.relations.empty() && sameLoops(st.leafIterVars, rootsOf(st))) return;
        const std::string ref = stageRef(st);
        std::map<const tir::IterVarNode*, std::vector<int64_t>> keys;
        std::function<std::vector<int64_t>(const IterVar&)> key = [&](const IterVar& iv) {
            if (auto it = keys.find(iv.get()); it != keys.end()) return it->second;
            std::vector<int64_t> k;
            for (size_t i = 0; i < st.leafIterVars.size(); ++i)
                if (st.leafIterVars[i].sameAs(iv)) k = {int64_t(i)};
            for (auto& r : st.relations) {
                if (!k.empty()) break;
                if (r.kind == IterRelation::Kind::Split && r.parent.sameAs(iv)) {
                    k = std::min(key(r.outer), key(r.inner));
                } else if (r.kind == IterRelation::Kind::Fuse &&
                           (r.outer.sameAs(iv) || r.inner.sameAs(iv))) {
                    k = key(r.fused);
                    k.push_back(r.outer.sameAs(iv) ? 0 : 1);
                }
            }
            if (k.empty())
                unsupported("loop '" + iv->var.name() + "' of stage '" + st.op->name + "'");
            return keys[iv.get()] = k;
        };
        auto reorderLine = [&](const std::vector<IterVar>& leaves) {
            std::string s;
            for (size_t i = 0; i < leaves.size(); ++i)
                s += (i ? ", " : "") + loop(st, leaves[i]);
            line(ref + ".reorder(" + s + ")");
            noteLoops(leaves);
        };
        auto indexOf = [](const std::vector<IterVar>& v, const IterVar& iv) {
            return size_t(std::find_if(v.begin(), v.end(), [&](auto& x) { return x.sameAs(iv); }) -
                          v.begin());
        };
        std::vector<IterVar> leaves = rootsOf(st);
        for (auto& r : st.relations) {
            if (r.kind == IterRelation::Kind::Split) {
                size_t i = indexOf(leaves, r.parent);
                if (i == leaves.size()) unsupported("split of '" + r.parent->var.name() + "'");
                std::string parent = loop(st, r.parent);
                std::string outer = fresh(r.outer->var.name(), varOf(st.op));
                std::string inner = fresh(r.inner->var.name(), varOf(st.op));
                line(outer + ", " + inner + " = " + ref + ".split(" + parent +
                     (r.byNParts ? ", nparts=" : ", factor=") + bare(expr(r.factor)) + ")");
                noteLoops({r.parent, r.outer, r.inner});
                ivVar_[r.outer.get()] = outer;
                ivVar_[r.inner.get()] = inner;
                leaves[i] = r.outer;
                leaves.insert(leaves.begin() + long(i) + 1, r.inner);
            } else {
                size_t a = indexOf(leaves, r.outer), b = indexOf(leaves, r.inner);
                if (a == leaves.size() || b == leaves.size())
                    unsupported("fuse of '" + r.fused->var.name() + "'");
                if (b != a + 1) {
                    std::stable_sort(leaves.begin(), leaves.end(),
                                     [&](auto& x, auto& y) { return key(x) < key(y); });
                    reorderLine(leaves);
                    a = indexOf(leaves, r.outer);
                    b = indexOf(leaves, r.inner);
                    if (b != a + 1) unsupported("fuse of '" + r.fused->var.name() + "'");
                }
                std::string outer = loop(st, r.outer), inner = loop(st, r.inner);
                std::string fused = fresh(r.fused->var.name(), varOf(st.op));
                line(fused + " = " + ref + ".fuse(" + outer + ", " + inner + ")");
                noteLoops({r.outer, r.inner, r.fused});
                ivVar_[r.fused.get()] = fused;
                leaves[a] = r.fused;
                leaves.erase(leaves.begin() + long(b));
            }
        }
        if (!sameLoops(leaves, st.leafIterVars)) reorderLine(st.leafIterVars);
    }

    std::vector<IterVar> rootsOf(const StageData& st) const {
        std::vector<IterVar> roots;
        if (auto* c = asCompute(st.op)) {
            roots.assign(c->axis.begin(), c->axis.end());
            roots.insert(roots.end(), c->reduceAxis.begin(), c->reduceAxis.end());
        }
        if (roots.size() > st.allIterVars.size() ||
            !std::equal(roots.begin(), roots.end(), st.allIterVars.begin(),
                        [](auto& x, auto& y) { return x.sameAs(y); }))
            unsupported("the loops of stage '" + st.op->name + "'");
        return roots;
    }

    void printAttach(const StageData& st) {
        if (st.attach == AttachKind::Inline) {
            line(stageRef(st) + ".compute_inline()");
            noteOp(st.op);
        } else if (st.attach == AttachKind::Scope) {
            auto parent = st.attachStage.lock();
            if (!parent) unsupported("compute_at of '" + st.op->name + "' on a stage that is gone");
            std::string scope = loop(*parent, st.attachIter);
            line(stageRef(st) + ".compute_at(" + stageRef(*parent) + ", " + scope + ")");
            noteLoops({st.attachIter});
        }
    }

    /// Annotations of leaves only: lowering never looks at others.
    void printAnnotations(const StageData& st) {
        const std::string ref = stageRef(st);
        if (st.doubleBuffer) line(ref + ".double_buffer()");
        if (st.launchMinBlocks > 0) line(ref + ".launch_bounds(min_blocks=" + std::to_string(st.launchMinBlocks) + ")");
        for (auto& a : st.storageAlign) {
            auto* c = asCompute(st.op);
            if (!c || a.axis >= c->axis.size()) unsupported("storage_align of stage '" + st.op->name + "'");
            std::string var = loop(st, c->axis[a.axis]);
            line(ref + ".storage_align(" + var + ", " + std::to_string(a.factor) + ", " + std::to_string(a.offset) +
                 ")");
        }
        for (auto& iv : st.leafIterVars) {
            if (auto it = st.annotations.find(iv.get());
                it != st.annotations.end() && it->second != IterAnnotation::None) {
                std::string var = loop(st, iv);
                line(ref + "." + iterAnnotationName(it->second) + "(" + var + ")");
                noteLoops({iv});
            }
            if (auto it = st.bindings.find(iv.get()); it != st.bindings.end()) {
                std::string var = loop(st, iv);
                std::string axis = "te.thread_axis(" + quote(it->second->threadTag) + ")";
                if (it->second->dom.extent.defined())
                    axis = "te.thread_axis((" + bare(expr(it->second->dom.min)) + ", " +
                           bare(expr(it->second->dom.min + it->second->dom.extent)) + "), " +
                           quote(it->second->threadTag) + ")";
                line(ref + ".bind(" + var + ", " + axis + ")");
                noteLoops({iv});
            }
            if (auto it = st.pragmas.find(iv.get()); it != st.pragmas.end())
                for (auto& [key, value] : it->second) {
                    std::string var = loop(st, iv);
                    line(ref + ".pragma(" + var + ", " + quote(key) + ", " + bare(expr(value)) +
                         ")");
                    noteLoops({iv});
                }
        }
    }

    const ScheduleData& data_;
    const std::vector<Tensor>& args_;
    std::string name_;
    std::string out_;
    int lines_ = 0;
    std::vector<std::pair<Operation, SourceLoc>> opNotes_;
    std::vector<std::pair<IterVar, SourceLoc>> loopNotes_;
    std::unordered_map<const OperationNode*, Operation> previous_;
    std::unordered_map<const OperationNode*, const StageData*> stageOf_;
    std::unordered_map<const OperationNode*, std::string> opVar_;
    std::unordered_map<const tir::IterVarNode*, std::string> ivVar_;
    /// The lambda parameters of the compute being printed.
    std::unordered_map<const tir::VarNode*, std::string> params_;
    /// Reduce axes: globals holding an IterVar (`k.var` is its expression).
    std::unordered_map<const tir::VarNode*, std::string> reduceVar_;
    std::set<std::string> used_;
};

} // namespace

std::string printScript(const Schedule& sch, const std::vector<Tensor>& args,
                        const std::string& name) {
    if (!sch.defined()) throw CompileError("print script: no schedule");
    return Printer(sch, args, name).run();
}

std::string printScriptWithSources(const Schedule& sch, const std::vector<Tensor>& args,
                                   const std::string& name) {
    if (!sch.defined()) throw CompileError("print script: no schedule");
    Printer p(sch, args, name);
    std::string text = p.run();
    p.recordSources(sch);
    return text;
}

} // namespace tessel::te::script
