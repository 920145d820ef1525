#include "driver/TuningLoop.h"

#include "driver/TuningRecords.h"
#include "ir/Diagnostic.h"

#include <algorithm>
#include <stdexcept>

namespace tessel::driver {

void runTuningLoop(const std::vector<TuningJob>& jobs, const TuningLoopOptions& options, const TuningDevice& device,
                   const tune::CostModelRegistry& models, const TuningEvents& events, tune::TuneControl* control) {
    if (options.records.empty()) throw std::invalid_argument("tuning needs a records file (trials are appended to it)");
    if (options.tune.trials <= 0) throw std::invalid_argument("tuning needs a number of trials > 0");
    if (!device.builder || !device.runner) throw std::invalid_argument("tuning needs a builder and a runner");

    std::vector<std::string> warnings;
    tune::Records history = readTuningHistory(options.records, &warnings);
    if (events.onWarning)
        for (auto& w : warnings) events.onWarning(w);
    tune::RecordWriter writer(options.records);
    tune::Measurer measurer(*device.builder, *device.runner, options.measure);
    measurer.setReference(device.referenceBuilder, device.referenceRunner);

    for (size_t j = 0; j < jobs.size(); ++j) {
        if (control && control->stopRequested()) break;
        // The tasks tuned before this one in the same run teach its model too.
        if (j > 0 && options.transfer) history = readTuningHistory(options.records);
        try {
            tune::Tuner tuner(*jobs[j].task, models, options.tune);
            const int resumed = tuner.resume(history);
            const int transferred = options.transfer ? tuner.transfer(history) : 0;
            if (events.onStart) events.onStart(j, tuner, resumed, transferred);
            auto onTrial = [&](const tune::TrialEvent& e) {
                if (events.onTrial) events.onTrial(j, e);
            };
            const tune::TuneResult r = tuner.run(measurer, &writer, onTrial, control);
            if (events.onDone) events.onDone(j, r);
        } catch (const CompileError& e) {
            if (!events.onFailed) throw;
            events.onFailed(j, e.diagnostic().message);
        } catch (const std::invalid_argument&) {
            throw; // a tuner or cost model that cannot be made fails every task alike
        } catch (const std::exception& e) {
            if (!events.onFailed) throw;
            events.onFailed(j, e.what());
        }
    }
}

void runTuningLoopOn(DeviceRunners& device, const CompileRequest& request, const std::vector<TuningJob>& jobs,
                     const TuningLoopOptions& options, const tune::CostModelRegistry& models,
                     const TuningEvents& events, tune::TuneControl* control) {
    RunOptions ro; // a remote device: this machine's reference
    device.apply(ro);
    codegen::LocalBuilder builder(request.target, request.buildOptions());
    runTuningLoop(jobs, options, {&builder, &device.runner(), ro.referenceBuilder, ro.referenceRunner}, models, events,
                  control);
}

std::vector<std::string> availableTuners(const tune::CostModelRegistry& models) {
    std::vector<std::string> out;
    for (auto& t : tune::tunerNames()) {
        const bool modelBased = t == "xgb" || t == "xgb-reg";
        if (!modelBased || models.find("xgb")) out.push_back(t);
    }
    return out;
}

bool isTunerName(const std::string& name) {
    const auto& names = tune::tunerNames();
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::optional<tune::FeatureKind> featureKindNamed(const std::string& name) {
    return tune::featureKindFromName(name);
}

} // namespace tessel::driver
