// TIR -> C99. A small printer: statements become lines, expressions are
// printed with C precedence, vector values are printed one lane at a time
// inside a `for (lane ...)` loop around the statement that uses them. Every
// line remembers the TIR statement being printed when it was written (the
// line table).
#include "codegen/CodeGenC.h"

#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/IRVisitor.h"
#include "tir/passes/SplitHostDevice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace tessel::codegen {

namespace {

using namespace tessel::tir;

[[noreturn]] void fail(const std::string& msg) {
    throw CompileError("C codegen: " + msg);
}

/// C operator precedence, higher binds tighter.
enum Prec {
    kComma = 1,
    kCond,
    kLogOr,
    kLogAnd,
    kEq = 7,
    kRel,
    kAdd = 10,
    kMul,
    kUnary,
    kPostfix,
    kAtom
};

constexpr int64_t kMaxStackBytes = 64 * 1024;

const std::set<std::string>& cKeywords() {
    static const std::set<std::string> k = {
        "auto",     "break",  "case",   "char",     "const",    "continue", "default",  "do",
        "double",   "else",   "enum",   "extern",   "float",    "for",      "goto",     "if",
        "inline",   "int",    "long",   "register", "restrict", "return",   "short",    "signed",
        "sizeof",   "static", "struct", "switch",   "typedef",  "union",    "unsigned", "void",
        "volatile", "while",  "bool",   "true",     "false",    "args",     "main",     "free",
        "exp",      "log",    "abs"};
    return k;
}

class CodeGenC {
public:
    /// CUDA C: `f` is one kernel (tir::splitHostDevice); `launch` the extent
    /// of each thread tag it is launched with.
    void setCuda(std::map<std::string, int64_t> launch) {
        cuda_ = true;
        launch_ = std::move(launch);
    }

    /// The kernel's definition alone (CUDA), and what the file needs before it.
    struct Piece {
        std::string text;
        std::vector<int> toTir;
        std::map<std::string, std::string> helpers, externs;
    };

    Piece kernel(const PrimFunc& f) {
        if (!f.defined() || f->name.empty()) fail("undefined function or function without a name");
        tir_ = tir::printPrimFunc(f);
        int defLine = tir_.lineOf(f.get());
        defLine = defLine > 0 ? defLine + 1 : 0;
        tirLine_ = defLine;
        laneVar_ = freshName("lane");
        std::string fname = sanitize(f->name);
        if (fname != f->name) fail("function name '" + f->name + "' is not a C identifier");
        used_.insert(fname);
        std::string params;
        for (size_t i = 0; i < f->params.size(); ++i) {
            const Buffer& b = f->params[i];
            params += (i ? ", " : "") + cType(b->dtype) + "* __restrict__ " + name(b->data.get());
            declared_.insert(b->data.get());
        }
        indent_ = 1;
        stmt(f->body);
        int64_t threads = 1;
        for (const char* t : {"threadIdx.x", "threadIdx.y", "threadIdx.z"})
            if (auto it = launch_.find(t); it != launch_.end()) threads *= it->second;
        std::string bounds = std::to_string(threads);
        if (int64_t blocks = tir::launchMinBlocks(f->body)) bounds += ", " + std::to_string(blocks);
        Piece out;
        out.text = "extern \"C\" __global__ void __launch_bounds__(" + bounds + ") " + f->name + "(" + params + ") {\n";
        out.toTir.push_back(defLine);
        for (size_t i = 0; i < body_.size(); ++i) {
            out.text += body_[i] + "\n";
            out.toTir.push_back(bodyTir_[i]);
        }
        out.text += "}\n";
        out.toTir.push_back(defLine);
        out.helpers = helpers_;
        out.externs = externs_;
        return out;
    }

    CSource run(const PrimFunc& f) {
        if (!f.defined() || f->name.empty()) fail("undefined function or function without a name");
        tir_ = tir::printPrimFunc(f);
        int defLine = tir_.lineOf(f.get());
        defLine = defLine > 0 ? defLine + 1 : 0; // the "def" line after the decorator
        tirLine_ = defLine;
        laneVar_ = freshName("lane");
        std::string fname = sanitize(f->name);
        if (fname != f->name) fail("function name '" + f->name + "' is not a C identifier");
        used_.insert(fname);

        indent_ = 1;
        for (size_t i = 0; i < f->params.size(); ++i) {
            const Buffer& b = f->params[i];
            std::string n = name(b->data.get());
            std::string shape;
            for (size_t k = 0; k < b->shape.size(); ++k)
                shape += (k ? ", " : "") + toString(b->shape[k]);
            line(cType(b->dtype) + "* restrict " + n + " = (" + cType(b->dtype) + "*)args[" +
                 std::to_string(i) + "]; /* " + b->dtype.str() + "[" + shape + "] */");
            declared_.insert(b->data.get());
        }
        if (!f->params.empty()) blankLine();
        stmt(f->body);
        line("return 0;");

        std::ostringstream file;
        file << "/* Generated by Tessel from the TIR function \"" << f->name << "\".\n"
             << " * ABI: int32_t " << f->name << "(void* const* args), one pointer per buffer\n"
             << " * parameter in order; returns 0 on success. */\n"
             << (usesHeap_ ? "#define _POSIX_C_SOURCE 200112L /* posix_memalign */\n" : "")
             << "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n#include "
                "<stdlib.h>\n\n";
        if (!helpers_.empty()) {
            for (auto& [key, text] : helpers_)
                file << text;
            file << "\n";
        }
        if (!externs_.empty()) {
            for (auto& [n, proto] : externs_)
                file << proto << "\n";
            file << "\n";
        }
        // The file: the header lines link to nothing, the function's own
        // lines (signature, unpacking, return, closing brace) to its `def`.
        CSource out;
        out.text = file.str();
        out.lines.toTir.assign(size_t(std::count(out.text.begin(), out.text.end(), '\n')), 0);
        out.text += "int32_t " + f->name + "(void* const* args) {\n";
        out.lines.toTir.push_back(defLine);
        for (size_t i = 0; i < body_.size(); ++i) {
            out.text += body_[i];
            out.text += '\n';
            out.lines.toTir.push_back(bodyTir_[i]);
        }
        out.text += "}\n";
        out.lines.toTir.push_back(defLine);
        out.lines.buildReverse();
        return out;
    }

private:
    // -- names and types ----------------------------------------------------------

    static std::string sanitize(const std::string& s) {
        std::string r;
        for (char c : s)
            r += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
        if (r.empty() || std::isdigit(static_cast<unsigned char>(r[0]))) r = "v" + r;
        return r;
    }

    std::string freshName(const std::string& hint) {
        std::string base = sanitize(hint);
        if (cKeywords().count(base)) base += "_";
        std::string n = base;
        for (int i = 1; used_.count(n); ++i)
            n = base + "_" + std::to_string(i);
        used_.insert(n);
        return n;
    }

    std::string name(const VarNode* v) {
        auto it = names_.find(v);
        if (it != names_.end()) return it->second;
        return names_[v] = freshName(v->name.empty() ? "v" : v->name);
    }

    static std::string cType(DataType t) {
        if (t.isVector()) fail("no C type for vector type " + t.str());
        switch (t.code()) {
        case DataType::Code::Int:
            return "int" + std::to_string(t.bits()) + "_t";
        case DataType::Code::UInt:
            return t.bits() == 1 ? "bool" : "uint" + std::to_string(t.bits()) + "_t";
        case DataType::Code::Float:
            if (t.bits() == 32) return "float";
            if (t.bits() == 64) return "double";
            if (t.bits() == 16) return "_Float16";
            break;
        case DataType::Code::Handle:
            return "void*";
        case DataType::Code::Void:
            return "void";
        }
        fail("no C type for " + t.str());
    }

    static std::string suffix(DataType t) {
        char c = t.isFloat() ? 'f' : t.isInt() ? 'i' : 'u';
        return c + std::to_string(t.bits());
    }

    // -- output -------------------------------------------------------------------

    /// Writes one line of the function body, for the TIR line being printed.
    void line(const std::string& text) {
        body_.push_back(std::string(size_t(indent_) * 4, ' ') + text);
        bodyTir_.push_back(tirLine_);
    }

    void blankLine() {
        body_.emplace_back();
        bodyTir_.push_back(0);
    }

    void helper(const std::string& key, const std::string& text) { helpers_.emplace(key, text); }

    // -- expressions --------------------------------------------------------------

    std::string expr(const Expr& e, int ctx = 0) {
        int prec = kAtom;
        std::string s = exprImpl(e, prec);
        return prec < ctx ? "(" + s + ")" : s;
    }

    void needLane(const Expr& e) {
        if (laneActive_.empty())
            fail("vector value " + toString(e) + " outside a vector statement");
    }

    std::string literalInt(DataType t, int64_t v, int& prec) {
        if (t.isBool()) return v ? "true" : "false";
        if (t.isInt() && t.bits() == 32) {
            if (v == INT32_MIN) {
                prec = kAdd;
                return "-2147483647 - 1";
            }
            if (v < 0) prec = kUnary;
            return std::to_string(v);
        }
        if (t.isInt() && t.bits() == 64) {
            if (v == INT64_MIN) return "INT64_MIN";
            return "INT64_C(" + std::to_string(v) + ")";
        }
        if (t.code() == DataType::Code::UInt && t.bits() == 64)
            return "UINT64_C(" + std::to_string(uint64_t(v)) + ")";
        prec = kUnary;
        return "(" + cType(t) + ")" + std::to_string(v);
    }

    std::string literalFloat(DataType t, double v, int& prec) {
        if (std::isnan(v)) return t.bits() == 64 ? "(double)NAN" : "NAN";
        if (std::isinf(v)) {
            if (v < 0) prec = kUnary;
            return v > 0 ? "INFINITY" : "-INFINITY";
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, t.bits() == 64 ? "%.17g" : "%.9g", v);
        std::string s = buf;
        if (s.find_first_of(".e") == std::string::npos) s += ".0";
        if (v < 0) prec = kUnary;
        if (t.bits() == 32) return s + "f";
        if (t.bits() == 16) {
            prec = kUnary;
            return "(_Float16)" + s + "f";
        }
        return s;
    }

    std::string binary(const Expr& a, const Expr& b, const char* op, int p, int& prec) {
        prec = p;
        return expr(a, p) + " " + op + " " + expr(b, p + 1);
    }

    std::string call(const std::string& fn, const std::vector<Expr>& args) {
        std::string s = fn + "(";
        for (size_t i = 0; i < args.size(); ++i)
            s += (i ? ", " : "") + expr(args[i], kCond);
        return s + ")";
    }

    /// The libm name for a float type: expf / exp.
    static std::string mathFn(const char* base, DataType t) {
        return t.element().bits() == 64 ? std::string(base) : std::string(base) + "f";
    }

    std::string minMax(bool isMin, const Expr& a, const Expr& b, DataType t) {
        DataType s = t.element();
        std::string ty = cType(s);
        std::string fn = std::string("tessel_") + (isMin ? "min_" : "max_") + suffix(s);
        helper(fn, "static inline " + ty + " " + fn + "(" + ty + " a, " + ty + " b) { return a " +
                       (isMin ? "<" : ">") + " b ? a : b; }\n");
        return fn + "(" + expr(a, kCond) + ", " + expr(b, kCond) + ")";
    }

    std::string floorDivMod(bool isDiv, const Expr& a, const Expr& b, DataType t, int& prec) {
        DataType s = t.element();
        if (s.isFloat()) {
            if (isDiv)
                return mathFn("floor", s) + "(" + expr(a, kMul) + " / " + expr(b, kUnary) + ")";
            std::string fn = "tessel_floormod_" + suffix(s);
            std::string ty = cType(s);
            helper(fn, "static inline " + ty + " " + fn + "(" + ty + " a, " + ty +
                           " b) { return a - " + mathFn("floor", s) + "(a / b) * b; }\n");
            return fn + "(" + expr(a, kCond) + ", " + expr(b, kCond) + ")";
        }
        if (s.code() == DataType::Code::UInt) return binary(a, b, isDiv ? "/" : "%", kMul, prec);
        std::string ty = cType(s);
        std::string fn = std::string("tessel_floor") + (isDiv ? "div_" : "mod_") + suffix(s);
        if (isDiv)
            helper(fn, "static inline " + ty + " " + fn + "(" + ty + " a, " + ty + " b) {\n    " +
                           ty +
                           " q = a / b, r = a % b;\n    return (r != 0 && ((r < 0) != (b < 0))) ? "
                           "q - 1 : q;\n}\n");
        else
            helper(
                fn,
                "static inline " + ty + " " + fn + "(" + ty + " a, " + ty + " b) {\n    " + ty +
                    " r = a % b;\n    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n}\n");
        return fn + "(" + expr(a, kCond) + ", " + expr(b, kCond) + ")";
    }

    /// `&buf[index]` at the current lane, for prefetch.
    std::string address(const BufferLoadNode* op) {
        return "&" + name(op->buffer->data.get()) + "[" +
               expr(singleIndex(op->buffer, op->indices)) + "]";
    }

    static const Expr& singleIndex(const Buffer& b, const std::vector<Expr>& indices) {
        if (indices.size() != 1)
            fail("access to buffer '" + b->name + "' has " + std::to_string(indices.size()) +
                 " indices: flatten storage before codegen");
        return indices[0];
    }

    std::string exprImpl(const Expr& e, int& prec) {
        if (!e.defined()) fail("undefined expression");
        DataType t = e.type();
        if (t.isVector()) needLane(e);
        switch (e.kind()) {
        case NodeKind::IntImm:
            return literalInt(t, e.as<IntImmNode>()->value, prec);
        case NodeKind::FloatImm:
            return literalFloat(t, e.as<FloatImmNode>()->value, prec);
        case NodeKind::StringImm: {
            std::string s = "\"";
            for (char c : e.as<StringImmNode>()->value) {
                if (c == '"' || c == '\\') s += '\\';
                if (c == '\n')
                    s += "\\n";
                else
                    s += c;
            }
            return s + "\"";
        }
        case NodeKind::Var: {
            auto* v = e.as<VarNode>();
            if (!declared_.count(v)) fail("variable '" + v->name + "' is used outside its scope");
            if (t.isVector()) {
                prec = kPostfix;
                return name(v) + "[" + laneVar_ + "]";
            }
            return name(v);
        }
        case NodeKind::Cast: {
            auto* op = e.as<CastNode>();
            if (t.element().isBool()) {
                prec = kEq;
                return expr(op->value, kEq) + " != 0";
            }
            prec = kUnary;
            return "(" + cType(t.element()) + ")" + expr(op->value, kUnary);
        }
        case NodeKind::Add:
            return binary(e.as<AddNode>()->a, e.as<AddNode>()->b, "+", kAdd, prec);
        case NodeKind::Sub:
            return binary(e.as<SubNode>()->a, e.as<SubNode>()->b, "-", kAdd, prec);
        case NodeKind::Mul:
            return binary(e.as<MulNode>()->a, e.as<MulNode>()->b, "*", kMul, prec);
        case NodeKind::Div:
            return binary(e.as<DivNode>()->a, e.as<DivNode>()->b, "/", kMul, prec);
        case NodeKind::Mod: {
            auto* op = e.as<ModNode>();
            if (t.isFloat())
                return mathFn("fmod", t) + "(" + expr(op->a, kCond) + ", " + expr(op->b, kCond) +
                       ")";
            return binary(op->a, op->b, "%", kMul, prec);
        }
        case NodeKind::FloorDiv:
            return floorDivMod(true, e.as<FloorDivNode>()->a, e.as<FloorDivNode>()->b, t, prec);
        case NodeKind::FloorMod:
            return floorDivMod(false, e.as<FloorModNode>()->a, e.as<FloorModNode>()->b, t, prec);
        case NodeKind::Min:
            return minMax(true, e.as<MinNode>()->a, e.as<MinNode>()->b, t);
        case NodeKind::Max:
            return minMax(false, e.as<MaxNode>()->a, e.as<MaxNode>()->b, t);
        case NodeKind::EQ:
            return binary(e.as<EQNode>()->a, e.as<EQNode>()->b, "==", kEq, prec);
        case NodeKind::NE:
            return binary(e.as<NENode>()->a, e.as<NENode>()->b, "!=", kEq, prec);
        case NodeKind::LT:
            return binary(e.as<LTNode>()->a, e.as<LTNode>()->b, "<", kRel, prec);
        case NodeKind::LE:
            return binary(e.as<LENode>()->a, e.as<LENode>()->b, "<=", kRel, prec);
        case NodeKind::GT:
            return binary(e.as<GTNode>()->a, e.as<GTNode>()->b, ">", kRel, prec);
        case NodeKind::GE:
            return binary(e.as<GENode>()->a, e.as<GENode>()->b, ">=", kRel, prec);
        case NodeKind::And:
            return binary(e.as<AndNode>()->a, e.as<AndNode>()->b, "&&", kLogAnd, prec);
        case NodeKind::Or:
            return binary(e.as<OrNode>()->a, e.as<OrNode>()->b, "||", kLogOr, prec);
        case NodeKind::Not: {
            prec = kUnary;
            return "!" + expr(e.as<NotNode>()->a, kUnary);
        }
        case NodeKind::Select: {
            auto* op = e.as<SelectNode>();
            prec = kCond;
            return expr(op->condition, kLogOr) + " ? " + expr(op->trueValue, kCond) + " : " +
                   expr(op->falseValue, kCond);
        }
        case NodeKind::Ramp: {
            auto* op = e.as<RampNode>();
            prec = kAdd;
            if (isOne(op->stride)) return expr(op->base, kAdd) + " + " + laneVar_;
            return expr(op->base, kAdd) + " + " + laneVar_ + " * " + expr(op->stride, kUnary);
        }
        case NodeKind::Broadcast:
            return exprImpl(e.as<BroadcastNode>()->value, prec);
        case NodeKind::Let: {
            auto* op = e.as<LetNode>();
            if (op->var.type().isVector()) fail("a vector Let expression cannot be printed as C");
            std::string v = name(op->var.get());
            bool had = declared_.count(op->var.get()) > 0;
            declared_.insert(op->var.get());
            std::string s = "({ " + cType(op->var.type()) + " " + v + " = " +
                            expr(op->value, kCond) + "; " + expr(op->body, kCond) + "; })";
            if (!had) declared_.erase(op->var.get());
            return s;
        }
        case NodeKind::Call:
            return emitCall(e.as<CallNode>(), prec);
        case NodeKind::BufferLoad: {
            auto* op = e.as<BufferLoadNode>();
            const Expr& index = singleIndex(op->buffer, op->indices);
            if (!declared_.count(op->buffer->data.get()))
                fail("buffer '" + op->buffer->name + "' is neither a parameter nor allocated here");
            prec = kPostfix;
            return name(op->buffer->data.get()) + "[" + expr(index) + "]";
        }
        case NodeKind::ProducerLoad:
            fail("a tensor read is left: lower the schedule before codegen");
        case NodeKind::Reduce:
            fail("a reduction is left: lower the schedule before codegen");
        default:
            fail(std::string("unsupported expression ") + nodeKindName(e.kind()));
        }
    }

    std::string emitCall(const CallNode* op, int& prec) {
        DataType t = op->type;
        const auto& a = op->args;
        auto need = [&](size_t n) {
            if (a.size() != n)
                fail(std::string(intrinsicName(op->op)) + " takes " + std::to_string(n) +
                     " argument(s)");
        };
        auto math1 = [&](const char* base) {
            need(1);
            return mathFn(base, t) + "(" + expr(a[0], kCond) + ")";
        };
        // On a GPU, float32 exp and log are what the PTX computes: CUDA's
        // __expf and __logf (ex2.approx, lg2.approx; CodeGenHooks_NVPTX).
        const bool approx = cuda_ && t.element().isFloat() && t.element().bits() == 32;
        switch (op->op) {
        case Intrinsic::Exp:
            if (approx) {
                need(1);
                return "__expf(" + expr(a[0], kCond) + ")";
            }
            return math1("exp");
        case Intrinsic::Log:
            if (approx) {
                need(1);
                return "__logf(" + expr(a[0], kCond) + ")";
            }
            return math1("log");
        case Intrinsic::Sqrt:
            return math1("sqrt");
        case Intrinsic::Tanh:
            return math1("tanh");
        case Intrinsic::Erf:
            return math1("erf");
        case Intrinsic::Floor:
            return math1("floor");
        case Intrinsic::Ceil:
            return math1("ceil");
        case Intrinsic::Round:
            return math1("round");
        case Intrinsic::Trunc:
            return math1("trunc");
        case Intrinsic::RoundEven: // halves to even in the default rounding mode
            return math1("nearbyint");
        case Intrinsic::Sin:
            return math1("sin");
        case Intrinsic::Cos:
            return math1("cos");
        case Intrinsic::Rsqrt: {
            prec = kMul;
            std::string one = t.element().bits() == 64 ? "1.0" : "1.0f";
            return one + " / " + math1("sqrt");
        }
        case Intrinsic::Sigmoid: {
            need(1);
            prec = kMul;
            std::string one = t.element().bits() == 64 ? "1.0" : "1.0f";
            return one + " / (" + one + " + " + mathFn("exp", t) + "(-" + expr(a[0], kUnary) + "))";
        }
        case Intrinsic::Fma:
            need(3);
            return mathFn("fma", t) + "(" + expr(a[0], kCond) + ", " + expr(a[1], kCond) + ", " +
                   expr(a[2], kCond) + ")";
        case Intrinsic::Pow:
            need(2);
            return mathFn("pow", t) + "(" + expr(a[0], kCond) + ", " + expr(a[1], kCond) + ")";
        case Intrinsic::Abs: {
            need(1);
            if (t.isFloat()) return math1("fabs");
            if (t.code() == DataType::Code::UInt) return expr(a[0], prec);
            std::string ty = cType(t.element());
            std::string fn = "tessel_abs_" + suffix(t.element());
            helper(fn, "static inline " + ty + " " + fn + "(" + ty +
                           " a) { return a < 0 ? -a : a; }\n");
            return fn + "(" + expr(a[0], kCond) + ")";
        }
        case Intrinsic::PairDotI16: {
            // Products of int16 halves fit int32; their sum wraps like int32
            // (added as unsigned: signed overflow is undefined in C).
            need(2);
            helper("tessel_pair_dot_i16",
                   "static inline int32_t tessel_pair_dot_i16(int32_t a, int32_t b) {\n"
                   "    int32_t lo = (int32_t)(int16_t)a * (int32_t)(int16_t)b;\n"
                   "    int32_t hi = (int32_t)(int16_t)((uint32_t)a >> 16) * (int32_t)(int16_t)((uint32_t)b >> 16);\n"
                   "    return (int32_t)((uint32_t)lo + (uint32_t)hi);\n}\n");
            return "tessel_pair_dot_i16(" + expr(a[0], kCond) + ", " + expr(a[1], kCond) + ")";
        }
        case Intrinsic::Likely:
            need(1);
            return "__builtin_expect(" + expr(a[0], kCond) + ", 1)";
        case Intrinsic::StorageSync:
            // One CPU thread runs the whole block: nothing to wait for.
            if (cuda_) return "(__syncthreads(), 0)";
            return "0 /* tvm_storage_sync(\"shared\") */";
        case Intrinsic::Prefetch: {
            prec = kComma;
            if (!a.empty())
                if (auto* load = a[0].as<BufferLoadNode>())
                    return "__builtin_prefetch(" + address(load) + "), 0";
            return "0";
        }
        case Intrinsic::Extern: {
            std::string proto = "extern " + cType(t.element()) + " " + op->name + "(";
            for (size_t i = 0; i < a.size(); ++i)
                proto += (i ? ", " : "") + cType(a[i].type().element());
            proto += (a.empty() ? "void" : "") + std::string(");");
            auto [it, fresh] = externs_.emplace(op->name, proto);
            if (!fresh && it->second != proto)
                fail("extern function '" + op->name + "' is called with two different signatures");
            return call(op->name, a);
        }
        default:
            fail(std::string("unsupported intrinsic ") + intrinsicName(op->op));
        }
    }

    // -- statements -----------------------------------------------------------------

    /// Runs `emit` with the lane variable active when `lanes` > 1, inside a lane loop.
    template <class F> void laneLoop(int lanes, F&& emit) {
        if (lanes <= 1) {
            emit();
            return;
        }
        line("for (int32_t " + laneVar_ + " = 0; " + laneVar_ + " < " + std::to_string(lanes) +
             "; ++" + laneVar_ + ") {");
        ++indent_;
        laneActive_.push_back(true);
        emit();
        laneActive_.pop_back();
        --indent_;
        line("}");
    }

    /// Declares `v`; when the name was declared before in this function, opens a block.
    bool openScopeFor(const VarNode* v) {
        if (!declared_.count(v) && !everDeclared_.count(v)) {
            everDeclared_.insert(v);
            declared_.insert(v);
            return false;
        }
        line("{");
        ++indent_;
        declared_.insert(v);
        return true;
    }

    void closeScope(const VarNode* v, bool block) {
        declared_.erase(v);
        if (block) {
            --indent_;
            line("}");
        }
    }

    /// Prints `s`; its lines (and those of statements without a line of their
    /// own inside it) link to its line of the TIR text.
    void stmt(const Stmt& s) {
        if (!s.defined()) return;
        int saved = tirLine_;
        if (int l = tir_.lineOf(s.get())) tirLine_ = l;
        stmtImpl(s);
        tirLine_ = saved;
    }

    void stmtImpl(const Stmt& s) {
        switch (s.kind()) {
        case NodeKind::LetStmt: {
            auto* op = s.as<LetStmtNode>();
            DataType t = op->var.type();
            std::string value;
            bool block = openScopeFor(op->var.get());
            declared_.erase(op->var.get()); // the value cannot see the variable
            std::string n = name(op->var.get());
            if (t.isVector()) {
                line(cType(t.element()) + " " + n + "[" + std::to_string(t.lanes()) + "];");
                laneLoop(t.lanes(),
                         [&] { line(n + "[" + laneVar_ + "] = " + expr(op->value) + ";"); });
            } else {
                line(cType(t) + " " + n + " = " + expr(op->value) + ";");
            }
            declared_.insert(op->var.get());
            stmt(op->body);
            closeScope(op->var.get(), block);
            break;
        }
        case NodeKind::AttrStmt: {
            auto* op = s.as<AttrStmtNode>();
            line("/* attr \"" + op->key + "\" = " + toString(op->value) + " */");
            stmt(op->body);
            break;
        }
        case NodeKind::For:
            emitFor(s.as<ForNode>());
            break;
        case NodeKind::BufferStore: {
            auto* op = s.as<BufferStoreNode>();
            const Expr& index = singleIndex(op->buffer, op->indices);
            if (!declared_.count(op->buffer->data.get()))
                fail("buffer '" + op->buffer->name + "' is neither a parameter nor allocated here");
            int lanes = index.type().lanes();
            if (op->value.type().lanes() != 1 && op->value.type().lanes() != lanes)
                fail("store of " + op->value.type().str() + " to " + std::to_string(lanes) +
                     " lane(s) of '" + op->buffer->name + "'");
            laneLoop(lanes, [&] {
                line(name(op->buffer->data.get()) + "[" + expr(index) + "] = " + expr(op->value) +
                     ";");
            });
            break;
        }
        case NodeKind::Allocate:
            emitAllocate(s.as<AllocateNode>());
            break;
        case NodeKind::IfThenElse: {
            auto* op = s.as<IfThenElseNode>();
            if (op->condition.type().isVector()) fail("if condition must be a scalar bool");
            line("if (" + expr(op->condition) + ") {");
            ++indent_;
            stmt(op->thenCase);
            --indent_;
            if (op->elseCase.defined()) {
                line("} else {");
                ++indent_;
                stmt(op->elseCase);
                --indent_;
            }
            line("}");
            break;
        }
        case NodeKind::SeqStmt:
            for (auto& c : s.as<SeqStmtNode>()->seq)
                stmt(c);
            break;
        case NodeKind::Evaluate: {
            auto* op = s.as<EvaluateNode>();
            if (op->value.as<IntImmNode>() || op->value.as<FloatImmNode>()) break;
            if (auto* c = op->value.as<CallNode>(); c && c->op == Intrinsic::StorageSync) {
                line(cuda_ ? "__syncthreads();" : "/* tvm_storage_sync(\"shared\"): one CPU thread runs the block */");
                break;
            }
            laneLoop(op->value.type().lanes(), [&] { line("(void)(" + expr(op->value) + ");"); });
            break;
        }
        case NodeKind::BufferRealize:
            fail("a buffer is still realized: flatten storage before codegen");
        default:
            fail(std::string("unsupported statement ") + nodeKindName(s.kind()));
        }
    }

    void emitFor(const ForNode* op) {
        DataType vt = op->loopVar.type();
        if (!vt.isIntOrUInt() || vt.isVector())
            fail("loop variable '" + op->loopVar->name + "' is not a scalar integer");
        if (cuda_ && op->forKind == ForKind::ThreadBinding && !tir::isVirtualThreadTag(op->threadTag)) {
            // The loop is the block's threads (or the grid's blocks): an index, and
            // a guard where this loop is shorter than the launch.
            bool had = declared_.count(op->loopVar.get()) > 0;
            declared_.insert(op->loopVar.get());
            std::string v = name(op->loopVar.get());
            std::string value = "(" + cType(vt) + ")" + op->threadTag;
            if (!isZero(op->min)) value = expr(cast(vt, op->min), kAdd) + " + " + value;
            line("{");
            ++indent_;
            line("const " + cType(vt) + " " + v + " = " + value + ";");
            auto ext = asConstInt(op->extent);
            bool guard = !ext || *ext < launch_[op->threadTag];
            if (guard) {
                line("if (" + v + " < " + expr(cast(vt, op->min + op->extent), kRel + 1) + ") {");
                ++indent_;
            }
            stmt(op->body);
            if (guard) {
                --indent_;
                line("}");
            }
            --indent_;
            line("}");
            if (!had) declared_.erase(op->loopVar.get());
            return;
        }
        if (cuda_ && op->forKind == ForKind::Parallel)
            fail("loop '" + op->loopVar->name + "' is parallel inside a CUDA kernel: bind it to threads instead");
        switch (op->forKind) {
        case ForKind::Parallel:
            line("#pragma omp parallel for /* parallel: one chunk per thread */");
            break;
        case ForKind::Vectorized:
            line("/* vectorized */");
            break;
        case ForKind::Unrolled:
            line("/* unrolled */");
            break;
        case ForKind::Serial:
            break;
        case ForKind::ThreadBinding:
            line("/* bound to " + op->threadTag + ": a serial loop on a CPU */");
            break;
        }
        // The loop variable lives in the for statement's own scope.
        std::string mn = expr(cast(vt, op->min));
        std::string end = isZero(op->min) ? expr(cast(vt, op->extent), kRel + 1)
                                          : expr(cast(vt, op->min + op->extent), kRel + 1);
        bool had = declared_.count(op->loopVar.get()) > 0;
        declared_.insert(op->loopVar.get());
        std::string v = name(op->loopVar.get());
        line("for (" + cType(vt) + " " + v + " = " + mn + "; " + v + " < " + end + "; ++" + v +
             ") {");
        ++indent_;
        parallelDepth_ += op->forKind == ForKind::Parallel;
        stmt(op->body);
        parallelDepth_ -= op->forKind == ForKind::Parallel;
        --indent_;
        line("}");
        if (!had) declared_.erase(op->loopVar.get());
    }

    void emitAllocate(const AllocateNode* op) {
        const Buffer& b = op->buffer;
        DataType elem = b->dtype.element();
        std::string ty = cType(elem);
        int64_t count = 1;
        bool constant = true;
        for (auto& s : b->shape) {
            auto c = asConstInt(s);
            if (!c)
                constant = false;
            else
                count *= *c;
        }
        int64_t bytes = count * std::max(1, elem.bytes());
        bool block = openScopeFor(b->data.get());
        std::string n = name(b->data.get());
        if (cuda_) {
            if (!constant) fail("buffer '" + b->name + "' has no constant size: a CUDA kernel cannot allocate it");
            if (b->scope == "global")
                fail("buffer '" + b->name + "' is global memory allocated inside a kernel");
            line(std::string(b->scope == "shared" ? "__shared__ " : "") + "__align__(16) " + ty + " " + n + "[" +
                 std::to_string(std::max<int64_t>(count, 1)) + "];");
            stmt(op->body);
            closeScope(b->data.get(), block);
            return;
        }
        bool stack = constant && b->scope == "local" && bytes <= kMaxStackBytes;
        if (stack) {
            line(ty + " " + n + "[" + std::to_string(std::max<int64_t>(count, 1)) +
                 "] __attribute__((aligned(64)));");
            stmt(op->body);
        } else {
            std::string size;
            if (constant) {
                size = std::to_string(((std::max<int64_t>(bytes, 1) + 63) / 64) * 64);
            } else {
                std::string prod = "(size_t)" + std::to_string(std::max(1, elem.bytes()));
                for (auto& s : b->shape)
                    prod += " * (size_t)" + expr(s, kUnary);
                size = "((" + prod + " + 63) / 64 * 64)";
            }
            usesHeap_ = true;
            helper("tessel_alloc",
                   "/* 64-byte aligned heap memory (NULL when there is none). */\n"
                   "static inline void* tessel_alloc(size_t bytes) {\n"
                   "    void* p = NULL;\n"
                   "    return posix_memalign(&p, 64, bytes) == 0 ? p : NULL;\n}\n");
            line(ty + "* " + n + " = (" + ty + "*)tessel_alloc(" + size + "); /* " + b->scope +
                 " */");
            // An OpenMP loop body cannot return; there, running out of memory aborts.
            line(parallelDepth_ ? "if (!" + n + ") abort();" : "if (!" + n + ") return -1;");
            stmt(op->body);
            line("free(" + n + ");");
        }
        closeScope(b->data.get(), block);
    }

    /// printPrimFunc() of the function: the line table's other side.
    AnnotatedText tir_;
    /// The TIR line of the statement being printed.
    int tirLine_ = 0;
    /// The function body's lines (without newlines) and their TIR lines.
    std::vector<std::string> body_;
    std::vector<int> bodyTir_;
    int indent_ = 1;
    int parallelDepth_ = 0;
    bool cuda_ = false;
    std::map<std::string, int64_t> launch_;
    bool usesHeap_ = false;
    std::string laneVar_;
    std::vector<bool> laneActive_;
    std::unordered_map<const VarNode*, std::string> names_;
    std::set<std::string> used_;
    std::unordered_set<const VarNode*> declared_, everDeclared_;
    std::map<std::string, std::string> helpers_;
    std::map<std::string, std::string> externs_;
};

} // namespace

CSource emitCudaC(const std::vector<tir::PrimFunc>& kernels) {
    std::map<std::string, std::string> helpers, externs;
    std::vector<CodeGenC::Piece> pieces;
    for (auto& k : kernels) {
        std::map<std::string, int64_t> launch;
        tir::postOrderVisit(k->body, [&](const Object* n) {
            auto* st = dynamic_cast<const BaseStmtNode*>(n);
            if (!st || st->kind != NodeKind::For) return;
            auto* loop = static_cast<const ForNode*>(st);
            if (loop->forKind != ForKind::ThreadBinding) return;
            auto ext = asConstInt(loop->extent);
            if (!ext) fail("the loop bound to " + loop->threadTag + " has no constant extent");
            launch[loop->threadTag] = std::max(launch[loop->threadTag], *ext);
        });
        CodeGenC g;
        g.setCuda(launch);
        pieces.push_back(g.kernel(k));
        helpers.insert(pieces.back().helpers.begin(), pieces.back().helpers.end());
        externs.insert(pieces.back().externs.begin(), pieces.back().externs.end());
    }
    std::ostringstream file;
    file << "// Generated by Tessel: CUDA C of " << kernels.size() << " kernel" << (kernels.size() == 1 ? "" : "s")
         << " (nvcc -c).\n#include <math.h>\n#include <stdint.h>\n\n";
    for (auto& [key, text] : helpers) {
        std::string t = text;
        // Helpers run on the device.
        for (size_t at = t.find("static inline"); at != std::string::npos; at = t.find("static inline", at + 1))
            t.replace(at, 13, "static __device__ inline");
        file << t;
    }
    if (!helpers.empty()) file << "\n";
    CSource out;
    out.text = file.str();
    out.lines.toTir.assign(size_t(std::count(out.text.begin(), out.text.end(), '\n')), 0);
    for (size_t i = 0; i < pieces.size(); ++i) {
        if (i) {
            out.text += "\n";
            out.lines.toTir.push_back(0);
        }
        out.text += pieces[i].text;
        out.lines.toTir.insert(out.lines.toTir.end(), pieces[i].toTir.begin(), pieces[i].toTir.end());
    }
    out.lines.buildReverse();
    return out;
}

CSource emitC(const tir::PrimFunc& f) {
    CodeGenC cg;
    return cg.run(f);
}

} // namespace tessel::codegen
