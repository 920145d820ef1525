#include "tir/IRPrinter.h"

#include "tir/IROperators.h"
#include "tir/IRVisitor.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace tessel::tir {

namespace {

// Binding strength of infix operators, Python's order.
enum Prec { kOr = 1, kAnd, kNot, kCompare, kAdd, kMul, kUnary, kAtom };

class Printer {
public:
    AnnotatedText out;

    std::string name(const VarNode* v) {
        auto it = names_.find(v);
        if (it != names_.end()) return it->second;
        std::string base = v->name.empty() ? "v" : v->name;
        std::string n = base;
        for (int i = 1; used_.count(n); ++i) n = base + "_" + std::to_string(i);
        used_.insert(n);
        return names_[v] = n;
    }
    std::string bufferName(const BufferNode* b) { return name(b->data.get()); }

    std::string expr(const Expr& e, int ctx = 0) {
        int prec = kAtom;
        std::string s = exprImpl(e, prec);
        return prec < ctx ? "(" + s + ")" : s;
    }

    std::string list(const std::vector<Expr>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + expr(v[i]);
        return s;
    }

    std::string literalFloat(double v, DataType t) {
        char buf[64];
        if (std::isinf(v)) return std::string("T.") + t.str() + (v > 0 ? "(\"inf\")" : "(\"-inf\")");
        std::snprintf(buf, sizeof buf, "%.9g", v);
        std::string s = buf;
        if (s.find_first_of(".en") == std::string::npos) s += ".0";
        return "T." + t.str() + "(" + s + ")";
    }

    std::string exprImpl(const Expr& e, int& prec) {
        if (!e.defined()) return "None";
        auto bin = [&](const auto* op, const char* sym, int p) {
            prec = p;
            return expr(op->a, p) + " " + sym + " " + expr(op->b, p + 1);
        };
        switch (e.kind()) {
        case NodeKind::IntImm: {
            auto* op = e.as<IntImmNode>();
            if (op->type.isBool()) return op->value ? "True" : "False";
            if (op->type == DataType::int32()) {
                if (op->value < 0) prec = kUnary;
                return std::to_string(op->value);
            }
            return "T." + op->type.str() + "(" + std::to_string(op->value) + ")";
        }
        case NodeKind::FloatImm: {
            auto* op = e.as<FloatImmNode>();
            return literalFloat(op->value, op->type);
        }
        case NodeKind::StringImm: return "\"" + e.as<StringImmNode>()->value + "\"";
        case NodeKind::Var: return name(e.as<VarNode>());
        case NodeKind::Cast: {
            auto* op = e.as<CastNode>();
            return "T.Cast(\"" + op->type.str() + "\", " + expr(op->value) + ")";
        }
        case NodeKind::Add: return bin(e.as<AddNode>(), "+", kAdd);
        case NodeKind::Sub: return bin(e.as<SubNode>(), "-", kAdd);
        case NodeKind::Mul: return bin(e.as<MulNode>(), "*", kMul);
        case NodeKind::Div: {
            auto* op = e.as<DivNode>();
            if (op->type.isFloat()) return bin(op, "/", kMul);
            return "T.truncdiv(" + expr(op->a) + ", " + expr(op->b) + ")";
        }
        case NodeKind::Mod: {
            auto* op = e.as<ModNode>();
            return "T.truncmod(" + expr(op->a) + ", " + expr(op->b) + ")";
        }
        case NodeKind::FloorDiv: return bin(e.as<FloorDivNode>(), "//", kMul);
        case NodeKind::FloorMod: return bin(e.as<FloorModNode>(), "%", kMul);
        case NodeKind::Min: {
            auto* op = e.as<MinNode>();
            return "T.min(" + expr(op->a) + ", " + expr(op->b) + ")";
        }
        case NodeKind::Max: {
            auto* op = e.as<MaxNode>();
            return "T.max(" + expr(op->a) + ", " + expr(op->b) + ")";
        }
        case NodeKind::EQ: return bin(e.as<EQNode>(), "==", kCompare);
        case NodeKind::NE: return bin(e.as<NENode>(), "!=", kCompare);
        case NodeKind::LT: return bin(e.as<LTNode>(), "<", kCompare);
        case NodeKind::LE: return bin(e.as<LENode>(), "<=", kCompare);
        case NodeKind::GT: return bin(e.as<GTNode>(), ">", kCompare);
        case NodeKind::GE: return bin(e.as<GENode>(), ">=", kCompare);
        case NodeKind::And: return bin(e.as<AndNode>(), "and", kAnd);
        case NodeKind::Or: return bin(e.as<OrNode>(), "or", kOr);
        case NodeKind::Not: {
            prec = kNot;
            return "not " + expr(e.as<NotNode>()->a, kNot);
        }
        case NodeKind::Select: {
            auto* op = e.as<SelectNode>();
            return "T.Select(" + expr(op->condition) + ", " + expr(op->trueValue) + ", " +
                   expr(op->falseValue) + ")";
        }
        case NodeKind::Ramp: {
            auto* op = e.as<RampNode>();
            return "T.Ramp(" + expr(op->base) + ", " + expr(op->stride) + ", " + std::to_string(op->lanes) + ")";
        }
        case NodeKind::Broadcast: {
            auto* op = e.as<BroadcastNode>();
            return "T.Broadcast(" + expr(op->value) + ", " + std::to_string(op->lanes) + ")";
        }
        case NodeKind::Let: {
            auto* op = e.as<LetNode>();
            return "T.Let(" + expr(op->body) + ", where={" + name(op->var.get()) + ": " + expr(op->value) + "})";
        }
        case NodeKind::Call: {
            auto* op = e.as<CallNode>();
            if (op->op == Intrinsic::Extern)
                return "T.call_extern(\"" + op->type.str() + "\", \"" + op->name + "\"" +
                       (op->args.empty() ? "" : ", " + list(op->args)) + ")";
            if (op->op == Intrinsic::StorageSync) return "T.tvm_storage_sync(\"shared\")";
            return "T." + op->name + "(" + list(op->args) + ")";
        }
        case NodeKind::BufferLoad: {
            auto* op = e.as<BufferLoadNode>();
            return bufferName(op->buffer.get()) + "[" + list(op->indices) + "]";
        }
        case NodeKind::ProducerLoad: {
            auto* op = e.as<ProducerLoadNode>();
            return op->producer->producerName() + "[" + list(op->indices) + "]";
        }
        case NodeKind::Reduce: {
            auto* op = e.as<ReduceNode>();
            std::string ax;
            for (size_t i = 0; i < op->axis.size(); ++i) ax += (i ? ", " : "") + name(op->axis[i]->var.get());
            std::string s = "T." + std::string(reduceKindName(op->combiner)) + "(" + expr(op->source) +
                            ", axis=[" + ax + "]";
            if (op->condition.defined() && !isOneConst(op->condition)) s += ", where=" + expr(op->condition);
            return s + ")";
        }
        default: return "?";
        }
    }

    static bool isOneConst(const Expr& e) {
        auto* i = e.as<IntImmNode>();
        return i && i->value == 1;
    }

    void line(int indent, const std::string& text, const Object* node) {
        out.text.append(indent * 4, ' ');
        out.text += text;
        out.text += '\n';
        out.lineNode.push_back(node);
        int lineNo = static_cast<int>(out.lineNode.size());
        if (node) out.nodeLine.emplace(node, lineNo);
    }

    std::string shape(const std::vector<Expr>& s) {
        std::string r = "(";
        for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + expr(s[i]);
        if (s.size() == 1) r += ",";
        return r + ")";
    }

    void stmt(const Stmt& s, int ind) {
        if (!s.defined()) return;
        switch (s.kind()) {
        case NodeKind::LetStmt: {
            auto* op = s.as<LetStmtNode>();
            line(ind, name(op->var.get()) + ": T." + op->var.type().str() + " = " + expr(op->value), op);
            stmt(op->body, ind);
            break;
        }
        case NodeKind::AttrStmt: {
            auto* op = s.as<AttrStmtNode>();
            line(ind, "with T.attr(\"" + op->key + "\", " + expr(op->value) + "):", op);
            stmt(op->body, ind + 1);
            break;
        }
        case NodeKind::For: {
            auto* op = s.as<ForNode>();
            std::string range = isZeroConst(op->min) ? expr(op->extent)
                                                     : expr(op->min) + ", " + expr(op->min + op->extent);
            std::string head;
            bool plainRange = op->forKind == ForKind::Serial && op->annotations.empty();
            switch (op->forKind) {
            case ForKind::Serial: head = plainRange ? "range(" : "T.serial("; break;
            case ForKind::Parallel: head = "T.parallel("; break;
            case ForKind::Vectorized: head = "T.vectorized("; break;
            case ForKind::Unrolled: head = "T.unroll("; break;
            case ForKind::ThreadBinding: head = "T.thread_binding("; break;
            }
            head += range;
            if (op->forKind == ForKind::ThreadBinding) head += ", thread=\"" + op->threadTag + "\"";
            if (!op->annotations.empty()) {
                head += ", annotations={";
                for (size_t i = 0; i < op->annotations.size(); ++i)
                    head += (i ? ", \"" : "\"") + op->annotations[i].first + "\": " + expr(op->annotations[i].second);
                head += "}";
            }
            head += ")";
            line(ind, "for " + name(op->loopVar.get()) + " in " + head + ":", op);
            stmt(op->body, ind + 1);
            break;
        }
        case NodeKind::BufferStore: {
            auto* op = s.as<BufferStoreNode>();
            line(ind, bufferName(op->buffer.get()) + "[" + list(op->indices) + "] = " + expr(op->value), op);
            break;
        }
        case NodeKind::BufferRealize: {
            auto* op = s.as<BufferRealizeNode>();
            std::string r;
            for (size_t i = 0; i < op->bounds.size(); ++i)
                r += (i ? ", " : "") + expr(op->bounds[i].min) + ":" + expr(op->bounds[i].min + op->bounds[i].extent);
            line(ind, "with T.realize(" + bufferName(op->buffer.get()) + "[" + r + "], \"" + op->buffer->scope + "\"):", op);
            stmt(op->body, ind + 1);
            break;
        }
        case NodeKind::Allocate: {
            auto* op = s.as<AllocateNode>();
            std::string ext = "[" + list(op->buffer->shape) + "]";
            line(ind, bufferName(op->buffer.get()) + " = T.allocate(" + ext + ", \"" + op->buffer->dtype.str() +
                          "\", \"" + op->buffer->scope + "\")", op);
            stmt(op->body, ind);
            break;
        }
        case NodeKind::IfThenElse: {
            auto* op = s.as<IfThenElseNode>();
            line(ind, "if " + expr(op->condition) + ":", op);
            stmt(op->thenCase, ind + 1);
            if (op->elseCase.defined()) {
                line(ind, "else:", nullptr);
                stmt(op->elseCase, ind + 1);
            }
            break;
        }
        case NodeKind::SeqStmt:
            for (auto& c : s.as<SeqStmtNode>()->seq) stmt(c, ind);
            break;
        case NodeKind::Evaluate: {
            auto* op = s.as<EvaluateNode>();
            line(ind, "T.evaluate(" + expr(op->value) + ")", op);
            break;
        }
        default: line(ind, "?", s.get());
        }
    }

    static bool isZeroConst(const Expr& e) {
        auto* i = e.as<IntImmNode>();
        return i && i->value == 0;
    }

    void func(const PrimFunc& f) {
        line(0, "@T.prim_func", f.get());
        std::string params;
        for (size_t i = 0; i < f->params.size(); ++i) {
            auto& b = f->params[i];
            params += (i ? ", " : "") + bufferName(b.get()) + ": T.Buffer(" + shape(b->shape) + ", \"" +
                      b->dtype.str() + "\")";
        }
        line(0, "def " + f->name + "(" + params + "):", f.get());
        stmt(f->body, 1);
    }

private:
    std::unordered_map<const VarNode*, std::string> names_;
    std::unordered_set<std::string> used_;
};

} // namespace

AnnotatedText printPrimFunc(const PrimFunc& f) {
    Printer p;
    p.func(f);
    return std::move(p.out);
}

AnnotatedText printStmt(const Stmt& s) {
    Printer p;
    p.stmt(s, 0);
    return std::move(p.out);
}

std::string toString(const Expr& e) {
    Printer p;
    return p.expr(e);
}

std::string toString(const Stmt& s) { return printStmt(s).text; }
std::string toString(const PrimFunc& f) { return printPrimFunc(f).text; }

} // namespace tessel::tir
