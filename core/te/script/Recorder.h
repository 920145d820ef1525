/// \file
/// What a running TE script produces, as one explicit object: the builtins
/// (te/script/builtins) write into it and runScript() reads the result out of
/// it; the interpreter itself only evaluates syntax.
///
/// It holds the tensors and schedules the script made, the build requests,
/// the printed lines, the knob space behind `cfg`, the workload parameters
/// behind `tessel.workload`, and where the script made, changed or named
/// each operation and loop (applied to the schedules' StageData::sources at
/// the end, so lowering can link the TIR back to the script's lines).
#pragma once

#include "te/ConfigSpace.h"
#include "te/script/Script.h"

#include <string>
#include <utility>
#include <vector>

namespace tessel::te::script {

class ScriptRecorder {
public:
    explicit ScriptRecorder(const ScriptOptions& options);

    const ScriptOptions& options() const { return opts_; }
    /// The name of a build the script asks for without naming it.
    std::string defaultName() const { return defaultFunctionName(opts_.fileName); }

    // --------------------------------------------------------- what it made
    std::vector<Tensor> placeholders;
    std::vector<Tensor> computes;
    std::vector<Schedule> schedules;
    std::vector<BuildRequest> builds;
    /// Placeholders followed by the schedule's outputs (an inferred build's arguments).
    std::vector<Tensor> inferArgs(const Schedule& s) const;

    // --------------------------------------------------------------- print()
    /// Appends print()'s text; every completed line goes to printed.
    void print(const std::string& text);
    /// Ends the run: an unfinished last line becomes a line too.
    void flushOutput();
    std::vector<std::string> printed;

    // ----------------------------------------------------------- cfg knobs
    ConfigSpace config;

    // ----------------------------------------------------------- workload
    /// The parameters tessel.workload declared, with the values used.
    std::vector<WorkloadParam> workload;
    /// Where tessel.workload was called (unknown when it was not).
    SourceLoc workloadLoc;
    /// Throws CompileError when ScriptOptions::workload gives values but the
    /// script declares no workload.
    void checkWorkloadUsed() const;

    // ------------------------------------------------------------- sources
    /// The script at `loc` made, changed or named loop `iv`.
    void noteLoop(const IterVar& iv, SourceLoc loc);
    void noteLoops(const std::vector<IterVar>& ivs, SourceLoc loc);
    /// The script at `loc` made or changed operation `op` (its stage).
    void noteOperation(const Operation& op, SourceLoc loc);
    /// The lines of the script's statements, first to last: a note on a
    /// statement that spans several lines holds for all of them.
    void setStatementLines(std::vector<std::pair<int, int>> lines);
    /// Writes the notes into the stages of `s` that own the loops and
    /// operations noted (StageData::sources).
    void applySources(const Schedule& s) const;

private:
    const ScriptOptions& opts_;
    std::string pendingOutput_;
    std::vector<std::pair<IterVar, SourceLoc>> loopNotes_;
    std::vector<std::pair<Operation, SourceLoc>> operationNotes_;
    std::vector<std::pair<int, int>> statementLines_;

    /// `loc` and the other lines of the statement it is in.
    std::vector<SourceLoc> withStatement(SourceLoc loc) const;
};

} // namespace tessel::te::script
