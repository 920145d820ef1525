/// \file
/// Running a list of passes over any IR, with instruments watching: one pass
/// manager for the graph and for TIR.
///
/// The manager looks passes up in a registry (ir/Pass.h), runs them in order
/// and calls its instruments around each one: before, after (with the time it
/// took) and, when a pass throws or returns no IR, failed; the error is then
/// rethrown. Built-in instruments time the passes, record a StageSnapshot of
/// the IR after every pass (what the IDE's stage view shows), hand the IR to
/// a callback after each pass that changed it, and write a crash reproducer
/// (the pipeline, the failing pass, its error and its input IR) to a file.
///
/// What the manager needs to know about an IR comes from IRTraits<IR>, which
/// each IR specialises beside its passes (tir/passes/PassManager.h,
/// graph/passes/GraphPassManager.h):
///
/// \code
///   template <> struct IRTraits<MyIR> {
///       static constexpr const char* kName = "my";             // "unknown my pass 'x'"
///       static constexpr const char* kOptionsWhat = "my pass"; // "my pass x has no option ..."
///       static constexpr StageLevel kLevel = StageLevel::TIR;
///       static bool defined(const MyIR&);                  // a pass that returns an undefined IR failed
///       static bool sameNodes(const MyIR& a, const MyIR& b); // unchanged, known without printing
///       static AnnotatedText print(const MyIR&);
///   };
/// \endcode
#pragma once

#include "ir/Pass.h"
#include "ir/StageSnapshot.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessel::pass {

template <class IR>
struct IRTraits;

/// Hooks the pass manager calls; every one does nothing by default.
template <class IR>
class PassInstrument {
public:
    virtual ~PassInstrument() = default;
    /// Once, before the first pass: the pipeline's pass names and its input.
    virtual void beforePipeline(const std::vector<std::string>& passNames, const IR& input) {}
    virtual void beforePass(const PassInfo<IR>& pass, const IR& input) {}
    virtual void afterPass(const PassInfo<IR>& pass, const IR& before, const IR& after, double seconds) {}
    /// `pass` threw `error` on `input` (or returned no IR); the manager
    /// rethrows after every instrument ran.
    virtual void passFailed(const PassInfo<IR>& pass, const IR& input, const std::exception& error) {}
    /// Once, after the last pass succeeded.
    virtual void afterPipeline(const IR& result) {}
};

template <class IR>
class PassManager {
public:
    using Traits = IRTraits<IR>;

    /// A manager over `registry`, which must outlive it.
    explicit PassManager(const PassRegistry<IR>& registry) : registry_(&registry) {}

    /// Instruments are called in the order they were added.
    void addInstrument(std::shared_ptr<PassInstrument<IR>> instrument) {
        if (instrument) instruments_.push_back(std::move(instrument));
    }
    /// Option values used whenever this manager runs `passName` (an entry's
    /// own options, `name{k=v}`, take precedence). Checked when a run starts.
    void setPassOptions(const std::string& passName, PassOptionValues values) {
        if (auto* v = optionsFor(passName)) *v = std::move(values);
        else passOptions_.emplace_back(passName, std::move(values));
    }

    /// Runs the passes in order. An entry is a registered pass name, optionally
    /// with options (`unroll-loop{max-steps=16}`). An unknown name or option is
    /// a CompileError (listing the known ones) raised before any pass runs.
    IR run(IR ir, const std::vector<std::string>& passNames) {
        std::vector<const PassInfo<IR>*> passes;
        std::vector<PassOptionValues> options;
        for (auto& entry : passNames) {
            PassSpec spec = parsePassSpec(entry);
            const PassInfo<IR>* info = registry_->find(spec.name);
            if (!info)
                throw CompileError(std::string("unknown ") + Traits::kName + " pass '" + spec.name +
                                   "'; known passes: " + registry_->names());
            PassOptionValues values = resolvedOptions(*info);
            for (auto& [k, v] : spec.options) values[k] = v;
            checkPassOptions(*info, values, Traits::kOptionsWhat);
            passes.push_back(info);
            options.push_back(std::move(values));
        }
        return runResolved(std::move(ir), passes, options);
    }

    /// Runs passes given by their records (passes outside the registry, from a
    /// plugin or a test), with the options set by setPassOptions.
    IR runPasses(IR ir, const std::vector<PassInfo<IR>>& passes) {
        std::vector<const PassInfo<IR>*> infos;
        std::vector<PassOptionValues> options;
        for (auto& p : passes) {
            PassOptionValues values = resolvedOptions(p);
            checkPassOptions(p, values, Traits::kOptionsWhat);
            infos.push_back(&p);
            options.push_back(std::move(values));
        }
        return runResolved(std::move(ir), infos, options);
    }

private:
    PassOptionValues* optionsFor(const std::string& passName) {
        for (auto& [name, values] : passOptions_)
            if (name == passName) return &values;
        return nullptr;
    }
    PassOptionValues resolvedOptions(const PassInfo<IR>& pass) {
        auto* v = optionsFor(pass.name);
        return v ? *v : PassOptionValues{};
    }

    IR runResolved(IR ir, const std::vector<const PassInfo<IR>*>& passes,
                   const std::vector<PassOptionValues>& options) {
        std::vector<std::string> names;
        for (auto* p : passes) names.push_back(p->name);
        for (auto& i : instruments_) i->beforePipeline(names, ir);
        for (size_t k = 0; k < passes.size(); ++k) {
            const PassInfo<IR>& pass = *passes[k];
            for (auto& i : instruments_) i->beforePass(pass, ir);
            auto start = std::chrono::steady_clock::now();
            IR after;
            try {
                after = pass.run(ir, options[k]);
            } catch (const std::exception& e) {
                for (auto& i : instruments_) i->passFailed(pass, ir, e);
                throw;
            }
            double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!Traits::defined(after) && Traits::defined(ir)) {
                CompileError e(std::string(Traits::kName) + " pass " + pass.name + " returned no result");
                for (auto& i : instruments_) i->passFailed(pass, ir, e);
                throw e;
            }
            for (auto& i : instruments_) i->afterPass(pass, ir, after, seconds);
            ir = std::move(after);
        }
        for (auto& i : instruments_) i->afterPipeline(ir);
        return ir;
    }

    const PassRegistry<IR>* registry_;
    std::vector<std::shared_ptr<PassInstrument<IR>>> instruments_;
    std::vector<std::pair<std::string, PassOptionValues>> passOptions_;
};

/// Seconds spent in each pass.
template <class IR>
class TimingInstrument : public PassInstrument<IR> {
public:
    struct Entry {
        std::string passName;
        double seconds = 0;
    };
    const std::vector<Entry>& entries() const { return entries_; }
    double totalSeconds() const {
        double s = 0;
        for (auto& e : entries_) s += e.seconds;
        return s;
    }
    void clear() { entries_.clear(); }

    void afterPass(const PassInfo<IR>& pass, const IR&, const IR&, double seconds) override {
        entries_.push_back({pass.name, seconds});
    }

private:
    std::vector<Entry> entries_;
};

/// The IR after every pass, as the IDE's stage view shows it.
template <class IR>
class SnapshotInstrument : public PassInstrument<IR> {
public:
    using Traits = IRTraits<IR>;

    /// The pipeline's input (pass "input"), recorded by beforePipeline.
    const StageSnapshot& input() const { return input_; }
    /// One snapshot per pass that ran, in order; its `ir` holds an `IR`.
    const std::vector<StageSnapshot>& snapshots() const { return snapshots_; }
    void clear() {
        input_ = StageSnapshot{};
        snapshots_.clear();
    }

    void beforePipeline(const std::vector<std::string>&, const IR& input) override {
        clear();
        input_ = snapshot("input", input, Traits::print(input), true, 0);
    }

    void afterPass(const PassInfo<IR>& pass, const IR& before, const IR& after, double seconds) override {
        const StageSnapshot& prev = snapshots_.empty() ? input_ : snapshots_.back();
        const IR* prevIR = prev.template irAs<IR>();
        const bool havePrev = prevIR && Traits::sameNodes(*prevIR, before);
        // A pass that returns the same nodes changed nothing, and printing
        // them again would only give the same text.
        if (Traits::sameNodes(after, before)) {
            snapshots_.push_back(
                snapshot(pass.name, after, havePrev ? prev.text : Traits::print(after), false, seconds));
            return;
        }
        AnnotatedText text = Traits::print(after);
        const bool changed = (havePrev ? prev.text.text : Traits::print(before).text) != text.text;
        snapshots_.push_back(snapshot(pass.name, after, std::move(text), changed, seconds));
    }

private:
    static StageSnapshot snapshot(const std::string& pass, const IR& ir, AnnotatedText text, bool changed,
                                  double seconds) {
        StageSnapshot s;
        s.pass = pass;
        s.level = Traits::kLevel;
        s.text = std::move(text);
        s.changed = changed;
        s.seconds = seconds;
        s.ir = ir;
        return s;
    }

    StageSnapshot input_;
    std::vector<StageSnapshot> snapshots_;
};

/// Hands the printed IR to `sink` after every pass that changed it (the
/// "print-after-change" of other compilers; core itself never prints).
template <class IR>
class PrintAfterChangeInstrument : public PassInstrument<IR> {
public:
    using Sink = std::function<void(const std::string& passName, const std::string& text)>;
    explicit PrintAfterChangeInstrument(Sink sink) : sink_(std::move(sink)) {}

    void afterPass(const PassInfo<IR>& pass, const IR& before, const IR& after, double) override {
        if (!sink_ || IRTraits<IR>::sameNodes(after, before)) return;
        std::string text = IRTraits<IR>::print(after).text;
        if (text != IRTraits<IR>::print(before).text) sink_(pass.name, text);
    }

private:
    Sink sink_;
};

/// When a pass fails, writes to `path` the pipeline, the failing pass, its
/// error and the IR it was given, so that the failure can be replayed
/// (`tesselc lower --pass` reads TIR text back; a graph is written as the
/// graph printer shows it).
template <class IR>
class CrashReproducerInstrument : public PassInstrument<IR> {
public:
    explicit CrashReproducerInstrument(std::string path) : path_(std::move(path)) {}
    const std::string& path() const { return path_; }
    /// True once a reproducer was written.
    bool written() const { return written_; }

    void beforePipeline(const std::vector<std::string>& passNames, const IR&) override { pipeline_ = passNames; }

    void passFailed(const PassInfo<IR>& pass, const IR& input, const std::exception& error) override {
        auto join = [](auto begin, auto end) {
            std::string s;
            for (auto it = begin; it != end; ++it) s += (s.empty() ? "" : ",") + *it;
            return s;
        };
        auto failed = std::find(pipeline_.begin(), pipeline_.end(), pass.name);
        std::ofstream out(path_, std::ios::out | std::ios::trunc);
        if (!out) return; // nowhere to write: the error itself still propagates
        std::string message = error.what();
        std::replace(message.begin(), message.end(), '\n', ' ');
        out << "# Tessel " << IRTraits<IR>::kName << " crash reproducer\n";
        out << "# failed pass: " << pass.name << "\n";
        out << "# error: " << message << "\n";
        out << "# pipeline: " << join(pipeline_.begin(), pipeline_.end()) << "\n";
        out << "# reproduce: run "
            << (failed == pipeline_.end() ? pass.name : join(failed, pipeline_.end()))
            << " on the " << IRTraits<IR>::kName << " below (the failed pass's input)\n";
        out << IRTraits<IR>::print(input).text;
        written_ = static_cast<bool>(out);
    }

private:
    std::string path_;
    std::vector<std::string> pipeline_;
    bool written_ = false;
};

} // namespace tessel::pass
