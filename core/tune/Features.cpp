#include "tune/Features.h"

#include "tir/IROperators.h"
#include "tir/IRVisitor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace tessel::tune {

namespace {

constexpr float kMissing = std::numeric_limits<float>::quiet_NaN();

float lg(double x) { return float(std::log2(1.0 + std::max(0.0, x))); }

// ---------------------------------------------------------------- analysis

/// One loop around a statement.
struct Loop {
    const tir::VarNode* var = nullptr;
    int64_t extent = 1;
    tir::ForKind kind = tir::ForKind::Serial;
};

/// One access of a statement: a buffer and the index of each dimension.
struct Access {
    tir::Buffer buffer;
    std::vector<tir::Expr> indices;
};

/// A store with the loops around it and what it reads.
struct Leaf {
    std::vector<Loop> loops; // outer to inner, loops of extent 1 left out
    std::vector<Access> accesses; // the store first, then the loads in order
    double executions = 1;
    int adds = 0, muls = 0, divs = 0, others = 0; // float operations per execution (times lanes)
};

struct FunctionFacts {
    std::vector<Leaf> leaves;
    int loops = 0, parallel = 0, vectorized = 0, unrolled = 0, allocations = 0;
    double globalBytes = 0, localBytes = 0;
};

class Collector : public tir::IRVisitor {
public:
    FunctionFacts facts;

protected:
    using IRVisitor::visit;

    void visit(const tir::ForNode* op) override {
        ++facts.loops;
        facts.parallel += op->forKind == tir::ForKind::Parallel;
        facts.vectorized += op->forKind == tir::ForKind::Vectorized;
        facts.unrolled += op->forKind == tir::ForKind::Unrolled;
        // A symbolic extent counts as one iteration (nothing to multiply by).
        const int64_t extent = tir::asConstInt(op->extent).value_or(1);
        const bool counted = extent > 1;
        if (counted) stack_.push_back({static_cast<const tir::VarNode*>(op->loopVar.get()), extent, op->forKind});
        visitStmt(op->body);
        if (counted) stack_.pop_back();
    }

    void visit(const tir::AllocateNode* op) override {
        ++facts.allocations;
        double elems = 1;
        for (auto& d : op->buffer->shape) elems *= double(tir::asConstInt(d).value_or(1));
        const double bytes = elems * op->buffer->dtype.bytes() * op->buffer->dtype.lanes();
        (op->buffer->scope == "local" ? facts.localBytes : facts.globalBytes) += bytes;
        visitStmt(op->body);
    }

    void visit(const tir::BufferStoreNode* op) override {
        Leaf leaf;
        leaf.loops = stack_;
        for (auto& l : stack_) leaf.executions *= double(l.extent);
        leaf.accesses.push_back({op->buffer, op->indices});
        auto onNode = [&](const Object* n) {
            auto* e = dynamic_cast<const tir::BaseExprNode*>(n);
            if (!e) return;
            if (e->kind == tir::NodeKind::BufferLoad) {
                auto* l = static_cast<const tir::BufferLoadNode*>(e);
                leaf.accesses.push_back({l->buffer, l->indices});
                return;
            }
            if (!e->type.isFloat()) return;
            const int lanes = e->type.lanes();
            switch (e->kind) {
            case tir::NodeKind::Add:
            case tir::NodeKind::Sub: leaf.adds += lanes; break;
            case tir::NodeKind::Mul: leaf.muls += lanes; break;
            case tir::NodeKind::Div:
            case tir::NodeKind::Mod:
            case tir::NodeKind::FloorDiv:
            case tir::NodeKind::FloorMod: leaf.divs += lanes; break;
            case tir::NodeKind::Min:
            case tir::NodeKind::Max:
            case tir::NodeKind::Select:
            case tir::NodeKind::Call: leaf.others += lanes; break;
            default: break;
            }
        };
        tir::postOrderVisit(op->value, onNode);
        for (auto& i : op->indices) tir::postOrderVisit(i, onNode);
        facts.leaves.push_back(std::move(leaf));
    }

private:
    std::vector<Loop> stack_;
};

/// The value of an integer index with the variables in `env` (others 0);
/// nullopt for what is not plain integer arithmetic (an indirect load).
class IndexEvaluator {
public:
    std::unordered_map<const tir::VarNode*, int64_t> env;

    std::optional<int64_t> eval(const tir::Expr& e) const {
        using K = tir::NodeKind;
        switch (e.kind()) {
        case K::IntImm: return static_cast<const tir::IntImmNode*>(e.get())->value;
        case K::Var: {
            auto it = env.find(static_cast<const tir::VarNode*>(e.get()));
            return it == env.end() ? 0 : it->second;
        }
        case K::Cast: return eval(static_cast<const tir::CastNode*>(e.get())->value);
        case K::Ramp: return eval(static_cast<const tir::RampNode*>(e.get())->base);
        case K::Broadcast: return eval(static_cast<const tir::BroadcastNode*>(e.get())->value);
        case K::Not: {
            auto a = eval(static_cast<const tir::NotNode*>(e.get())->a);
            return a ? std::optional<int64_t>(!*a) : std::nullopt;
        }
        case K::Select: {
            auto* s = static_cast<const tir::SelectNode*>(e.get());
            auto c = eval(s->condition);
            if (!c) return std::nullopt;
            return eval(*c ? s->trueValue : s->falseValue);
        }
        case K::Let: {
            auto* l = static_cast<const tir::LetNode*>(e.get());
            auto v = eval(l->value);
            if (!v) return std::nullopt;
            IndexEvaluator inner = *this;
            inner.env[static_cast<const tir::VarNode*>(l->var.get())] = *v;
            return inner.eval(l->body);
        }
        default: break;
        }
        return binary(e);
    }

private:
    template <class N> std::optional<std::pair<int64_t, int64_t>> operands(const tir::Expr& e) const {
        auto* n = static_cast<const N*>(e.get());
        auto a = eval(n->a), b = eval(n->b);
        if (!a || !b) return std::nullopt;
        return std::make_pair(*a, *b);
    }

    std::optional<int64_t> binary(const tir::Expr& e) const {
        using K = tir::NodeKind;
        auto floordiv = [](int64_t a, int64_t b) { return b == 0 ? 0 : (a / b - ((a % b != 0) && ((a < 0) != (b < 0)))); };
#define TESSEL_BIN(KIND, EXPR)                                                                    \
    case K::KIND: {                                                                                \
        auto ab = operands<tir::KIND##Node>(e);                                                    \
        if (!ab) return std::nullopt;                                                              \
        const int64_t a = ab->first, b = ab->second;                                               \
        return (EXPR);                                                                             \
    }
        switch (e.kind()) {
            TESSEL_BIN(Add, a + b)
            TESSEL_BIN(Sub, a - b)
            TESSEL_BIN(Mul, a * b)
            TESSEL_BIN(Div, b == 0 ? 0 : a / b)
            TESSEL_BIN(Mod, b == 0 ? 0 : a % b)
            TESSEL_BIN(FloorDiv, floordiv(a, b))
            TESSEL_BIN(FloorMod, b == 0 ? 0 : a - floordiv(a, b) * b)
            TESSEL_BIN(Min, std::min(a, b))
            TESSEL_BIN(Max, std::max(a, b))
            TESSEL_BIN(EQ, a == b)
            TESSEL_BIN(NE, a != b)
            TESSEL_BIN(LT, a < b)
            TESSEL_BIN(LE, a <= b)
            TESSEL_BIN(GT, a > b)
            TESSEL_BIN(GE, a >= b)
            TESSEL_BIN(And, a && b)
            TESSEL_BIN(Or, a || b)
        default: return std::nullopt;
        }
#undef TESSEL_BIN
    }
};

/// The flat element index of an access (row-major over the buffer's shape).
std::optional<int64_t> flatIndex(const Access& a, const IndexEvaluator& ev) {
    const auto& shape = a.buffer->shape;
    int64_t flat = 0;
    for (size_t i = 0; i < a.indices.size(); ++i) {
        auto v = ev.eval(a.indices[i]);
        if (!v) return std::nullopt;
        const int64_t dim = i < shape.size() && a.indices.size() == shape.size() ? tir::asConstInt(shape[i]).value_or(1) : 1;
        flat = flat * (i ? dim : 1) + *v;
    }
    return flat;
}

/// The hot statement's buffers and, per loop slot, what AutoTVM's touch
/// analysis computes for each.
struct NestFacts {
    const Leaf* leaf = nullptr;
    /// Distinct buffers, the stored one first, then loads in order of appearance.
    std::vector<std::string> buffers;
    /// Accesses per execution of the statement, per buffer.
    std::vector<int> accessCount;
    /// [loop][buffer]: |elements moved per iteration of the loop| (NaN when
    /// the index is not plain arithmetic).
    std::vector<std::vector<double>> stride;
};

/// The store executed most often (times its accesses); the first on a tie.
const Leaf* hotLeaf(const FunctionFacts& facts) {
    const Leaf* best = nullptr;
    double bestWork = -1;
    for (auto& l : facts.leaves) {
        const double work = l.executions * double(l.accesses.size());
        if (work > bestWork) {
            best = &l;
            bestWork = work;
        }
    }
    return best;
}

NestFacts analyzeNest(const Leaf& leaf) {
    NestFacts n;
    n.leaf = &leaf;
    std::vector<std::vector<const Access*>> perBuffer;
    for (auto& a : leaf.accesses) {
        auto it = std::find(n.buffers.begin(), n.buffers.end(), a.buffer->name);
        if (it == n.buffers.end()) {
            n.buffers.push_back(a.buffer->name);
            perBuffer.emplace_back();
            it = n.buffers.end() - 1;
        }
        perBuffer[size_t(it - n.buffers.begin())].push_back(&a);
    }
    for (auto& p : perBuffer) n.accessCount.push_back(int(p.size()));
    for (auto& loop : leaf.loops) {
        std::vector<double> strides;
        for (auto& accesses : perBuffer) {
            // The smallest non-zero average step of the loop variable over its
            // range across the buffer's accesses (floordiv/floormod indices
            // have no one coefficient; the average over the range is their slope).
            double s = 0;
            bool known = true;
            for (auto* a : accesses) {
                IndexEvaluator lo, hi;
                hi.env[loop.var] = loop.extent - 1;
                auto x0 = flatIndex(*a, lo), x1 = flatIndex(*a, hi);
                if (!x0 || !x1) {
                    known = false;
                    continue;
                }
                const double step = std::fabs(double(*x1 - *x0)) / double(loop.extent - 1);
                if (step > 0 && (s == 0 || step < s)) s = step;
            }
            strides.push_back(known || s > 0 ? s : std::nan(""));
        }
        n.stride.push_back(std::move(strides));
    }
    return n;
}

/// Per loop slot j (outer to inner) and buffer b: accesses by one run of
/// loop j, distinct elements it touches, and their ratio.
struct Touch {
    double count = 0, footprint = 1, reuse = 0;
};

Touch touchOf(const NestFacts& n, size_t loop, size_t buffer) {
    const auto& loops = n.leaf->loops;
    Touch t;
    double inner = 1;
    for (size_t i = loop; i < loops.size(); ++i) {
        inner *= double(loops[i].extent);
        const double s = n.stride[i][buffer];
        // A loop that moves through the buffer touches new elements each
        // iteration; one with stride 0 (or unknown) re-touches the same ones.
        if (std::isfinite(s) && s > 0) t.footprint *= double(loops[i].extent);
    }
    t.count = inner * n.accessCount[buffer];
    t.reuse = t.count / t.footprint;
    return t;
}

FunctionFacts collect(const tir::PrimFunc& f) {
    Collector c;
    if (f.defined()) c.visitStmt(f->body);
    return std::move(c.facts);
}

constexpr int kGlobalFeatures = 20;
constexpr int kLoopFeatures = 8;
constexpr int kBufferFeatures = 4;

} // namespace

const char* featureKindName(FeatureKind kind) {
    switch (kind) {
    case FeatureKind::Itervar: return "itervar";
    case FeatureKind::Knob: return "knob";
    case FeatureKind::Curve: return "curve";
    }
    return "?";
}

std::optional<FeatureKind> featureKindFromName(std::string_view name) {
    for (FeatureKind k : {FeatureKind::Itervar, FeatureKind::Knob, FeatureKind::Curve})
        if (name == featureKindName(k)) return k;
    return std::nullopt;
}

bool needsLowering(FeatureKind kind) { return kind != FeatureKind::Knob; }

std::vector<std::string> itervarFeatureNames(const FeatureOptions& o) {
    std::vector<std::string> names = {
        "hot_executions",   // log2(1 + executions of the hot statement)
        "loops",            // For loops in the function
        "parallel_loops",   // of which parallel
        "vectorized_loops", // vectorized
        "unrolled_loops",   // unrolled
        "hot_parallel",     // log2(1 + extent of the outermost parallel loop of the hot nest), 0 without
        "hot_vector",       // log2(1 + extent of the innermost vectorized loop of the hot nest), 0 without
        "hot_unrolled",     // log2(1 + product of the hot nest's unrolled extents): the unrolled body
        "hot_depth",        // loops of the hot nest (extent > 1)
        "hot_adds",         // float additions/subtractions per execution of the hot statement (x lanes)
        "hot_muls",         // float multiplications
        "hot_divs",         // float divisions and modulos
        "hot_others",       // other float operations: min, max, select, intrinsic calls
        "allocations",      // Allocate statements
        "global_bytes",     // log2(1 + bytes allocated in global scope): temporaries
        "local_bytes",      // log2(1 + bytes allocated in local scope): register blocks
        "hot_buffers",      // distinct buffers of the hot statement
        "stores",           // store statements in the function
        "all_executions",   // log2(1 + executions of all stores)
        "hot_share",        // the hot statement's share of all store executions
    };
    for (int j = 0; j < o.maxLoops; ++j) {
        const std::string p = "loop" + std::to_string(j) + ".";
        for (const char* f : {"extent", "serial", "parallel", "vectorized", "unrolled", "depth", "topdown", "bottomup"})
            names.push_back(p + f);
        for (int b = 0; b < o.maxBuffers; ++b) {
            const std::string q = p + "buf" + std::to_string(b) + ".";
            for (const char* f : {"stride", "touch", "footprint", "reuse"}) names.push_back(q + f);
        }
    }
    return names;
}

/// Layout (itervarFeatureNames): kGlobalFeatures globals, then maxLoops slots,
/// slot 0 the innermost loop of the hot nest, slot 1 its parent, and so on.
/// Per slot:
///   extent      log2(1 + iterations)
///   serial .. unrolled   the annotation, one-hot
///   depth       nesting level from the outermost loop of the nest (0 outermost)
///   topdown     log2(1 + product of the extents of this loop and those around it)
///   bottomup    log2(1 + product of the extents of this loop and those inside it)
///   per buffer b of the hot statement (stored buffer first):
///     stride    log2(1 + |elements the loop variable moves b's flat index per iteration|),
///               the average over the loop's range, the smallest among b's accesses
///     touch     log2(1 + accesses to b by one full run of this loop)
///     footprint log2(1 + distinct elements of b one run touches): the product of
///               the extents of the loops at or inside this one that move through b
///     reuse     log2(1 + touch / footprint): how often each element is used again
std::vector<float> itervarFeatures(const tir::PrimFunc& f, const FeatureOptions& o) {
    const size_t length = size_t(kGlobalFeatures + o.maxLoops * (kLoopFeatures + o.maxBuffers * kBufferFeatures));
    std::vector<float> out(length, kMissing);
    const FunctionFacts facts = collect(f);
    const Leaf* hot = hotLeaf(facts);
    double all = 0;
    for (auto& l : facts.leaves) all += l.executions;

    float* g = out.data();
    g[1] = float(facts.loops);
    g[2] = float(facts.parallel);
    g[3] = float(facts.vectorized);
    g[4] = float(facts.unrolled);
    g[13] = float(facts.allocations);
    g[14] = lg(facts.globalBytes);
    g[15] = lg(facts.localBytes);
    g[17] = float(facts.leaves.size());
    g[18] = lg(all);
    if (!hot) return out;

    const NestFacts nest = analyzeNest(*hot);
    const auto& loops = hot->loops;
    double parallel = 0, vector = 0, unrolled = 1;
    for (auto& l : loops) {
        if (l.kind == tir::ForKind::Parallel && parallel == 0) parallel = double(l.extent);
        if (l.kind == tir::ForKind::Vectorized) vector = double(l.extent);
        if (l.kind == tir::ForKind::Unrolled) unrolled *= double(l.extent);
    }
    g[0] = lg(hot->executions);
    g[5] = lg(parallel);
    g[6] = lg(vector);
    g[7] = lg(unrolled);
    g[8] = float(loops.size());
    g[9] = float(hot->adds);
    g[10] = float(hot->muls);
    g[11] = float(hot->divs);
    g[12] = float(hot->others);
    g[16] = float(nest.buffers.size());
    g[19] = all > 0 ? float(hot->executions / all) : kMissing;

    const size_t slotSize = size_t(kLoopFeatures + o.maxBuffers * kBufferFeatures);
    double topdown = 1;
    std::vector<double> topdowns;
    for (auto& l : loops) topdowns.push_back(topdown *= double(l.extent));
    for (int slot = 0; slot < o.maxLoops && size_t(slot) < loops.size(); ++slot) {
        const size_t j = loops.size() - 1 - size_t(slot); // outer-to-inner position
        const Loop& l = loops[j];
        float* s = out.data() + kGlobalFeatures + size_t(slot) * slotSize;
        double bottomup = 1;
        for (size_t i = j; i < loops.size(); ++i) bottomup *= double(loops[i].extent);
        s[0] = lg(double(l.extent));
        s[1] = l.kind == tir::ForKind::Serial;
        s[2] = l.kind == tir::ForKind::Parallel;
        s[3] = l.kind == tir::ForKind::Vectorized;
        s[4] = l.kind == tir::ForKind::Unrolled;
        s[5] = float(j);
        s[6] = lg(topdowns[j]);
        s[7] = lg(bottomup);
        for (size_t b = 0; b < nest.buffers.size() && b < size_t(o.maxBuffers); ++b) {
            const Touch t = touchOf(nest, j, b);
            float* fb = s + kLoopFeatures + b * kBufferFeatures;
            fb[0] = std::isfinite(nest.stride[j][b]) ? lg(nest.stride[j][b]) : kMissing;
            fb[1] = lg(t.count);
            fb[2] = lg(t.footprint);
            fb[3] = lg(t.reuse);
        }
    }
    return out;
}

std::vector<std::string> curveFeatureNames(const FeatureOptions& o) {
    std::vector<std::string> names;
    for (int b = 0; b < o.maxBuffers; ++b)
        for (const char* c : {"reuse", "footprint"})
            for (int i = 0; i < o.curveSamples; ++i)
                names.push_back("buf" + std::to_string(b) + "." + c + "@" + std::to_string(2 * i));
    return names;
}

/// Per buffer b of the hot statement, two curves over x = log2(1 + touch)
/// (accesses by one run of a loop), one point per loop of the hot nest
/// (innermost first): y = log2(1 + reuse) and y = log2(1 + footprint). Each
/// is sampled at x = 0, 2, 4, ... (curveSamples points): linear between
/// points, from the origin up to the innermost point, flat after the
/// outermost. A buffer the statement does not have is NaN.
std::vector<float> curveFeatures(const tir::PrimFunc& f, const FeatureOptions& o) {
    std::vector<float> out(size_t(o.maxBuffers * 2 * o.curveSamples), kMissing);
    const FunctionFacts facts = collect(f);
    const Leaf* hot = hotLeaf(facts);
    if (!hot) return out;
    const NestFacts nest = analyzeNest(*hot);
    for (size_t b = 0; b < nest.buffers.size() && b < size_t(o.maxBuffers); ++b) {
        std::vector<std::pair<double, double>> reuse, footprint; // (x, y), x ascending
        reuse.push_back({0, 0});
        footprint.push_back({0, 0});
        for (size_t j = hot->loops.size(); j-- > 0;) {
            const Touch t = touchOf(nest, j, b);
            const double x = lg(t.count);
            if (x <= reuse.back().first) continue; // keep x strictly ascending
            reuse.push_back({x, lg(t.reuse)});
            footprint.push_back({x, lg(t.footprint)});
        }
        auto sample = [](const std::vector<std::pair<double, double>>& pts, double x) {
            for (size_t i = 1; i < pts.size(); ++i)
                if (x <= pts[i].first) {
                    const auto& [x0, y0] = pts[i - 1];
                    const auto& [x1, y1] = pts[i];
                    return float(y0 + (y1 - y0) * (x - x0) / (x1 - x0));
                }
            return float(pts.back().second);
        };
        for (int i = 0; i < o.curveSamples; ++i) {
            const double x = 2.0 * i;
            out[(b * 2 + 0) * size_t(o.curveSamples) + size_t(i)] = sample(reuse, x);
            out[(b * 2 + 1) * size_t(o.curveSamples) + size_t(i)] = sample(footprint, x);
        }
    }
    return out;
}

namespace {

/// The numbers a knob's value contributes (see the file comment of Features.h).
void appendValue(const te::Knob& k, int64_t choice, std::vector<float>* out, std::vector<std::string>* names) {
    const te::KnobValue& v = k.choices.at(size_t(choice));
    auto add = [&](float x, const std::string& what) {
        if (out) out->push_back(x);
        if (names) names->push_back(k.name + "." + what);
    };
    if (v.is<te::KnobValue::Ints>()) {
        const auto& xs = v.ints();
        for (size_t i = 0; i < xs.size(); ++i) add(float(xs[i]), std::to_string(i));
    } else if (v.is<te::KnobValue::Strings>()) {
        const auto& xs = v.strings();
        for (size_t i = 0; i < xs.size(); ++i)
            add(xs[i] == "unroll" ? 1.f : xs[i] == "vec" ? 2.f : 0.f, std::to_string(i));
    } else if (v.is<bool>()) {
        add(v.asBool() ? 1.f : 0.f, "value");
    } else if (v.is<int64_t>()) {
        add(float(v.asInt()), "value");
    } else if (v.is<double>()) {
        add(float(std::get<double>(v.get())), "value");
    } else if (v.is<std::string>()) {
        add(float(choice), "value");
    } else {
        add(kMissing, "value");
    }
}

} // namespace

std::vector<float> knobFeatures(const std::vector<te::Knob>& knobs, const Space::Choices& choices) {
    std::vector<float> out;
    for (size_t i = 0; i < knobs.size() && i < choices.size(); ++i) {
        out.push_back(float(choices[i]));
        appendValue(knobs[i], choices[i], &out, nullptr);
    }
    return out;
}

std::vector<std::string> knobFeatureNames(const std::vector<te::Knob>& knobs) {
    std::vector<std::string> names;
    for (auto& k : knobs) {
        names.push_back(k.name + ".index");
        if (k.size() > 0) appendValue(k, k.defaultIndex, nullptr, &names);
    }
    return names;
}

} // namespace tessel::tune
