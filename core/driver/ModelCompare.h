/// \file
/// Two ways of running one model, compared per fused function and end to
/// end: untuned against tuned (the default schedules against a records
/// file's best configurations), any two records files, two thread counts or
/// two devices. The Compare view, `tesselc compare` and the tests call it.
///
/// Each side is compiled once (sides with the same target and
/// configurations share one compile), run once on the same seeded inputs
/// (their outputs must agree), and then measured in one run, interleaved:
/// every round times A's whole model and each of its kernels, then B's, so
/// that whatever else the machine does in the meantime slows both sides
/// alike. The figures are medians over the rounds.
#pragma once

#include "driver/ModelCompiler.h"
#include "frontend/OnnxImporter.h"
#include "ir/Target.h"
#include "runtime/ModelRunner.h"
#include "tune/Task.h"

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace tessel::driver {

/// One way of compiling and running the model.
struct CompareSide {
    /// Shown in tables, charts and messages ("untuned", "tuned.jsonl"); empty:
    /// "A" or "B".
    std::string label;
    /// Workload key -> knob choices (bestConfigs() of a records file); empty:
    /// the default schedules ("untuned").
    std::map<std::string, tune::Config> configs;
    /// Where to run: null runs in this process; otherwise a model runner
    /// (DeviceRunners::modelRunner(): a session on this machine's local
    /// server or on a board), which gets the model as its export for
    /// `target`. Two sides may share a runner: the model is then loaded
    /// again whenever the side changes.
    runtime::ModelRunner* runner = nullptr;
    /// What the kernels are compiled for (the device's target for a device).
    Target target = codegen::hostTarget();
    /// Threads of the runtime pool while this side runs; 0: as the pool (or
    /// the device) has it when the comparison starts.
    int threads = 0;
};

struct CompareOptions {
    /// Interleaved rounds: A then B, each timing `runs` whole runs one by one
    /// (their median is the round's figure) and every kernel over as many
    /// runs (each kernel's median). `runs` fills about minRoundMs at the
    /// previous round's pace, between 1 and maxRunsPerRound, so a model of
    /// microseconds is not timed by one clock reading.
    int rounds = 10;
    double minRoundMs = 50;
    int maxRunsPerRound = 100;
    /// Seed of the random inputs in [0, 1), the same for both sides.
    uint64_t seed = 1;
    /// B's outputs agree with A's when |b - a| <= tolerance * max|a| for every
    /// element (another schedule or another ISA sums in another order).
    double tolerance = 1e-4;
    /// The compile both sides start from (graph pipeline, schedule options,
    /// registries, edited schedules); each side sets its own target and
    /// configurations, and progress is the comparison's.
    CompileOptions compile;
    /// The longest one request to a device may take.
    double timeoutSeconds = 600;
    /// Called between steps with the fraction done in [0, 1] and what comes
    /// next; returning false cancels (the result says so and keeps the
    /// rounds completed). Called on the comparing thread.
    std::function<bool(double fraction, const std::string& stage)> progress;
};

/// One fused function on both sides, matched by name.
struct CompareRow {
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    std::string function;
    /// Calls per run of the model; 0: the side has no such function.
    int callsA = 0, callsB = 0;
    /// Milliseconds per run of the model (all its calls): the median over the
    /// rounds; NaN where the side has no such function.
    double msA = kNone, msB = kNone;
    double gflopsA = 0, gflopsB = 0;
    /// msB / msA (below 1: B is faster); NaN unless both sides have it.
    double ratio = kNone;
    /// The side compiled it with a configuration from its records ("tuned").
    bool tunedA = false, tunedB = false;

    bool inA() const { return callsA > 0; }
    bool inB() const { return callsB > 0; }
};

struct CompareResult {
    std::string labelA, labelB;
    /// The targets compiled for (Target::str()).
    std::string targetA, targetB;
    /// Threads each side ran with.
    int threadsA = 0, threadsB = 0;
    /// Per fused function: A's in execution order, then those only B has.
    std::vector<CompareRow> rows;
    /// End to end: the median over the rounds of one run's milliseconds, and B / A.
    double latencyA = CompareRow::kNone, latencyB = CompareRow::kNone, ratio = CompareRow::kNone;
    /// Each completed round's end-to-end milliseconds.
    std::vector<double> runsA, runsB;
    int rounds = 0;
    /// 1 when both sides shared one compile.
    int compiles = 0;
    /// Fused functions with knobs (that a records file could tune) per side.
    int tunableA = 0, tunableB = 0;
    /// The outputs were compared (both sides ran), and whether they agree.
    bool outputsChecked = false, outputsAgree = false;
    /// The largest |b - a| over the outputs, and the largest |a|.
    double maxAbsDiff = 0, maxAbsA = 0;
    /// Things worth saying that are no error: a function only one side has.
    std::vector<std::string> notes;
    /// What a side's compile set aside: a stale tuning record skipped ("B:
    /// function f: the tuned configuration ... does not fit ...; the default
    /// schedule is used"; CompiledModel::warnings).
    std::vector<std::string> warnings;
    /// The user cancelled: the figures are those of the completed rounds.
    bool cancelled = false;
    /// Why the comparison is not complete or not sound (outputs that
    /// disagree, a device that failed mid-run); the figures so far are kept.
    std::string error;

    bool ok() const { return error.empty() && !cancelled; }
    /// The row of `function`, or null.
    const CompareRow* find(const std::string& function) const;
};

/// Compiles `imported` for both sides and compares them. A side that does not
/// compile (a stale or foreign configuration in its records) throws the
/// compiler's CompileError with the side's label in front; everything that
/// fails later is CompareResult::error.
CompareResult compareModels(const graph::Graph& imported, const CompareSide& a, const CompareSide& b,
                            const CompareOptions& options = {});

/// Imports the ONNX model at `path` (with `import`'s input shapes) once and
/// compares it as above.
CompareResult compareModels(const std::string& path, const frontend::ImportOptions& import, const CompareSide& a,
                            const CompareSide& b, const CompareOptions& options = {});

/// One round of one side: a whole run's milliseconds, and each plan step's
/// (CompiledModel::plan.steps order) timed on its own.
struct CompareRound {
    double ms = 0;
    std::vector<double> stepMs;
};

/// Fills `result`'s rows (functions matched by name; one that only one side
/// runs is a row with the other side empty, and a note), end-to-end figures
/// and rounds from the rounds each side completed (medians; a function's
/// figure in a round is the sum over its calls). compareModels() ends with
/// it; a tool that measures another way can use it too.
void summariseRounds(const CompiledModel& a, const CompiledModel& b, const std::vector<CompareRound>& roundsA,
                     const std::vector<CompareRound>& roundsB, CompareResult& result);

/// The result as CSV: a header, one line per function (CompareResult::rows
/// order) and an "end-to-end" line; numbers at full precision (%.17g), a
/// missing figure as an empty field, booleans as 0/1.
std::string compareCsv(const CompareResult& result);

/// The CSV header's columns, in order.
const std::vector<std::string>& compareCsvColumns();

/// The name of the CSV's end-to-end line.
inline constexpr const char* kEndToEnd = "end-to-end";

} // namespace tessel::driver
