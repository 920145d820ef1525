#include "tune/Measure.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "runtime/TimeEvaluator.h"
#include "tune/Reference.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>
#include <thread>

namespace tessel::tune {

double MeasureResult::seconds() const {
    return ok() ? runtime::median(costs) : std::numeric_limits<double>::infinity();
}

double MeasureResult::gflops() const {
    const double s = seconds();
    return ok() && s > 0 && std::isfinite(s) ? flops / s / 1e9 : 0.0;
}

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// A configuration instantiated and built, or why not.
struct Built {
    runtime::BuildArtifact artifact;
    runtime::MeasureError error = runtime::MeasureError::None;
    std::string message;
    double seconds = 0;
};

Built build(const Task& task, const Config& config, codegen::Builder& builder) {
    Built b;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        Instance inst = task.instantiate(config);
        b.artifact = builder.build(inst.job);
    } catch (const CompileError& e) {
        b.error = runtime::MeasureError::Build;
        b.message = e.diagnostic().str();
    } catch (const std::exception& e) {
        // An internal error in lowering or codegen: still this trial's failure.
        b.error = runtime::MeasureError::Build;
        b.message = std::string("internal error: ") + e.what();
    }
    b.seconds = since(t0);
    return b;
}

int hardwareThreads() { return std::max(1, int(std::thread::hardware_concurrency())); }

} // namespace

Measurer::Measurer(codegen::Builder& builder, runtime::Runner& runner, MeasureOptions options)
    : builder_(builder), runner_(runner), options_(options),
      ownStore_(std::make_unique<runtime::ReferenceStore>(16)), store_(ownStore_.get()) {}

void Measurer::setReference(codegen::Builder* builder, runtime::Runner* runner) {
    referenceBuilder_ = builder;
    referenceRunner_ = runner;
}

std::vector<runtime::NDArray> Measurer::reference(const Task& task, const Config& config,
                                                  const runtime::KernelSignature& signature, Failure& failed) {
    const std::string key = "task:" + task.workload().key + "\n" + signature.str();
    if (auto it = failed_.find(key); it != failed_.end()) {
        failed = it->second;
        return {};
    }
    runtime::RunRequest req;
    req.seed = options_.seed;
    req.threads = options_.threads;
    // The reference is a plain loop nest: allow it far longer than a trial.
    req.timeoutSeconds = std::max(120.0, 20 * options_.timeoutSeconds);
    ReferenceOutputs ref = referenceOutputs(
        store_, key, req, [&] { return task.referenceFor(config).job; },
        referenceBuilder_ ? *referenceBuilder_ : builder_, referenceRunner_ ? *referenceRunner_ : runner_);
    referenceRuns_ += ref.computed;
    if (!ref.ok()) {
        failed = failed_[key] = Failure{ref.error, ref.message};
        return {};
    }
    return std::move(ref.outputs);
}

std::vector<MeasureResult> Measurer::measure(const Task& task, const std::vector<Config>& configs,
                                             const OnResult& onResult) {
    std::vector<MeasureResult> results;
    if (configs.empty()) return results;
    const int kernelThreads = options_.threads > 0 ? options_.threads : hardwareThreads();
    const int jobs = std::min<int>(int(configs.size()),
                                   options_.buildJobs > 0 ? options_.buildJobs
                                                          : std::max(1, hardwareThreads() - kernelThreads));
    const bool overlap = options_.overlap == MeasureOptions::Overlap::On ||
                         (options_.overlap == MeasureOptions::Overlap::Auto && jobs + kernelThreads <= hardwareThreads());

    // Workers take configurations in order, so the one the runner needs next
    // is always the earliest not yet built.
    std::vector<std::promise<Built>> promises(configs.size());
    std::vector<std::future<Built>> futures;
    for (auto& p : promises) futures.push_back(p.get_future());
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> workers;
    for (int w = 0; w < jobs; ++w)
        workers.emplace_back([&] {
            for (size_t i; (i = next.fetch_add(1)) < configs.size();) {
                if (stop) {
                    Built cancelled;
                    cancelled.error = runtime::MeasureError::Cancelled;
                    promises[i].set_value(std::move(cancelled));
                    continue;
                }
                promises[i].set_value(build(task, configs[i], builder_));
            }
        });
    struct Joiner {
        std::vector<std::thread>& threads;
        std::atomic<bool>& stop;
        ~Joiner() {
            stop = true;
            for (auto& t : threads) t.join();
        }
    } joiner{workers, stop};
    if (!overlap)
        for (auto& f : futures) f.wait();

    for (size_t i = 0; i < configs.size(); ++i) {
        Built b = futures[i].get();
        MeasureResult m;
        m.config = configs[i];
        m.flops = task.flops();
        m.buildSeconds = b.seconds;
        const auto t0 = std::chrono::steady_clock::now();
        if (b.error != runtime::MeasureError::None) {
            m.error = b.error;
            m.message = b.message;
        } else try {
            Failure refFailed{runtime::MeasureError::None, {}};
            const std::vector<runtime::NDArray> ref =
                options_.check ? reference(task, configs[i], b.artifact.signature, refFailed)
                               : std::vector<runtime::NDArray>{};
            if (refFailed.error != runtime::MeasureError::None) {
                m.error = refFailed.error;
                m.message = refFailed.message;
            } else {
                runtime::RunRequest req;
                req.evaluator = options_.evaluator;
                req.threads = options_.threads;
                req.seed = options_.seed;
                req.fetchOutputs = options_.check;
                req.timeoutSeconds = options_.timeoutSeconds;
                runtime::RunResult r = runner_.run(b.artifact, req);
                m.threads = r.threads;
                if (!r.ok) {
                    m.error = r.error;
                    m.message = r.message;
                } else if (options_.check) {
                    const runtime::OutputCheck c = runtime::checkOutputs(r.outputs, ref, options_.tolerance);
                    if (!c.ok) {
                        m.error = runtime::MeasureError::WrongResult;
                        m.message = c.message;
                    }
                }
                if (m.error == runtime::MeasureError::None)
                    for (double ms : r.repeatsMs) m.costs.push_back(ms * 1e-3);
                if (m.error == runtime::MeasureError::None && m.costs.empty()) {
                    m.error = runtime::MeasureError::Runtime;
                    m.message = "the runner returned no timings";
                }
            }
        } catch (const std::exception& e) {
            // A runner that lost its device, a comparison that cannot be
            // made: this trial fails, the run goes on.
            m.costs.clear();
            m.error = runtime::MeasureError::Device;
            m.message = e.what();
        }
        m.runSeconds = since(t0);
        m.timestamp = now();
        results.push_back(m);
        if (onResult && !onResult(i, results.back())) break;
    }
    return results;
}

} // namespace tessel::tune
