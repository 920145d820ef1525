#include "te/script/Recorder.h"

#include <algorithm>

namespace tessel::te::script {

namespace {
/// A bound on print()'s lines, so a loop printing forever stays small.
constexpr size_t kMaxPrinted = 100000;
} // namespace

ScriptRecorder::ScriptRecorder(const ScriptOptions& options)
    : config(options.config), opts_(options) {}

std::vector<Tensor> ScriptRecorder::inferArgs(const Schedule& s) const {
    std::vector<Tensor> args = placeholders;
    for (auto& op : s.outputs())
        for (int i = 0; i < op->numOutputs(); ++i) {
            Tensor t = op.output(i);
            if (std::none_of(args.begin(), args.end(), [&](const Tensor& a) { return a.same(t); }))
                args.push_back(t);
        }
    return args;
}

void ScriptRecorder::print(const std::string& text) {
    pendingOutput_ += text;
    size_t nl;
    while ((nl = pendingOutput_.find('\n')) != std::string::npos) {
        if (printed.size() < kMaxPrinted) printed.push_back(pendingOutput_.substr(0, nl));
        pendingOutput_.erase(0, nl + 1);
    }
}

void ScriptRecorder::flushOutput() {
    if (!pendingOutput_.empty()) printed.push_back(pendingOutput_);
    pendingOutput_.clear();
}

void ScriptRecorder::checkWorkloadUsed() const {
    if (opts_.workload.empty() || workloadLoc.known()) return;
    std::string given;
    for (auto& [name, value] : opts_.workload)
        given += (given.empty() ? "" : ", ") + name;
    throw CompileError("the script declares no workload (tessel.workload(...)), so it takes no "
                       "workload parameters (given: " +
                       given + ")");
}

void ScriptRecorder::noteLoop(const IterVar& iv, SourceLoc loc) {
    if (iv.defined() && loc.known()) loopNotes_.emplace_back(iv, loc);
}

void ScriptRecorder::noteLoops(const std::vector<IterVar>& ivs, SourceLoc loc) {
    for (auto& iv : ivs)
        noteLoop(iv, loc);
}

void ScriptRecorder::noteOperation(const Operation& op, SourceLoc loc) {
    if (op.defined() && loc.known()) operationNotes_.emplace_back(op, loc);
}

void ScriptRecorder::setStatementLines(std::vector<std::pair<int, int>> lines) {
    statementLines_ = std::move(lines);
}

std::vector<SourceLoc> ScriptRecorder::withStatement(SourceLoc loc) const {
    std::vector<SourceLoc> out = {loc};
    for (auto& [first, last] : statementLines_)
        if (first <= loc.line && loc.line <= last) {
            for (int l = first; l <= last; ++l)
                if (l != loc.line) out.push_back({l, 1});
            break;
        }
    return out;
}

void ScriptRecorder::applySources(const Schedule& s) const {
    if (!s.defined()) return;
    std::vector<Stage> stages = s.stages();
    for (auto& [op, loc] : operationNotes_)
        if (Stage st = s.find(op); st.defined())
            for (SourceLoc l : withStatement(loc))
                st.addSource(l);
    for (auto& [iv, loc] : loopNotes_)
        for (auto& st : stages)
            if (st.owns(iv))
                for (SourceLoc l : withStatement(loc))
                    st.addSource(iv, l);
}

} // namespace tessel::te::script
