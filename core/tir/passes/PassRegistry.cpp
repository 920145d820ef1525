#include "tir/passes/PassRegistry.h"

#include "ir/Diagnostic.h"
#include "tir/passes/LoopPartition.h"
#include "tir/passes/RemoveNoOp.h"
#include "tir/passes/Simplify.h"
#include "tir/passes/StorageFlatten.h"
#include "tir/passes/StorageRewrite.h"
#include "tir/passes/UnrollLoop.h"
#include "tir/passes/Vectorize.h"

#include <cctype>
#include <charconv>

namespace tessel::tir {

namespace {

std::string boolText(bool b) {
    return b ? "true" : "false";
}

std::vector<PassInfo> makeTirPasses() {
    std::vector<PassInfo> passes;

    passes.push_back(PassInfo{
        "storage-flatten",
        "Turn N-d buffers and realizations into flat 1-d buffers and Allocates.",
        "Lowering a schedule leaves multi-dimensional accesses such as C[i, j], and every "
        "intermediate tensor is a BufferRealize that says which region of it is needed (after "
        "compute_at, only a tile, whose first index need not be 0). Memory is one-dimensional, so "
        "this pass gives every realization an Allocate of exactly the realized region (the product "
        "of its extents) and rewrites each access to one row-major index relative to the region's "
        "start: C[i, j] in a 64x64 buffer becomes C[i * 64 + j]. Function parameters become 1-d "
        "buffers of their full size that keep the same data pointer.",
        {},
        [](const PrimFunc& f, const PassOptionValues&) { return storageFlatten(f); },
    });

    passes.push_back(PassInfo{
        "simplify",
        "Simplify arithmetic and remove conditions that loop bounds decide.",
        "Index expressions produced by splitting, fusing and flattening are long and repetitive: "
        "(xo * 8 + xi) // 8 for instance. The simplifier puts integer arithmetic in a canonical "
        "linear form, folds constants, and uses the bounds of every loop variable to decide "
        "divisions, minima and comparisons: with xi in [0, 8), (xo * 8 + xi) // 8 is xo. A guard "
        "that the bounds prove true disappears (this is what makes splits with a dividing factor "
        "free), and loops that run once become their body.",
        {},
        [](const PrimFunc& f, const PassOptionValues&) { return simplifyPass(f); },
    });

    passes.push_back(PassInfo{
        "loop-partition",
        "Split loops so that the guards of non-dividing splits become provably true.",
        "Splitting a loop of 10 iterations by 4 gives 3 x 4 = 12 iterations, so the body is "
        "guarded "
        "by if likely(xo * 4 + xi < 10). Checking this on every iteration costs time and stops "
        "vectorization. Loop partitioning finds the point where such a condition stops being "
        "always true, here xo = 2, and splits the loop there: a main part without the guard "
        "(xo in [0, 2)) and a tail (xo = 2) that keeps it. The tail's inner loop is split again, "
        "and the iterations where the guard is always false disappear.",
        {
            {"only-likely", boolText(LoopPartitionOptions{}.onlyLikely),
             "only partition on conditions wrapped in likely()"},
            {"max-splits", std::to_string(LoopPartitionOptions{}.maxSplits),
             "most splits of one loop (limits code growth)"},
        },
        [](const PrimFunc& f, const PassOptionValues& v) {
            LoopPartitionOptions o;
            o.onlyLikely = passOptionBool(v, "only-likely", o.onlyLikely);
            o.maxSplits = static_cast<int>(passOptionInt(v, "max-splits", o.maxSplits));
            return loopPartition(f, o);
        },
    });

    passes.push_back(PassInfo{
        "vectorize",
        "Turn vectorized loops into vector instructions (Ramp and Broadcast).",
        "A loop marked vectorized with a constant extent n disappears: its variable becomes the "
        "vector Ramp(min, 1, n) = [min, min+1, ..., min+n-1], and everything computed from it "
        "becomes an n-lane vector. A load A[i * 64 + x] becomes a contiguous vector load at "
        "Ramp(i * 64, 1, n); values that do not depend on the loop stay scalars and are "
        "broadcast to n lanes where they meet a vector. A loop that cannot be vectorized (its "
        "extent is not a constant, an if depends on the lane, an allocation inside) is kept as an "
        "ordinary serial loop, so vectorize never breaks a program.",
        {
            {"max-lanes", std::to_string(VectorizeOptions{}.maxLanes),
             "loops with more iterations stay serial"},
            {"select-stores", boolText(VectorizeOptions{}.selectStores),
             "turn a store under a varying (non-likely) condition into a select"},
        },
        [](const PrimFunc& f, const PassOptionValues& v) {
            VectorizeOptions o;
            o.maxLanes = static_cast<int>(passOptionInt(v, "max-lanes", o.maxLanes));
            o.selectStores = passOptionBool(v, "select-stores", o.selectStores);
            return vectorizeLoops(f, o);
        },
    });

    passes.push_back(PassInfo{
        "unroll-loop",
        "Replace unrolled loops by one copy of their body per iteration.",
        "A loop marked unroll with a constant extent is replaced by its body written out once per "
        "iteration, with the loop variable replaced by 0, 1, 2, ... and the arithmetic that "
        "becomes "
        "constant folded. This removes the loop counter and branch and lets later passes and "
        "LLVM treat each copy separately (for instance, keep accumulators in registers). To keep "
        "code size in check, a loop nest that would expand to more than max-steps statements "
        "stays a loop.",
        {
            {"max-steps", std::to_string(UnrollLoopOptions{}.maxSteps),
             "most statements one unrolled loop may expand to"},
            {"auto-max-step", std::to_string(UnrollLoopOptions{}.autoMaxStep),
             "also unroll innermost serial loops expanding to at most this many statements (0: "
             "off)"},
        },
        [](const PrimFunc& f, const PassOptionValues& v) {
            UnrollLoopOptions o;
            o.maxSteps = static_cast<int>(passOptionInt(v, "max-steps", o.maxSteps));
            o.autoMaxStep = static_cast<int>(passOptionInt(v, "auto-max-step", o.autoMaxStep));
            return unrollLoops(f, o);
        },
    });

    passes.push_back(PassInfo{
        "storage-rewrite",
        "Plan intermediate memory: hoist allocations out of loops and share memory.",
        "Each intermediate buffer starts as its own allocation, sometimes inside a loop (a tile "
        "buffer allocated again on every iteration). This pass removes allocations that are never "
        "used, moves fixed-size allocations out of serial loops (not out of parallel loops, where "
        "every thread needs its own copy), and lets buffers of the same type whose lifetimes do "
        "not "
        "overlap share one allocation, as a register allocator shares registers: if A is last read "
        "before B is first written, B can live in A's memory.",
        {
            {"reuse", boolText(StorageRewriteOptions{}.reuse),
             "let buffers with disjoint lifetimes share memory"},
            {"hoist", boolText(StorageRewriteOptions{}.hoist),
             "hoist constant-size allocations out of loops"},
        },
        [](const PrimFunc& f, const PassOptionValues& v) {
            StorageRewriteOptions o;
            o.reuse = passOptionBool(v, "reuse", o.reuse);
            o.hoist = passOptionBool(v, "hoist", o.hoist);
            return storageRewrite(f, o);
        },
    });

    passes.push_back(PassInfo{
        "remove-no-op",
        "Delete statements that do nothing.",
        "Earlier passes can leave statements with no effect: a loop whose body was removed, an if "
        "whose branches are empty, a store of a value just loaded from the same place, or the "
        "evaluation of a constant. Removing them keeps the printed program readable and the "
        "generated code small.",
        {},
        [](const PrimFunc& f, const PassOptionValues&) { return removeNoOp(f); },
    });

    return passes;
}

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

} // namespace

const PassOption* PassInfo::findOption(const std::string& n) const {
    for (auto& o : options)
        if (o.name == n) return &o;
    return nullptr;
}

const std::vector<PassInfo>& tirPasses() {
    static const std::vector<PassInfo> passes = makeTirPasses();
    return passes;
}

const PassInfo* findTirPass(const std::string& name) {
    for (auto& p : tirPasses())
        if (p.name == name) return &p;
    return nullptr;
}

std::string tirPassNames() {
    std::string s;
    for (auto& p : tirPasses())
        s += (s.empty() ? "" : ", ") + p.name;
    return s;
}

PassSpec parsePassSpec(const std::string& text) {
    PassSpec spec;
    std::string t = trim(text);
    size_t brace = t.find('{');
    spec.name = trim(t.substr(0, brace));
    if (spec.name.empty()) throw CompileError("empty pass name in pipeline entry '" + text + "'");
    if (brace == std::string::npos) return spec;
    if (t.back() != '}') throw CompileError("pipeline entry '" + text + "' lacks a closing '}'");
    std::string body = t.substr(brace + 1, t.size() - brace - 2);
    size_t pos = 0;
    while (pos <= body.size()) {
        size_t comma = body.find(',', pos);
        std::string item =
            trim(body.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
        if (!item.empty()) {
            size_t eq = item.find('=');
            if (eq == std::string::npos)
                throw CompileError("option '" + item + "' of pass " + spec.name +
                                   " needs a value (name=value)");
            spec.options[trim(item.substr(0, eq))] = trim(item.substr(eq + 1));
        }
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return spec;
}

void checkPassOptions(const PassInfo& pass, const PassOptionValues& values) {
    for (auto& [name, value] : values) {
        if (pass.findOption(name)) continue;
        std::string known;
        for (auto& o : pass.options)
            known += (known.empty() ? "" : ", ") + o.name;
        throw CompileError(
            "pass " + pass.name + " has no option '" + name + "'" +
            (known.empty() ? " (it has no options)" : "; its options are: " + known));
    }
}

int64_t passOptionInt(const PassOptionValues& values, const std::string& name, int64_t fallback) {
    auto it = values.find(name);
    if (it == values.end()) return fallback;
    const std::string& s = it->second;
    int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        throw CompileError("option " + name + " needs an integer, got '" + s + "'");
    return v;
}

bool passOptionBool(const PassOptionValues& values, const std::string& name, bool fallback) {
    auto it = values.find(name);
    if (it == values.end()) return fallback;
    const std::string& s = it->second;
    if (s == "true" || s == "1" || s == "on") return true;
    if (s == "false" || s == "0" || s == "off") return false;
    throw CompileError("option " + name + " needs true or false, got '" + s + "'");
}

} // namespace tessel::tir
