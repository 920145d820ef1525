/// \file
/// The names a TE script starts with, one module per file.
///
/// Each file of te/script/builtins has one `installXxx(BuiltinTable&)` that
/// adds its module's functions, builtin names and the attributes and methods
/// of value kinds to the table. What the functions produce (tensors,
/// schedules, build requests, printed lines, knobs, workload parameters,
/// source locations) goes into the ScriptRecorder the table hands out, never
/// into the interpreter. builtinInstallers() lists the files in install
/// order: adding a module of te is one new file and one line there. A layer
/// above te (topi) installs its module through ScriptOptions::modules instead.
#pragma once

#include "te/script/Interpreter.h"
#include "te/script/Recorder.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessel::te::script {

/// A module being filled (`te`, `tvm.target` ...); its value() is shared, so
/// members added later show through values taken earlier.
class ModuleBuilder {
public:
    explicit ModuleBuilder(std::string name);
    /// A native function `name`, named "<module>.<name>" in messages.
    void fn(const std::string& name, NativeFunction f);
    /// Any member (a submodule, a constant); replaces one of the same name.
    void add(const std::string& name, Value v);
    /// The member called `name`, or null.
    const Value* find(const std::string& name) const;
    Value value() const;
    const std::string& name() const;

private:
    std::shared_ptr<ModuleObject> m_;
};

/// Where the installers put what they define.
class BuiltinTable {
public:
    explicit BuiltinTable(std::shared_ptr<ScriptRecorder> recorder);

    /// What the builtins write into; closures keep it alive.
    const std::shared_ptr<ScriptRecorder>& recorder() const { return recorder_; }

    /// The module at dotted `path` ("te", "tvm.target", "topi.nn"), made on
    /// first use: a root module is a global name, and a submodule a member
    /// of its parent. `importable` roots can be imported (`import tvm`).
    ModuleBuilder& module(const std::string& path);
    void setImportable(const std::string& root);
    /// Keeps root module `root` out of the global names (`tir` is only
    /// reached as `tvm.tir`).
    void hide(const std::string& root);
    /// Makes `path` ("tvm.te") a member that is module `existing` ("te").
    void alias(const std::string& path, const std::string& existing);

    /// A builtin function (`len`) or value (`cfg`).
    void function(const std::string& name, NativeFunction f);
    void value(const std::string& name, Value v);

    /// The attributes and methods of values of `kind` (made on first use).
    TypeInfo& type(Value::Kind kind, const std::string& name);

    /// The global names: builtins and root modules.
    std::unordered_map<std::string, Value> globals() const;
    /// The importable root modules.
    std::unordered_map<std::string, Value> importable() const;
    std::unordered_map<int, TypeInfo> takeTypes() { return std::move(types_); }

private:
    std::shared_ptr<ScriptRecorder> recorder_;
    std::vector<std::pair<std::string, std::unique_ptr<ModuleBuilder>>> modules_;
    std::vector<std::string> importable_, hidden_;
    std::unordered_map<std::string, Value> values_;
    std::unordered_map<int, TypeInfo> types_;
};

using BuiltinInstaller = void (*)(BuiltinTable&);

/// Every module, in install order (later ones may use earlier modules).
const std::vector<BuiltinInstaller>& builtinInstallers();

/// len range min max int float str repr bool abs tuple list print (Python.cpp).
void installPython(BuiltinTable& t);
/// te: placeholder, compute, reduce_axis, sum/max/min/prod, const, var (TensorExpr.cpp).
void installTensorExpr(BuiltinTable& t);
/// The math of te and tir: exp, floordiv, if_then_else, all, max_value ... (Math.cpp).
void installMath(BuiltinTable& t);
/// Tensor, Operation, IterVar, Range and Expr attributes (Objects.cpp).
void installObjects(BuiltinTable& t);
/// te.create_schedule and the Schedule and Stage primitives (Schedule.cpp).
void installSchedule(BuiltinTable& t);
/// tvm and tessel: lower, build, tvm.target.Target (Build.cpp).
void installBuild(BuiltinTable& t);
/// cfg, the knobs of a tunable template over te::ConfigSpace (Config.cpp).
void installConfig(BuiltinTable& t);
/// tessel.workload, a template's workload parameters (Workload.cpp).
void installWorkload(BuiltinTable& t);

} // namespace tessel::te::script
