/// \file
/// The loop nest of a schedule as the schedule editor's outline shows it, and
/// the script lines its context menu writes.
///
/// The outline is a plain value built on a worker from the lowered function:
/// its stages (producers first), each stage's loops outermost first with the
/// extents the scheduled TIR gives them (so a stage computed at another's loop
/// shows the extents of its block, not of the whole tensor) and their
/// annotations, and which loop each attached stage is computed at. The script
/// that built the schedule names things: which global holds each tensor and
/// loop, so that the lines the outline writes refer to them as the user did
/// (`xo`, `CC`), or else by an expression the script language evaluates
/// (`s[C].op.axis[0]`, `s[C].leaf_iter_vars[3]`).
#pragma once

#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

namespace tessel::driver {
struct LoweredFunction;
}
namespace tessel::te::script {
struct ScriptResult;
}

namespace tessel::views {

/// One loop of a stage.
struct OutlineLoop {
    /// The loop variable as the TIR names it ("x_outer").
    QString var;
    /// How the script names the loop ("xo", "s[C].op.axis[0]"); empty when it cannot.
    QString ref;
    /// "32", or the extent expression when it is not a constant.
    QString extent;
    /// "", "parallel", "vectorized" or "unrolled".
    QString kind;
    bool reduce = false;
    /// Stages computed at this loop (indices into ScheduleOutline::stages).
    QVector<int> attached;

    /// The name to show: the script's when it is a plain name, else the TIR's.
    QString label() const;
};

/// One stage (operation) of the schedule.
struct OutlineStage {
    /// The operation's name ("C", "C_global").
    QString name;
    /// How the script names its tensor ("CC", "C"); empty when it does not.
    QString tensorRef;
    enum class Attach { Root, Inline, At } attach = Attach::Root;
    /// With Attach::At: the stage and loop it is computed at.
    int parentStage = -1, parentLoop = -1;
    QVector<OutlineLoop> loops;

    /// `s[C]`, for lines that schedule this stage; empty without a tensor name.
    QString stageRef(const QString& scheduleRef) const;
};

struct ScheduleOutline {
    /// The global holding the schedule ("s").
    QString scheduleRef = QStringLiteral("s");
    /// Compute stages in dependency order (placeholders are left out).
    QVector<OutlineStage> stages;
    /// Names the script defines that are worth completing (tensors, loops,
    /// the schedule, integer constants).
    QStringList names;

    bool isEmpty() const { return stages.isEmpty(); }
    /// The stage called `name` (operation name or tensor name); -1 when none.
    int findStage(const QString& name) const;
    /// The loop of stage `stage` whose script name or TIR name is `name`; -1 when none.
    int findLoop(int stage, const QString& name) const;
};

/// The outline of `f`'s schedule. `script` is the result of running the script
/// that built it (null when there is none, as for a function whose schedule
/// cannot be printed): it supplies the names.
ScheduleOutline buildOutline(const driver::LoweredFunction& f, const te::script::ScriptResult* script);

/// What the outline's context menu can write.
enum class LoopAction {
    Split,
    Tile,
    Reorder,
    Fuse,
    Vectorize,
    Unroll,
    Parallel,
    ComputeAt,
    ComputeInline,
    ComputeRoot,
    CacheWrite
};

/// The choices an action needs (what the dialogs ask for).
struct LoopActionArgs {
    /// split: the inner extent; tile: the factor of the first loop.
    int factor = 0;
    /// tile: the factor of the second loop.
    int factor2 = 0;
    /// reorder: the loops (script names) in their new order.
    QStringList order;
    /// compute_at: the stage and loop (outline indices) to compute at.
    int targetStage = -1, targetLoop = -1;
    /// cache_write: "global" or "local".
    QString scope = QStringLiteral("global");
};

/// The script line that applies `action` to loop `loop` (-1 for the stage
/// itself) of stage `stage`. New names avoid `taken`. Returns an empty string
/// and sets `error` when the action cannot be written (a loop the script
/// cannot name, no next loop to fuse with ...).
QString actionLine(const ScheduleOutline& outline, int stage, int loop, LoopAction action,
                   const LoopActionArgs& args, const QSet<QString>& taken, QString* error = nullptr);

/// The 0-based line before which a new schedule line goes in `script`: after
/// the last schedule line before the build call (tvm.build / tvm.lower /
/// tessel.build), or at the end; cache_write goes right after
/// create_schedule, since it must come before the stage's other primitives.
int insertionLine(const QString& script, LoopAction action);

/// Every identifier in `script` (names a new line must not reuse).
QSet<QString> identifiersIn(const QString& script);

} // namespace tessel::views
