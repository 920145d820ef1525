#include "TrialCommands.h"

#include "driver/OfflineTrials.h"
#include "driver/TuneTasks.h"
#include "tune/Features.h"

#include <cstdio>
#include <stdexcept>

namespace tessel::cli {

int exportTrials(const TrialArgs& a, const tune::CostModelRegistry& models) {
    auto kind = tune::featureKindFromName(a.features);
    if (!kind) throw std::invalid_argument("--features must be itervar, knob or curve");
    driver::ScriptTaskOptions so;
    so.workload = a.workload;
    so.target = a.target;
    auto task = driver::ScriptTask::fromFile(a.file, so);
    driver::OfflineTrialOptions o;
    o.trials = a.trials;
    o.records = a.records;
    o.expected = a.expected;
    o.tune.tuner = a.tuner;
    o.tune.costModel = a.costModel;
    o.tune.features = *kind;
    o.tune.seed = a.seed;
    const driver::OfflineExport e = driver::exportTrials(*task, a.dir, o, models);
    if (e.resumed > 0) std::printf("%s: %d trials from %s\n", task->name().c_str(), e.resumed, a.records.c_str());
    std::printf("%s: %d trials -> %s", task->name().c_str(), e.exported, a.dir.c_str());
    if (e.failed > 0) std::printf(" (%d more did not build)", e.failed);
    std::printf("\nmeasure them on the GPU host with `tessel-run %s`, then bring the folder back and run "
                "`tesselc tune --import-trials %s --records %s`\n",
                a.dir.c_str(), a.dir.c_str(), a.records.c_str());
    return e.exported > 0 ? 0 : 1;
}

int importTrials(const TrialArgs& a) {
    const driver::OfflineImport r = driver::importTrials(a.dir, a.records);
    std::printf("%s: %d trials -> %s (%d failed)", r.workload.c_str(), r.trials, a.records.c_str(), r.failed);
    if (r.bestGflops > 0) std::printf(", best %.1f GFLOP/s", r.bestGflops);
    if (r.bestGflops > 0 && r.defaultGflops > 0)
        std::printf(", %.2fx over the default", r.bestGflops / r.defaultGflops);
    std::printf("\n");
    return r.trials > r.failed ? 0 : 1;
}

} // namespace tessel::cli
