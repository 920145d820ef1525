/// \file
/// A TE script's schedule as steps, one per primitive: the statements after
/// `create_schedule` that call a schedule primitive (split, tile, reorder,
/// compute_at, cache_write, vectorize … and a template's `cfg[...].apply`),
/// and the script cut after any of them — the schedule statements after it
/// left out, everything else (the computation, the build call) kept. The
/// primitive stepper lowers each cut to show the TIR after each primitive
/// (TVM Explorer's per-primitive snapshots).
///
/// Plain text work, no compiler: a statement is the lines of one Python
/// statement (brackets and a trailing backslash continue it; comments and
/// strings do not count).
#pragma once

#include <QList>
#include <QString>

namespace tessel::views {

/// One schedule primitive of a script.
struct ScheduleStep {
    int firstLine = 0; ///< 1-based, where its statement starts
    int lastLine = 0;  ///< 1-based, where it ends
    QString text;      ///< the statement, its lines joined
};

/// The schedule's primitives of `script`, in order; empty when the script
/// makes no schedule (no `create_schedule`).
QList<ScheduleStep> scheduleSteps(const QString& script);

/// `script` with only its first `count` schedule primitives: every later
/// statement that acts on the schedule (a primitive, a getter such as
/// `s[C].op.axis`) is left out, and the rest kept as it is (comments and blank
/// lines become empty lines, so line numbers stay). count 0 is the default
/// schedule; count >= the number of steps is the script as it is.
QString scriptWithSteps(const QString& script, int count);

} // namespace tessel::views
