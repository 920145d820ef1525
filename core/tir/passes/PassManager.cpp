#include "tir/passes/PassManager.h"

#include "ir/Diagnostic.h"
#include "tir/IRPrinter.h"

#include <algorithm>
#include <chrono>
#include <fstream>

namespace tessel::tir {

void PassManager::addInstrument(std::shared_ptr<PassInstrument> instrument) {
    if (instrument) instruments_.push_back(std::move(instrument));
}

PassOptionValues* PassManager::optionsFor(const std::string& passName) {
    for (auto& [name, values] : passOptions_)
        if (name == passName) return &values;
    return nullptr;
}

void PassManager::setPassOptions(const std::string& passName, PassOptionValues values) {
    if (auto* v = optionsFor(passName))
        *v = std::move(values);
    else
        passOptions_.emplace_back(passName, std::move(values));
}

PrimFunc PassManager::run(PrimFunc f, const std::vector<std::string>& passNames) {
    std::vector<const PassInfo*> passes;
    std::vector<PassOptionValues> options;
    for (auto& entry : passNames) {
        PassSpec spec = parsePassSpec(entry);
        const PassInfo* info = findTirPass(spec.name);
        if (!info)
            throw CompileError("unknown TIR pass '" + spec.name +
                               "'; known passes: " + tirPassNames());
        PassOptionValues values;
        if (auto* v = optionsFor(spec.name)) values = *v;
        for (auto& [k, v] : spec.options)
            values[k] = v;
        checkPassOptions(*info, values);
        passes.push_back(info);
        options.push_back(std::move(values));
    }
    return runResolved(std::move(f), passes, options);
}

PrimFunc PassManager::runPasses(PrimFunc f, const std::vector<PassInfo>& passes) {
    std::vector<const PassInfo*> infos;
    std::vector<PassOptionValues> options;
    for (auto& p : passes) {
        PassOptionValues values;
        if (auto* v = optionsFor(p.name)) values = *v;
        checkPassOptions(p, values);
        infos.push_back(&p);
        options.push_back(std::move(values));
    }
    return runResolved(std::move(f), infos, options);
}

PrimFunc PassManager::runResolved(PrimFunc f, const std::vector<const PassInfo*>& passes,
                                  const std::vector<PassOptionValues>& options) {
    std::vector<std::string> names;
    for (auto* p : passes)
        names.push_back(p->name);
    for (auto& i : instruments_)
        i->beforePipeline(names, f);
    for (size_t k = 0; k < passes.size(); ++k) {
        const PassInfo& pass = *passes[k];
        for (auto& i : instruments_)
            i->beforePass(pass, f);
        auto start = std::chrono::steady_clock::now();
        PrimFunc after;
        try {
            after = pass.run(f, options[k]);
        } catch (const std::exception& e) {
            for (auto& i : instruments_)
                i->passFailed(pass, f, e);
            throw;
        }
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!after.defined()) {
            CompileError e("pass " + pass.name + " returned no function");
            for (auto& i : instruments_)
                i->passFailed(pass, f, e);
            throw e;
        }
        for (auto& i : instruments_)
            i->afterPass(pass, f, after, seconds);
        f = std::move(after);
    }
    for (auto& i : instruments_)
        i->afterPipeline(f);
    return f;
}

// ---------------------------------------------------------------------------

double TimingInstrument::totalSeconds() const {
    double s = 0;
    for (auto& e : entries_)
        s += e.seconds;
    return s;
}

void TimingInstrument::afterPass(const PassInfo& pass, const PrimFunc&, const PrimFunc&,
                                 double seconds) {
    entries_.push_back({pass.name, seconds});
}

// ---------------------------------------------------------------------------

void SnapshotInstrument::clear() {
    input_ = Snapshot{};
    snapshots_.clear();
}

void SnapshotInstrument::beforePipeline(const std::vector<std::string>&, const PrimFunc& input) {
    clear();
    input_.passName = "input";
    input_.func = input;
    input_.text = printPrimFunc(input);
}

const AnnotatedText* SnapshotInstrument::textOf(const PrimFunc& f) const {
    if (!snapshots_.empty() && snapshots_.back().func.sameAs(f)) return &snapshots_.back().text;
    if (input_.func.sameAs(f)) return &input_.text;
    return nullptr;
}

void SnapshotInstrument::afterPass(const PassInfo& pass, const PrimFunc& before,
                                   const PrimFunc& after, double seconds) {
    Snapshot s;
    s.passName = pass.name;
    s.func = after;
    s.seconds = seconds;
    const AnnotatedText* prev = textOf(before);
    bool sameNodes =
        after.sameAs(before) ||
        (after->body.sameAs(before->body) && after->params.size() == before->params.size() &&
         std::equal(after->params.begin(), after->params.end(), before->params.begin(),
                    [](const Buffer& a, const Buffer& b) { return a.sameAs(b); }) &&
         after->name == before->name);
    if (sameNodes && prev) {
        s.text = *prev;
        s.changed = false;
    } else {
        s.text = printPrimFunc(after);
        s.changed = !sameNodes && (prev ? prev->text : tir::toString(before)) != s.text.text;
    }
    snapshots_.push_back(std::move(s));
}

// ---------------------------------------------------------------------------

void PrintAfterChangeInstrument::afterPass(const PassInfo& pass, const PrimFunc& before,
                                           const PrimFunc& after, double) {
    if (after.sameAs(before) || !sink_) return;
    std::string text = tir::toString(after);
    if (text != tir::toString(before)) sink_(pass.name, text);
}

// ---------------------------------------------------------------------------

void CrashReproducerInstrument::beforePipeline(const std::vector<std::string>& passNames,
                                               const PrimFunc&) {
    pipeline_ = passNames;
}

void CrashReproducerInstrument::passFailed(const PassInfo& pass, const PrimFunc& input,
                                           const std::exception& error) {
    auto join = [](auto begin, auto end) {
        std::string s;
        for (auto it = begin; it != end; ++it)
            s += (s.empty() ? "" : ",") + *it;
        return s;
    };
    auto failed = std::find(pipeline_.begin(), pipeline_.end(), pass.name);
    std::ofstream out(path_, std::ios::out | std::ios::trunc);
    if (!out) return; // nowhere to write: the error itself still propagates
    out << "# Tessel TIR crash reproducer\n";
    out << "# failed pass: " << pass.name << "\n";
    std::string message = error.what();
    for (auto& c : message)
        if (c == '\n') c = ' ';
    out << "# error: " << message << "\n";
    out << "# pipeline: " << join(pipeline_.begin(), pipeline_.end()) << "\n";
    out << "# reproduce: run "
        << (failed == pipeline_.end() ? pass.name : join(failed, pipeline_.end()))
        << " on the function below (the failed pass's input)\n";
    out << tir::toString(input);
    written_ = static_cast<bool>(out);
}

} // namespace tessel::tir
