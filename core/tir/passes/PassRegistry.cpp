#include "tir/passes/PassRegistry.h"

#include "ir/Diagnostic.h"
#include "tir/passes/LoopPartition.h"
#include "tir/passes/RemoveNoOp.h"
#include "tir/passes/InjectDoubleBuffer.h"
#include "tir/passes/InjectVirtualThread.h"
#include "tir/passes/ThreadSync.h"
#include "tir/passes/Simplify.h"
#include "tir/passes/StorageFlatten.h"
#include "tir/passes/StorageRewrite.h"
#include "tir/passes/UnrollLoop.h"
#include "tir/passes/Vectorize.h"


namespace tessel::tir {

namespace {

std::string boolText(bool b) {
    return b ? "true" : "false";
}

} // namespace

void registerTirPasses(PassRegistry& passes) {

    passes.add(PassInfo{
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

    passes.add(PassInfo{
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

    passes.add(PassInfo{
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

    passes.add(PassInfo{
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

    passes.add(PassInfo{
        "inject-virtual-thread",
        "Interleave the iterations of a vthread loop inside one thread.",
        "A loop bound to te.thread_axis(\"vthread\") is not launched as threads: one real thread runs "
        "its iterations, written out side by side. The loop goes, and each statement under it that "
        "depends on its variable is copied once per virtual thread where it stands (inside the k loop "
        "of a GEMM, next to the other copies), so the copies share what they load and their "
        "arithmetic overlaps; statements that do not depend on it (a shared tile's cooperative fill) "
        "stay one copy. Buffers allocated inside and written per virtual thread (the accumulators) "
        "get one copy each. With 2 x 2 vthreads of 4 x 4 outputs instead of 8 x 8 outputs per thread, "
        "neighbouring threads read neighbouring 16-byte words of a shared tile, without bank "
        "conflicts. Statements that must be copied whole and hold loops become a serial loop over "
        "the copies.",
        {
            {"max-unrolled", std::to_string(InjectVirtualThreadOptions{}.maxUnrolled),
             "with this many vthreads or more the copies become a serial loop"},
        },
        [](const PrimFunc& f, const PassOptionValues& v) {
            InjectVirtualThreadOptions o;
            o.maxUnrolled = static_cast<int>(passOptionInt(v, "max-unrolled", o.maxUnrolled));
            return injectVirtualThread(f, o);
        },
    });

    passes.add(PassInfo{
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

    passes.add(PassInfo{
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

    passes.add(PassInfo{
        "remove-no-op",
        "Delete statements that do nothing.",
        "Earlier passes can leave statements with no effect: a loop whose body was removed, an if "
        "whose branches are empty, a store of a value just loaded from the same place, or the "
        "evaluation of a constant. Removing them keeps the printed program readable and the "
        "generated code small.",
        {},
        [](const PrimFunc& f, const PassOptionValues&) { return removeNoOp(f); },
    });

    passes.add(PassInfo{
        "thread-sync",
        "Insert GPU barriers around shared-memory reuse.",
        "Threads of a GPU block see each other's writes to a \"shared\" buffer only after a barrier "
        "(T.tvm_storage_sync, CUDA's __syncthreads). Inside a kernel, a barrier goes before a statement "
        "that reads (or writes) a shared buffer another statement wrote (or read) since the last "
        "barrier, and at the end of a serial loop whose body writes and reads the same shared buffer, "
        "so that the next tile's load waits for this tile's reads. Never under an if: threads that "
        "skipped it would hang the block. Part of the GPU pipeline; a no-op on a CPU.",
        {},
        [](const PrimFunc& f, const PassOptionValues&) { return threadSync(f); },
    });

    passes.add(PassInfo{
        "inject-double-buffer",
        "Two copies of a double-buffered shared tile: load the next while reading this one.",
        "For a stage marked with double_buffer() (filled inside a serial loop, the k-loop of a GPU GEMM), "
        "the shared buffer gets twice its size; before the loop the first tile goes into half 0, and "
        "each iteration loads the next tile into the other half before computing from this one, with "
        "one barrier per iteration instead of two. The next tile's global loads are issued before this "
        "tile's arithmetic, so the two overlap. Only loops that write no other shared buffer change. "
        "Part of the GPU pipeline, after thread-sync.",
        {},
        [](const PrimFunc& f, const PassOptionValues&) { return injectDoubleBuffer(f); },
    });

}

const PassRegistry& builtinTirPasses() {
    static const PassRegistry registry = [] {
        PassRegistry r("TIR pass");
        registerTirPasses(r);
        return r;
    }();
    return registry;
}

const std::deque<PassInfo>& tirPasses() { return builtinTirPasses().passes(); }

const PassInfo* findTirPass(const std::string& name) { return builtinTirPasses().find(name); }

std::string tirPassNames() { return builtinTirPasses().names(); }

void checkPassOptions(const PassInfo& pass, const PassOptionValues& values) {
    tessel::checkPassOptions("pass " + pass.name, pass.options, values);
}

} // namespace tessel::tir
