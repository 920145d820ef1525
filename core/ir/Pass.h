/// \file
/// Passes of any IR: one record per pass, and registries of records.
///
/// A pass is a record (MLIR's habit): its kebab-case name (what the command
/// line, the IDE's stage view, pipelines and the docs use), a one-line
/// summary, a paragraph for students, its options with defaults and help, and
/// the function that runs it. The record is parameterised by the IR it works
/// on (tir::PrimFunc, graph::Graph), and so is everything around it: the
/// registry here, the pass manager and its instruments (ir/PassManager.h).
///
/// A registry is an object. The built-in passes of an IR are added to it by
/// one explicit function (tir::registerTirPasses, graph::registerGraphPasses),
/// never by static self-registration; the driver's Context owns one registry
/// per IR, and a plugin or a test adds its own passes to such an object.
#pragma once

#include "ir/Diagnostic.h"
#include "ir/PassOptions.h"

#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::pass {

/// The record of one pass over `IR`.
template <class IR>
struct PassInfo {
    std::string name;        ///< kebab-case, e.g. "storage-flatten"
    std::string summary;     ///< one line
    std::string description; ///< a paragraph for students
    std::vector<PassOption> options;
    /// Runs the pass. Throws CompileError for bad option values.
    std::function<IR(const IR&, const PassOptionValues&)> run;

    /// The option called `name`, or null.
    const PassOption* findOption(const std::string& optionName) const {
        return findPassOption(options, optionName);
    }
};

/// The passes over `IR` that a pipeline may name, in the order they were added.
template <class IR>
class PassRegistry {
public:
    /// `what` names the passes in messages: "TIR pass", "graph pass".
    explicit PassRegistry(std::string what = "pass") : what_(std::move(what)) {}

    /// Adds a pass. Throws CompileError when the record has no name, no run
    /// function, or a name that is taken.
    void add(PassInfo<IR> info) {
        if (info.name.empty()) throw CompileError("a " + what_ + " needs a name");
        if (!info.run) throw CompileError(what_ + " " + info.name + " has no run function");
        if (find(info.name)) throw CompileError(what_ + " " + info.name + " is registered twice");
        passes_.push_back(std::move(info));
    }

    /// The pass called `name`, or null. Records never move: the pointer stays
    /// valid while the registry lives.
    const PassInfo<IR>* find(std::string_view name) const {
        for (auto& p : passes_)
            if (p.name == name) return &p;
        return nullptr;
    }

    /// Every pass, in the order added.
    const std::deque<PassInfo<IR>>& passes() const { return passes_; }
    size_t size() const { return passes_.size(); }
    /// The names of all passes, comma separated (for error messages).
    std::string names() const {
        std::string s;
        for (auto& p : passes_) s += (s.empty() ? "" : ", ") + p.name;
        return s;
    }
    const std::string& what() const { return what_; }

private:
    std::string what_;
    std::deque<PassInfo<IR>> passes_;
};

/// Throws CompileError when `values` names an option that `pass` does not have.
template <class IR>
void checkPassOptions(const PassInfo<IR>& pass, const PassOptionValues& values, const std::string& what = "pass") {
    tessel::checkPassOptions(what + " " + pass.name, pass.options, values);
}

} // namespace tessel::pass
