/// \file
/// Running a list of TIR passes, with instruments watching.
///
/// The pass manager looks passes up in the registry (PassRegistry.h), runs
/// them in order and calls its instruments around each one: before, after
/// (with the time it took) and, when a pass throws, failed; the exception is
/// then rethrown. Built-in instruments time the passes, record a snapshot of
/// the IR after every pass (what the IDE's stage view shows), hand the IR to a
/// callback after each pass that changed it, and write a crash reproducer
/// (the pipeline and the failing pass's input IR) to a file.
///
/// \code
///   tir::PassManager pm;
///   auto snapshots = std::make_shared<tir::SnapshotInstrument>();
///   pm.addInstrument(snapshots);
///   tir::PrimFunc out = pm.run(lowered, tir::defaultTirPipeline());
/// \endcode
#pragma once

#include "ir/LineTable.h"
#include "tir/IR.h"
#include "tir/passes/PassRegistry.h"

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessel::tir {

/// Hooks the pass manager calls; every one does nothing by default.
class PassInstrument {
public:
    virtual ~PassInstrument() = default;
    /// Once, before the first pass: the pipeline's pass names and its input.
    virtual void beforePipeline(const std::vector<std::string>& passNames, const PrimFunc& input) {}
    virtual void beforePass(const PassInfo& pass, const PrimFunc& input) {}
    virtual void afterPass(const PassInfo& pass, const PrimFunc& before, const PrimFunc& after,
                           double seconds) {}
    /// `pass` threw `error` on `input`; the manager rethrows after every instrument ran.
    virtual void passFailed(const PassInfo& pass, const PrimFunc& input,
                            const std::exception& error) {}
    /// Once, after the last pass succeeded.
    virtual void afterPipeline(const PrimFunc& result) {}
};

class PassManager {
public:
    /// Instruments are called in the order they were added.
    void addInstrument(std::shared_ptr<PassInstrument> instrument);
    /// Option values used whenever this manager runs `passName` (an entry's
    /// own options, `name{k=v}`, take precedence). Checked when a run starts.
    void setPassOptions(const std::string& passName, PassOptionValues values);

    /// Runs the passes in order. An entry is a registered pass name, optionally
    /// with options (`unroll-loop{max-steps=16}`). An unknown name or option is
    /// a CompileError (listing the known ones) raised before any pass runs.
    PrimFunc run(PrimFunc f, const std::vector<std::string>& passNames);
    /// Runs passes given by their records (passes outside the registry, from a
    /// plugin or a test), with the options set by setPassOptions.
    PrimFunc runPasses(PrimFunc f, const std::vector<PassInfo>& passes);

private:
    PrimFunc runResolved(PrimFunc f, const std::vector<const PassInfo*>& passes,
                         const std::vector<PassOptionValues>& options);

    std::vector<std::shared_ptr<PassInstrument>> instruments_;
    PassOptionValues* optionsFor(const std::string& passName);
    std::vector<std::pair<std::string, PassOptionValues>> passOptions_;
};

/// Seconds spent in each pass.
class TimingInstrument : public PassInstrument {
public:
    struct Entry {
        std::string passName;
        double seconds = 0;
    };
    const std::vector<Entry>& entries() const { return entries_; }
    double totalSeconds() const;
    void clear() { entries_.clear(); }

    void afterPass(const PassInfo& pass, const PrimFunc&, const PrimFunc&, double seconds) override;

private:
    std::vector<Entry> entries_;
};

/// The IR after every pass, as the IDE's stage view shows it.
class SnapshotInstrument : public PassInstrument {
public:
    struct Snapshot {
        std::string passName; ///< "input" for the pipeline's input
        PrimFunc func;        ///< keeps the nodes the line table points to alive
        AnnotatedText text;   ///< printPrimFunc(func)
        /// The pass changed the printed IR (a pass that returns the same
        /// nodes, or rebuilds them into identical text, did not).
        bool changed = false;
        double seconds = 0;
    };
    /// The pipeline's input (recorded by beforePipeline).
    const Snapshot& input() const { return input_; }
    /// One snapshot per pass that ran, in order.
    const std::vector<Snapshot>& snapshots() const { return snapshots_; }
    void clear();

    void beforePipeline(const std::vector<std::string>&, const PrimFunc& input) override;
    void afterPass(const PassInfo& pass, const PrimFunc& before, const PrimFunc& after,
                   double seconds) override;

private:
    const AnnotatedText* textOf(const PrimFunc& f) const;
    Snapshot input_;
    std::vector<Snapshot> snapshots_;
};

/// Hands the printed IR to `sink` after every pass that changed it (the
/// "print-after-change" of other compilers; core itself never prints).
class PrintAfterChangeInstrument : public PassInstrument {
public:
    using Sink = std::function<void(const std::string& passName, const std::string& text)>;
    explicit PrintAfterChangeInstrument(Sink sink) : sink_(std::move(sink)) {}
    void afterPass(const PassInfo& pass, const PrimFunc& before, const PrimFunc& after,
                   double seconds) override;

private:
    Sink sink_;
};

/// When a pass fails, writes to `path` the pipeline, the failing pass, its
/// error and the IR it was given, so that the failure can be replayed.
class CrashReproducerInstrument : public PassInstrument {
public:
    explicit CrashReproducerInstrument(std::string path) : path_(std::move(path)) {}
    const std::string& path() const { return path_; }
    /// True once a reproducer was written.
    bool written() const { return written_; }

    void beforePipeline(const std::vector<std::string>& passNames, const PrimFunc&) override;
    void passFailed(const PassInfo& pass, const PrimFunc& input,
                    const std::exception& error) override;

private:
    std::string path_;
    std::vector<std::string> pipeline_;
    bool written_ = false;
};

} // namespace tessel::tir
