// What the GPU schedule tests share: the CUDA toolkit's ptxas where it is
// installed, and its report of each kernel's registers and spills.
#pragma once

#include "codegen/Target.h"
#include "driver/Measure.h"
#include "driver/TeDriver.h"
#include "te/ConfigSpace.h"
#include "te/Schedule.h"

#include <QFile>
#include <QHash>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>

#include <functional>
#include <map>

namespace gputest {

inline tessel::Target cudaSm90() { return tessel::codegen::resolveTarget("cuda -mcpu=sm_90"); }

/// ptxas on PATH or in /usr/local/cuda/bin; empty when the toolkit is not installed.
inline QString ptxas() {
    QString p = QStandardPaths::findExecutable("ptxas");
    if (p.isEmpty() && QFile::exists("/usr/local/cuda/bin/ptxas")) p = "/usr/local/cuda/bin/ptxas";
    return p;
}

/// PTX for sm_90 of functions lowered for the GPU.
inline std::string ptxOf(const std::vector<tessel::driver::LoweredFunction>& fs) {
    tessel::codegen::BuildOptions bo;
    bo.jit = false;
    return tessel::driver::buildFunctions(fs, cudaSm90(), bo).assembly;
}

/// A topi GPU schedule of a function's outputs.
using GpuSchedule = std::function<tessel::te::Schedule(const std::vector<tessel::te::Tensor>&, tessel::te::ConfigSpace&)>;

/// `out` (args: its inputs, then `out`) under `schedule` with `config`,
/// lowered for `target` (the GPU pipeline and verifier for a GPU); the
/// knobs the schedule defined into `knobs`.
inline tessel::driver::LoweredFunction lowerScheduled(const GpuSchedule& schedule, const tessel::te::Tensor& out,
                                                      const std::vector<tessel::te::Tensor>& args,
                                                      const std::map<std::string, int64_t>& config,
                                                      const tessel::Target& target,
                                                      std::vector<tessel::te::Knob>* knobs = nullptr) {
    tessel::te::ConfigSpace cfg(config);
    tessel::te::Schedule s = schedule({out}, cfg);
    cfg.checkConfigUsed();
    if (knobs) *knobs = cfg.knobs();
    tessel::driver::LowerOptions lo;
    if (target.isGPU()) lo.gpu = tessel::tir::GpuLimits{};
    return tessel::driver::lowerSchedule(s, args, "kernel", lo);
}

/// Runs `f` on this CPU (thread loops one after another) on seeded inputs;
/// against `reference` outputs when given, else the default schedule's.
inline tessel::driver::RunReport runOnCpu(const tessel::driver::LoweredFunction& f,
                                          std::vector<tessel::runtime::NDArray> reference = {}) {
    tessel::driver::RunOptions ro;
    ro.evaluator = tessel::runtime::TimeEvaluator{1, 1, 1, 1};
    ro.referenceOutputs = std::move(reference);
    return tessel::driver::runAndCheck(f, ro);
}

/// Single-knob configurations: each knob (but `skip`) at each of its first
/// `perKnob` choices other than the default, as (knob, index).
inline std::vector<std::pair<std::string, int64_t>> otherChoices(const std::vector<tessel::te::Knob>& knobs,
                                                                 int perKnob = 2, const std::string& skip = {}) {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const tessel::te::Knob& k : knobs) {
        if (k.name == skip) continue;
        for (int64_t i = 0, taken = 0; i < k.size() && taken < perKnob; ++i)
            if (i != k.defaultIndex) {
                out.emplace_back(k.name, i);
                ++taken;
            }
    }
    return out;
}

/// What `ptxas -v` says of one kernel.
struct KernelUsage {
    int registers = -1;
    int spillBytes = 0; ///< spill stores + spill loads
};

/// `ptxas -v -arch=sm_90` of `ptx` (written to `dir`/`name`.ptx): each
/// kernel's usage by name; empty with `error` set when ptxas fails.
inline QMap<QString, KernelUsage> ptxasUsage(const QString& assembler, const std::string& ptx, const QString& dir,
                                             const QString& name, QString* error = nullptr) {
    QFile f(dir + "/" + name + ".ptx");
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(ptx.data(), qint64(ptx.size()));
    f.close();
    QProcess p;
    p.start(assembler, {"-v", "-arch=sm_90", f.fileName(), "-o", dir + "/" + name + ".cubin"});
    const bool finished = p.waitForFinished(120000);
    const QString log = QString(p.readAllStandardError());
    if (!finished || p.exitCode() != 0) {
        if (error) *error = log.isEmpty() ? QString("ptxas did not finish") : log;
        return {};
    }
    QMap<QString, KernelUsage> usage;
    QString kernel;
    for (const QString& line : log.split('\n')) {
        auto entry = QRegularExpression("Compiling entry function '([^']+)'").match(line);
        if (entry.hasMatch()) kernel = entry.captured(1);
        auto spill = QRegularExpression("(\\d+) bytes spill stores, (\\d+) bytes spill loads").match(line);
        if (spill.hasMatch() && !kernel.isEmpty())
            usage[kernel].spillBytes = spill.captured(1).toInt() + spill.captured(2).toInt();
        auto regs = QRegularExpression("Used (\\d+) registers").match(line);
        if (regs.hasMatch() && !kernel.isEmpty()) usage[kernel].registers = regs.captured(1).toInt();
    }
    return usage;
}

/// ptxas -v of the one kernel of `f` (lowered for the GPU), printed as a
/// line naming `what`; registers -1 and `error` set when ptxas fails or
/// there is not exactly one kernel.
inline KernelUsage assembleKernel(const QString& assembler, const tessel::driver::LoweredFunction& f, const QString& dir,
                                  const QString& what, QString* error) {
    const auto usage = ptxasUsage(assembler, ptxOf({f}), dir, QString::number(qHash(what)), error);
    if (usage.size() != 1) {
        if (error->isEmpty()) *error = QString("%1 kernels").arg(usage.size());
        return {};
    }
    qInfo("ptxas sm_90, %s: %d registers, %d bytes spilled", qPrintable(what), usage.first().registers,
          usage.first().spillBytes);
    return usage.first();
}

/// Empty when the one kernel of `f` assembles with at most `maxRegisters`
/// registers and no spills; else what went wrong, naming `what`.
inline QString spillFreeKernel(const QString& assembler, const tessel::driver::LoweredFunction& f, const QString& dir,
                               const QString& what, int maxRegisters) {
    QString error;
    const KernelUsage usage = assembleKernel(assembler, f, dir, what, &error);
    if (!error.isEmpty()) return what + ": " + error;
    if (usage.registers <= 0 || usage.registers > maxRegisters)
        return QString("%1: %2 registers, at most %3 expected").arg(what).arg(usage.registers).arg(maxRegisters);
    if (usage.spillBytes != 0) return QString("%1: %2 bytes spilled").arg(what).arg(usage.spillBytes);
    return {};
}

} // namespace gputest
