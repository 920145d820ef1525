/// \file
/// Schedules: how a set of tensor expressions is computed (TVM's te.Schedule).
///
/// A Schedule has one Stage per operation. Each stage starts with its
/// operation's axes (then its reduce axes) as leaf loops; primitives replace
/// leaves (split, fuse), reorder them, annotate them (vectorize, unroll,
/// parallel, pragma) and say where a stage is computed (compute_at, inline,
/// root). Unlike IR nodes, a schedule is mutable: it is built step by step.
/// Every illegal request throws CompileError with a message for the user.
#pragma once

#include "ir/Diagnostic.h"
#include "te/Tensor.h"

#include <map>
#include <memory>
#include <optional>
#include <string_view>

namespace tessel::te {

enum class IterAnnotation : uint8_t { None, Unroll, Vectorize, Parallel };
const char* iterAnnotationName(IterAnnotation a);

/// How one leaf was derived: split (parent -> outer, inner) or fuse.
struct IterRelation {
    enum class Kind : uint8_t { Split, Fuse } kind;
    // Split: parent -> outer, inner by factor (or nparts when byNParts).
    IterVar parent, outer, inner;
    Expr factor;
    bool byNParts = false;
    // Fuse: outer, inner -> fused.
    IterVar fused;
};

enum class AttachKind : uint8_t { Root, Inline, Scope };

class Schedule;
struct ScheduleData;

/// Where a TE script made, changed or named a stage and its loops: the
/// places lowering links the TIR it makes back to (te/ScriptLines.h). A
/// schedule built in C++ has none; the script's interpreter and the script
/// printer (te/script/ScriptPrinter.h) add them.
struct StageSources {
    /// The stage as a whole: its definition (te.compute, cache_write), or a
    /// primitive on the stage itself (compute_inline).
    std::vector<SourceLoc> stage;
    /// Each iteration variable: the compute or split that made it, the
    /// primitives that changed it (reorder, vectorize ...) and the
    /// expressions that named it (`C.op.axis`). Keys are in allIterVars.
    std::map<const tir::IterVarNode*, std::vector<SourceLoc>> iterVars;

    bool empty() const { return stage.empty() && iterVars.empty(); }
};

/// storage_align(axis, factor, offset) of a stage: the stride of `axis`
/// (elements between consecutive indices of it) padded to k * factor + offset.
struct StorageAlign {
    size_t axis = 0; ///< an index into the compute's axes
    int64_t factor = 1;
    int64_t offset = 0;
};

struct StageData {
    Operation op;
    /// Every iteration variable ever made for this stage: roots first.
    std::vector<IterVar> allIterVars;
    /// The loops, outermost first.
    std::vector<IterVar> leafIterVars;
    std::vector<IterRelation> relations;
    std::map<const tir::IterVarNode*, IterAnnotation> annotations;
    std::map<const tir::IterVarNode*, std::vector<std::pair<std::string, Expr>>> pragmas;
    /// Leaves bound to GPU blocks/threads (bind): leaf -> the thread axis.
    std::map<const tir::IterVarNode*, IterVar> bindings;
    AttachKind attach = AttachKind::Root;
    /// With AttachKind::Scope: the stage and loop this stage is computed at.
    std::weak_ptr<StageData> attachStage;
    IterVar attachIter;
    /// "global", "shared" (one copy per GPU block) or "local" (per thread).
    std::string scope = "global";
    /// double_buffer(): two copies, the next tile loaded while this one is read.
    bool doubleBuffer = false;
    /// launch_bounds(min_blocks=n): the blocks per SM its GPU kernel asks for (0: none).
    int64_t launchMinBlocks = 0;
    /// storage_align(): padded strides of its buffer, by axis index.
    std::vector<StorageAlign> storageAlign;
    bool isOutput = false;
    /// The schedule this stage belongs to (for messages that name other stages).
    std::weak_ptr<ScheduleData> owner;
    /// Where a script made or changed this stage and its loops.
    StageSources sources;
};

/// A handle to one stage of a schedule.
class Stage {
public:
    Stage() = default;
    explicit Stage(std::shared_ptr<StageData> d) : d_(std::move(d)) {}
    bool defined() const { return d_ != nullptr; }
    const StageData& data() const { return *d_; }
    const std::shared_ptr<StageData>& ptr() const { return d_; }
    const Operation& op() const { return d_->op; }

    /// parent -> (outer, inner) with inner's extent `factor`.
    std::pair<IterVar, IterVar> split(IterVar parent, Expr factor);
    /// parent -> (outer, inner) with outer's extent `nparts`.
    std::pair<IterVar, IterVar> splitByNParts(IterVar parent, Expr nparts);
    /// Splits x and y and orders (xo, yo, xi, yi).
    std::tuple<IterVar, IterVar, IterVar, IterVar> tile(IterVar x, IterVar y, Expr xFactor,
                                                        Expr yFactor);
    /// Fuses adjacent leaves outer and inner into one loop.
    IterVar fuse(IterVar outer, IterVar inner);
    /// Puts `order` in this relative order, keeping other leaves in place.
    void reorder(std::vector<IterVar> order);
    void vectorize(IterVar iv);
    void unroll(IterVar iv);
    void parallel(IterVar iv);
    void pragma(IterVar iv, std::string key, Expr value = Expr(1));
    /// Runs loop `iv` on GPU blocks or threads: `thread` is a thread axis
    /// (threadAxis(): "blockIdx.x" ... "threadIdx.z", "vthread"). On a CPU
    /// the loop stays a serial loop.
    void bind(IterVar iv, IterVar thread);
    /// TVM's double_buffer: a stage computed inside a loop (a shared tile
    /// loaded per k-step) gets two buffers; each iteration loads the next
    /// tile into one while the other is read, with one barrier per iteration
    /// instead of two (tir/passes/InjectDoubleBuffer.h).
    void doubleBuffer();
    /// CUDA's __launch_bounds__(threads, minBlocks): the kernel this stage's
    /// loops are in asks for `minBlocks` resident blocks per SM (PTX
    /// .minnctapersm, beside .maxntid, the block size), so ptxas keeps each
    /// thread within 64K / (minBlocks x threads) registers, spilling if it
    /// must. On a CPU nothing changes.
    void launchBounds(int64_t minBlocks);
    /// TVM's storage_align: the buffer this stage is stored in gets a
    /// stride for axis `axis` (one of the compute's axes) of k * factor +
    /// offset elements, padding each row of a shared tile so that threads
    /// reading down a column hit different banks (a 32 x 32 float tile
    /// with storage_align(axis 0, 32, 1) has rows of 33). Only buffers of
    /// constant extents are padded (tir/passes/StorageFlatten.h).
    void storageAlign(IterVar axis, int64_t factor, int64_t offset);
    /// Computes this stage inside loop `scope` of `parent`.
    void computeAt(const Stage& parent, IterVar scope);
    void computeInline();
    void computeRoot();

    /// Records that a script made or changed this stage at `loc`.
    void addSource(SourceLoc loc);
    /// Records that a script made, changed or named `iv` at `loc`; ignored
    /// when `iv` is not one of this stage's iteration variables.
    void addSource(const IterVar& iv, SourceLoc loc);
    /// True when `iv` is one of this stage's iteration variables.
    bool owns(const IterVar& iv) const;

private:
    void checkLeaf(IterVar iv, const char* primitive) const;
    size_t leafIndex(IterVar iv) const;
    std::string stageName() const;
    std::shared_ptr<StageData> d_;
};

struct ScheduleData {
    std::vector<Operation> outputs;
    /// In dependency order: producers before consumers.
    std::vector<std::shared_ptr<StageData>> stages;
    /// Operations that cache_read/cache_write replaced: old -> new. Tensors the
    /// script still holds (the original C) resolve through this.
    std::vector<std::pair<Operation, Operation>> replaced;
    /// The newest operation standing for `op`.
    Operation resolve(Operation op) const;
};

class Schedule {
public:
    Schedule() = default;
    bool defined() const { return d_ != nullptr; }

    Stage operator[](const Operation& op) const;
    Stage operator[](const Tensor& t) const { return (*this)[t->op]; }
    const std::vector<Operation>& outputs() const { return d_->outputs; }
    std::vector<Stage> stages() const;

    /// A stage that copies `t` into `scope` and that `readers` read instead of `t`.
    Tensor cacheRead(const Tensor& t, const std::string& scope, const std::vector<Operation>& readers);
    /// A stage in `scope` that computes what `t` computed; `t` becomes a copy of it.
    Tensor cacheWrite(const Tensor& t, const std::string& scope);

    const ScheduleData& data() const { return *d_; }
    /// The stage computing `op` (through cache replacements), or an undefined
    /// stage when the schedule has none.
    Stage find(const Operation& op) const;
    /// True when a script recorded where any stage or loop comes from.
    bool hasSources() const;

private:
    friend Schedule createSchedule(const std::vector<Operation>& outputs);
    std::shared_ptr<StageData> stageOf(const Operation& op) const;
    void replaceOp(const Operation& oldOp, const Operation& newOp, bool isOutput);
    std::shared_ptr<ScheduleData> d_;
};

/// Whether `tag` names a GPU thread axis: blockIdx.x/y/z, threadIdx.x/y/z,
/// vthread.
bool isThreadTag(std::string_view tag);

/// TVM's te.thread_axis: a thread axis to bind loops to. `dom` may be
/// undefined (the extent is the bound loop's). Throws CompileError for an
/// unknown tag.
IterVar threadAxis(const std::string& tag, tir::Range dom = {});

/// The default schedule of `outputs`: every stage at root, loops as declared.
Schedule createSchedule(const std::vector<Operation>& outputs);

} // namespace tessel::te
