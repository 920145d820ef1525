#include "driver/TuningLoop.h"

#include "ir/Diagnostic.h"
#include "tune/Records.h"

#include <stdexcept>

namespace tessel::driver {

void runTuningLoop(const std::vector<TuningJob>& jobs, const TuningLoopOptions& options, const TuningDevice& device,
                   const tune::CostModelRegistry& models, const TuningEvents& events, tune::TuneControl* control) {
    if (options.records.empty()) throw std::invalid_argument("tuning needs a records file (trials are appended to it)");
    if (options.tune.trials <= 0) throw std::invalid_argument("tuning needs a number of trials > 0");
    if (!device.builder || !device.runner) throw std::invalid_argument("tuning needs a builder and a runner");

    std::vector<std::string> warnings;
    tune::Records history = tune::Records::load(options.records, &warnings, false);
    if (events.onWarning)
        for (auto& w : warnings) events.onWarning(w);
    tune::RecordWriter writer(options.records);
    tune::Measurer measurer(*device.builder, *device.runner, options.measure);
    measurer.setReference(device.referenceBuilder, device.referenceRunner);

    for (size_t j = 0; j < jobs.size(); ++j) {
        if (control && control->stopRequested()) break;
        // The tasks tuned before this one in the same run teach its model too.
        if (j > 0 && options.transfer) history = tune::Records::load(options.records, nullptr, false);
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

} // namespace tessel::driver
