/// \file
/// Running a TE script: the entry point of the TE script language.
///
/// A TE script is Python syntax (see Parser.h) evaluated by Tessel itself
/// against the TE API (te/Tensor.h, te/Schedule.h): nothing but tensor
/// expressions and schedules is ever executed. TVM tutorial code runs as
/// written:
///
///     k = te.reduce_axis((0, K), "k")
///     A = te.placeholder((M, K), name="A")
///     B = te.placeholder((K, N), name="B")
///     C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
///     s = te.create_schedule(C.op)
///     xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], bn, bn)
///
/// The names a script starts with: `te`, `tvm` (with `tvm.te`, `tvm.tir`,
/// `tvm.lower`, `tvm.build`, `tvm.target.Target`), `tessel` (`tessel.te`,
/// `tessel.lower`, `tessel.build`) and the builtins `len range min max int
/// float str repr bool abs print tuple list`, `cfg` (the knobs of a tunable
/// template, te/ConfigSpace.h), plus what ScriptOptions predefines. Each
/// module is one file of te/script/builtins (Builtins.h lists them).
/// Modules of the layers above te come from the caller
/// (ScriptOptions::modules): the driver adds `topi` (topi/script/ScriptModule.h)
/// to every script it runs; without it `topi` is an unknown name.
///
/// A template declares its workload (shapes, strides, pads) as parameters
/// with defaults, which the caller may override (ScriptOptions::workload,
/// `tesselc ... --workload C=128,H=28`):
///
///     wl = tessel.workload(N=1, C=64, H=56, W=56)
///     data = te.placeholder((wl.N, wl.C, wl.H, wl.W), name="data")
///
/// Calls to `tvm.lower` / `tvm.build` / `tessel.build` compile nothing: they
/// record a BuildRequest for the driver. Every error, whether in the syntax,
/// a name, an argument or an illegal schedule, is thrown as a CompileError
/// whose Diagnostic points at the offending expression.
#pragma once

#include "te/Schedule.h"
#include "te/ConfigSpace.h"
#include "te/script/Parser.h"
#include "te/script/Value.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel::te::script {

/// What to compile: recorded by tvm.lower / tvm.build, or inferred.
struct BuildRequest {
    enum class Kind : uint8_t { Lower, Build };
    Kind kind = Kind::Build;
    Schedule schedule;
    /// The function's buffers, in order (inputs, then outputs).
    std::vector<Tensor> args;
    std::string name;
    /// The `target=` text ("llvm -mcpu=..."); empty for the default (host).
    std::string target;
    /// Where the call is; unknown for an inferred request.
    SourceLoc loc;
    /// True when the script made no build call and this one was inferred.
    bool inferred = false;
};

/// One parameter of a template's workload (tessel.workload(C=64, ...)).
struct WorkloadParam {
    std::string name;
    /// What the script declares.
    int64_t defaultValue = 0;
    /// What this run used: ScriptOptions::workload's value, else the default.
    int64_t value = 0;
    /// True when ScriptOptions::workload gave the value.
    bool overridden = false;
    /// Where the script declares it (the keyword).
    SourceLoc loc;
};

/// Parses "C=128,H=28" (integers, may be negative) into workload values.
/// Throws CompileError (no location) for anything else.
std::map<std::string, int64_t> parseWorkload(std::string_view text);
/// "C=128,H=28", the inverse of parseWorkload, in declaration order.
std::string formatWorkload(const std::vector<WorkloadParam>& params);

class BuiltinTable;

/// Adds a module to a script's names (builtins/Builtins.h): how a layer above
/// te (topi) makes its functions callable from scripts without te knowing it.
using ModuleInstaller = std::function<void(BuiltinTable&)>;

struct ScriptOptions {
    /// The script's file name: its stem names inferred builds (and
    /// formatDiagnostic prefixes messages with it). Empty: "main".
    std::string fileName;
    /// Integer globals defined before the script runs (M, N, K, bn ...).
    std::vector<std::pair<std::string, int64_t>> intGlobals;
    /// Any other values defined before the script runs (tensors a driver
    /// made, a schedule to edit ...).
    std::vector<std::pair<std::string, Value>> globals;
    /// The choice of each knob the script defines (`cfg`): knob name ->
    /// index into its choices. Knobs not named take their default; a name
    /// the script does not define is an error.
    std::map<std::string, int64_t> config;
    /// The workload parameters of a template (tessel.workload): name ->
    /// value. Parameters not named take their default; a name the script
    /// does not declare is an error at the tessel.workload call.
    std::map<std::string, int64_t> workload;
    /// Extra modules, installed after the builtin ones in this order (the
    /// driver passes topi's; te's own tests pass none).
    std::vector<ModuleInstaller> modules;
    /// Infer a BuildRequest when the script makes no build call.
    bool inferBuild = true;
    /// Bounds that keep a hostile script from running forever or deep.
    int maxCallDepth = 50;
    int64_t maxSteps = 2'000'000;
};

struct ScriptResult {
    std::vector<BuildRequest> builds;
    /// What print() printed, one entry per line.
    std::vector<std::string> printed;
    /// The final global names: predefined ones first, then in the order the
    /// script first assigned them (builtins and modules left out unless rebound).
    std::vector<std::pair<std::string, Value>> globals;
    /// Every placeholder created, in creation order.
    std::vector<Tensor> placeholders;
    /// Every schedule created, in creation order.
    std::vector<Schedule> schedules;
    /// The script's config space: every knob it defined, in order, with all
    /// its choices and the one this run took.
    std::vector<te::Knob> knobs;
    /// What the script counted with cfg.add_flop (0 when nothing).
    double flop = 0;
    /// The workload parameters the script declares, in order, with the
    /// values this run used (empty when it calls no tessel.workload). A
    /// tuner keys its tasks by them.
    std::vector<WorkloadParam> workload;
    /// The syntax tree that ran (closures in `globals` point into it).
    std::shared_ptr<const AstModule> module;

    /// The final value of a global, or null.
    const Value* global(std::string_view name) const;
};

/// Parses and runs `source`. Throws CompileError on the first error.
ScriptResult runScript(std::string_view source, const ScriptOptions& opts = {});

/// Runs an already parsed script.
ScriptResult runScript(std::shared_ptr<const AstModule> module, const ScriptOptions& opts = {});

/// "file.te:3:5: error: message" (or without the file when it has no name).
std::string formatDiagnostic(const Diagnostic& d, const std::string& fileName);

/// The default function name for a script file: its stem, or "main".
std::string defaultFunctionName(const std::string& fileName);

} // namespace tessel::te::script
