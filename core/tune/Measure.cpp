#include "tune/Measure.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "runtime/TimeEvaluator.h"

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
    : builder_(builder), runner_(runner), options_(options) {}

void Measurer::setReference(codegen::Builder* builder, runtime::Runner* runner) {
    referenceBuilder_ = builder;
    referenceRunner_ = runner;
}

const Measurer::Reference& Measurer::reference(const Task& task, const Config& config,
                                               const runtime::KernelSignature& signature) {
    const std::string key = task.workload().key + "\n" + signature.str();
    auto it = references_.find(key);
    if (it != references_.end()) return it->second;
    Reference ref;
    ++referenceRuns_;
    codegen::Builder& builder = referenceBuilder_ ? *referenceBuilder_ : builder_;
    runtime::Runner& runner = referenceRunner_ ? *referenceRunner_ : runner_;
    runtime::BuildArtifact artifact;
    try {
        artifact = builder.build(task.referenceFor(config).job);
    } catch (const std::exception& e) {
        ref.error = runtime::MeasureError::Build;
        ref.message = std::string("the reference schedule failed to build: ") + e.what();
        return references_[key] = std::move(ref);
    }
    runtime::RunRequest req;
    req.untimed = true;
    req.seed = options_.seed;
    req.threads = options_.threads;
    // The reference is a plain loop nest: allow it far longer than a trial.
    req.timeoutSeconds = std::max(120.0, 20 * options_.timeoutSeconds);
    runtime::RunResult r = runner.run(artifact, req);
    if (!r.ok) {
        ref.error = r.error;
        ref.message = "the reference schedule failed: " + r.message;
        return references_[key] = std::move(ref);
    }
    ref.ok = true;
    ref.outputs = std::move(r.outputs);
    for (auto& o : ref.outputs)
        for (int64_t i = 0; i < o.numElements(); ++i) ref.maxAbs = std::max(ref.maxAbs, std::fabs(o.at(i)));
    return references_[key] = std::move(ref);
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
            const Reference* ref = options_.check ? &reference(task, configs[i], b.artifact.signature) : nullptr;
            if (ref && !ref->ok) {
                m.error = ref->error;
                m.message = ref->message;
            } else {
                runtime::RunRequest req;
                req.evaluator = options_.evaluator;
                req.threads = options_.threads;
                req.seed = options_.seed;
                req.fetchOutputs = options_.check;
                req.timeoutSeconds = options_.timeoutSeconds;
                runtime::RunResult r = runner_.run(b.artifact, req);
                if (!r.ok) {
                    m.error = r.error;
                    m.message = r.message;
                } else if (ref) {
                    const double atol = options_.tolerance * std::max(ref->maxAbs, 1e-30);
                    std::string why;
                    if (r.outputs.size() != ref->outputs.size())
                        why = "the kernel has " + std::to_string(r.outputs.size()) + " outputs, the reference " +
                              std::to_string(ref->outputs.size());
                    for (size_t o = 0; why.empty() && o < ref->outputs.size(); ++o) {
                        const runtime::CompareResult c = runtime::compare(r.outputs[o], ref->outputs[o], 0.0, atol);
                        if (!c.shapesMatch || !c.allClose)
                            why = "output " + std::to_string(o) + " differs from the reference schedule's: " + c.str();
                    }
                    if (!why.empty()) {
                        m.error = runtime::MeasureError::WrongResult;
                        m.message = why;
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
