/// \file
/// The operator library as a TE script module: `topi.nn.conv2d(data, kernel,
/// strides=(2, 2), padding=1)`, `topi.nn.dense`, `topi.add`, `topi.sum` ...
/// with TVM's names and keyword arguments, mapped onto the typed parameter
/// structs of the computes (Nn.h, Elementwise.h, Reduce.h, Transform.h), and
/// `topi.schedule_default(outs)`: the schedule the model compiler gives a
/// fused function (topi::scheduleFused), for a script to start from and edit.
///
/// te cannot depend on topi, so the module reaches a script through
/// te::script::ScriptOptions::modules: the driver adds scriptModule() to every
/// script it runs (driver/TeDriver.h); a script run without it has no `topi`.
/// TVM's `from tvm import te, topi` imports it too.
///
/// Every function takes Python-style arguments (positional in the order
/// listed by scriptFunctions(), or by keyword) and returns Tensors; the
/// stages it makes carry the computes' tags, so schedule_default schedules
/// them as it schedules a model's. A bad argument (a wrong keyword, a stride
/// of 0, channels that do not match) is a CompileError located at the
/// argument, or at the call for what the compute rejects, with the
/// function's name in the message. What the functions make is written to the
/// script's recorder like te.compute's, so the TIR links to the calls' lines.
#pragma once

#include "te/script/Script.h"
#include "topi/Schedule.h"

#include <string>
#include <vector>

namespace tessel::topi::script {

/// One function of the module, for documentation and completion.
struct ScriptFunctionInfo {
    /// "topi.nn.conv2d"
    std::string name;
    /// "data, kernel, strides=1, padding=0, dilation=1, groups=1, bias=None, name=\"conv2d\""
    std::string params;
    /// One line.
    std::string summary;
};

/// Every function of the module, in the order documented (docs/compiler-spine.md).
const std::vector<ScriptFunctionInfo>& scriptFunctions();

/// Adds `topi` and `topi.nn` (also as `tvm.topi`, `tessel.topi`) to `table`;
/// topi.schedule_default schedules with `defaults` (the caller's target's
/// vector width) unless told otherwise.
void installScriptModule(te::script::BuiltinTable& table, const ScheduleOptions& defaults = {});

/// installScriptModule() as an installer for te::script::ScriptOptions::modules.
te::script::ModuleInstaller scriptModule(const ScheduleOptions& defaults = {});

} // namespace tessel::topi::script
