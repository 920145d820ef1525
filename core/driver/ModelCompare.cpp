#include "driver/ModelCompare.h"

#include "driver/ModelRunner.h"
#include "ir/Diagnostic.h"
#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>

namespace tessel::driver {

const CompareRow* CompareResult::find(const std::string& function) const {
    for (const auto& r : rows)
        if (r.function == function) return &r;
    return nullptr;
}

namespace {

/// One compile shared by the sides that want it.
struct Compiled {
    CompiledModel model;
    Target target;
};

/// The compile each model runner has loaded now (sides may share a runner).
using Loaded = std::map<runtime::ModelRunner*, const Compiled*>;

/// Runs one side on its model runner (its own in-process one when none is given).
class SideRunner {
public:
    SideRunner(Compiled& compiled, const CompareSide& side, const CompareOptions& options, Loaded& loaded,
               int poolThreads)
        : c_(compiled), side_(side), options_(options), loaded_(loaded),
          runner_(side.runner ? *side.runner : here_),
          threads_(side.threads > 0 ? side.threads : poolThreads) {}
    SideRunner(const SideRunner&) = delete;
    SideRunner& operator=(const SideRunner&) = delete;

    /// Loads the model and runs it once on `inputs`: its outputs.
    std::vector<runtime::NDArray> start(const std::vector<runtime::NDArray>& inputs) {
        inputs_ = inputs;
        ensureLoaded();
        const runtime::ModelTiming first = runner_.run(spec(0)); // one run, timed alone: the first estimate
        threads_ = first.threads;
        if (!first.ms.empty()) lastMs_ = first.ms[0];
        return runner_.outputs();
    }

    /// Times `runs` whole runs one by one (their median is the round's
    /// figure), then every step over as many runs (each step's median).
    CompareRound round() {
        CompareRound r;
        ensureLoaded();
        const runtime::ModelRunSpec s = spec(runsPerRound());
        const runtime::ModelTiming t = runner_.run(s);
        if (t.ms.empty()) throw std::runtime_error("the device returned no timing");
        r.ms = runtime::median(t.ms);
        lastMs_ = r.ms;
        threads_ = t.threads;
        r.stepMs = runner_.profile(s).ms;
        if (r.stepMs.size() != c_.model.plan.steps.size())
            throw std::runtime_error("the device profiled " + std::to_string(r.stepMs.size()) + " steps of " +
                                     std::to_string(c_.model.plan.steps.size()));
        return r;
    }

    int threads() const { return threads_; }

private:
    /// In this process the pool is global: each side sets its thread count
    /// on every run; a device's pool is its own (0: as it has it).
    runtime::ModelRunSpec spec(int repeat) const {
        runtime::ModelRunSpec s;
        s.threads = side_.runner ? std::max(0, side_.threads) : threads_;
        s.repeat = repeat;
        s.timeoutSeconds = options_.timeoutSeconds;
        return s;
    }

    /// Runs per round: enough to fill about minRoundMs at the last figure's
    /// pace, within [1, maxRunsPerRound], so a model of microseconds is not
    /// timed by one run.
    int runsPerRound() const {
        const double most = std::max(1, options_.maxRunsPerRound);
        if (!(lastMs_ > 0)) return 1;
        return int(std::clamp(std::ceil(options_.minRoundMs / lastMs_), 1.0, most));
    }

    /// Puts this side's model (and inputs) into its runner, unless they are there already.
    void ensureLoaded() {
        if (loaded_[&runner_] == &c_) return;
        loaded_[&runner_] = nullptr;
        runner_.load(packageOf(c_.model));
        runner_.setInputs(inputs_);
        loaded_[&runner_] = &c_;
    }

    Compiled& c_;
    const CompareSide& side_;
    const CompareOptions& options_;
    Loaded& loaded_;
    runtime::InProcessModelRunner here_;
    runtime::ModelRunner& runner_;
    int threads_;
    double lastMs_ = 0; ///< the last figure of one run (the first run's time at first)
    std::vector<runtime::NDArray> inputs_;
};

/// Restores the global pool's thread count however the comparison ends.
struct PoolGuard {
    int threads = runtime::ThreadPool::global().numThreads();
    ~PoolGuard() {
        auto& pool = runtime::ThreadPool::global();
        if (pool.numThreads() != threads) pool.setNumThreads(threads);
    }
};

/// The seeded inputs of the model, as runModel makes them.
std::vector<runtime::NDArray> seededInputs(const CompiledModel& m, uint64_t seed) {
    std::vector<runtime::NDArray> values;
    for (size_t i = 0; i < m.plan.inputs.size(); ++i) {
        const auto& info = m.plan.tensors[size_t(m.plan.inputs[i])];
        runtime::NDArray v(info.shape, info.dtype);
        v.fillRandom(seed + i, 0.0, 1.0);
        values.push_back(std::move(v));
    }
    return values;
}

/// The two sides' inputs and outputs must have the same names, types and shapes.
void checkSameInterface(const CompiledModel& a, const CompiledModel& b) {
    auto describe = [](const CompiledModel& m, const std::vector<int>& ids) {
        std::string s;
        for (int i : ids) {
            const auto& t = m.plan.tensors[size_t(i)];
            s += t.name + ":" + runtime::NDArray(t.shape, t.dtype).str() + " ";
        }
        return s;
    };
    if (describe(a, a.plan.inputs) != describe(b, b.plan.inputs) ||
        describe(a, a.plan.outputs) != describe(b, b.plan.outputs))
        throw CompileError("the two sides' compiled models take or give different tensors");
}

/// Compares B's outputs with A's; an error message, or "" when they agree.
std::string checkOutputs(const std::vector<runtime::NDArray>& a, const std::vector<runtime::NDArray>& b,
                         const CompiledModel& model, double tolerance, CompareResult& r) {
    r.outputsChecked = true;
    r.maxAbsA = 0;
    for (const auto& v : a)
        for (int64_t i = 0; i < v.numElements(); ++i) r.maxAbsA = std::max(r.maxAbsA, std::fabs(v.at(i)));
    const double atol = tolerance * std::max(r.maxAbsA, 1e-30);
    std::string error;
    for (size_t o = 0; o < a.size() && o < b.size(); ++o) {
        const std::string name = model.plan.tensors[size_t(model.plan.outputs[o])].name;
        const runtime::CompareResult cmp = runtime::compare(b[o], a[o], 0, atol);
        r.maxAbsDiff = std::max(r.maxAbsDiff, cmp.maxAbsError);
        if (!cmp.shapesMatch)
            error += "output '" + name + "' is " + b[o].str() + " on B but " + a[o].str() + " on A; ";
        else if (!cmp.allClose)
            error += "output '" + name + "' differs: " + std::to_string(cmp.numMismatches) +
                     " elements, max |B - A| " + std::to_string(cmp.maxAbsError) + " (tolerance " +
                     std::to_string(atol) + "); ";
    }
    if (a.size() != b.size()) error += "the sides give different numbers of outputs; ";
    r.outputsAgree = error.empty();
    if (!error.empty()) error = "the outputs disagree: " + error.substr(0, error.size() - 2);
    return error;
}

/// Per function of `m`: its calls per run and the plan steps that call it.
struct FunctionSteps {
    std::vector<std::string> order;                        ///< first call order
    std::map<std::string, std::vector<size_t>> steps;
};

FunctionSteps stepsOf(const CompiledModel& m) {
    FunctionSteps f;
    for (size_t s = 0; s < m.plan.steps.size(); ++s) {
        const std::string& name = m.plan.steps[s].function;
        if (!f.steps.count(name)) f.order.push_back(name);
        f.steps[name].push_back(s);
    }
    return f;
}

} // namespace

void summariseRounds(const CompiledModel& ma, const CompiledModel& mb, const std::vector<CompareRound>& ra,
                     const std::vector<CompareRound>& rb, CompareResult& r) {
    const FunctionSteps fa = stepsOf(ma), fb = stepsOf(mb);
    r.notes.clear();
    for (const auto& n : fa.order)
        if (!fb.steps.count(n)) r.notes.push_back(n + " runs only on " + r.labelA);
    for (const auto& n : fb.order)
        if (!fa.steps.count(n)) r.notes.push_back(n + " runs only on " + r.labelB);
    std::vector<std::string> names = fa.order;
    for (const auto& n : fb.order)
        if (!fa.steps.count(n)) names.push_back(n);
    auto figure = [](const CompiledModel& m, const FunctionSteps& fs, const std::vector<CompareRound>& rounds,
                     const std::string& name, int& calls, double& ms, double& gflops, bool& tuned) {
        auto it = fs.steps.find(name);
        if (it == fs.steps.end()) return;
        calls = int(it->second.size());
        const FusedFunction* f = m.findFunction(name);
        tuned = f && f->tuned;
        if (rounds.empty()) return;
        std::vector<double> perRound;
        for (const CompareRound& round : rounds) {
            double sum = 0;
            for (size_t s : it->second) sum += round.stepMs.at(s);
            perRound.push_back(sum);
        }
        ms = runtime::median(perRound);
        if (f && ms > 0) gflops = f->flops * calls / (ms * 1e-3) * 1e-9;
    };
    r.rows.clear();
    for (const auto& name : names) {
        CompareRow row;
        row.function = name;
        figure(ma, fa, ra, name, row.callsA, row.msA, row.gflopsA, row.tunedA);
        figure(mb, fb, rb, name, row.callsB, row.msB, row.gflopsB, row.tunedB);
        if (row.inA() && row.inB() && row.msA > 0) row.ratio = row.msB / row.msA;
        r.rows.push_back(row);
    }
    r.runsA.clear();
    r.runsB.clear();
    for (const CompareRound& x : ra) r.runsA.push_back(x.ms);
    for (const CompareRound& x : rb) r.runsB.push_back(x.ms);
    r.rounds = int(std::min(ra.size(), rb.size()));
    if (r.rounds > 0) {
        r.latencyA = runtime::median(r.runsA);
        r.latencyB = runtime::median(r.runsB);
        if (r.latencyA > 0) r.ratio = r.latencyB / r.latencyA;
    }
}

namespace {

std::string sideLabel(const CompareSide& s, const char* fallback) { return s.label.empty() ? fallback : s.label; }

/// Thrown (inside) when the user cancels a compile through its progress callback.
struct Cancelled {};

} // namespace

CompareResult compareModels(const graph::Graph& imported, const CompareSide& a, const CompareSide& b,
                            const CompareOptions& options) {
    CompareResult r;
    r.labelA = sideLabel(a, "A");
    r.labelB = sideLabel(b, "B");
    r.targetA = a.target.str();
    r.targetB = b.target.str();
    bool cancel = false;
    auto progress = [&](double f, const std::string& stage) {
        if (options.progress && !options.progress(std::clamp(f, 0.0, 1.0), stage)) cancel = true;
        return !cancel;
    };

    // Compile: once per distinct (target, configurations); 0 .. 0.5 of the progress.
    const bool shared = a.target.str() == b.target.str() && a.configs == b.configs;
    std::vector<std::unique_ptr<Compiled>> compiles;
    const CompareSide* sides[2] = {&a, &b};
    const std::string labels[2] = {r.labelA, r.labelB};
    try {
        for (int s = 0; s < (shared ? 1 : 2); ++s) {
            const double base = 0.5 * s / (shared ? 1 : 2), share = 0.5 / (shared ? 1 : 2);
            CompileOptions co = options.compile;
            co.request.target = sides[s]->target;
            co.configs = sides[s]->configs;
            co.trace = false;
            const std::string what = shared ? "compiling" : "compiling " + labels[s];
            co.progress = [&, base, share, what](double f, const std::string& stage) {
                return progress(base + share * f, what + ": " + stage);
            };
            auto c = std::make_unique<Compiled>();
            c->target = sides[s]->target;
            try {
                c->model = compileGraph(imported, co);
            } catch (const CompileError& e) {
                if (cancel) throw Cancelled{};
                Diagnostic d = e.diagnostic();
                d.message = labels[s] + ": " + d.message;
                throw CompileError(d);
            }
            // A stale record was skipped (the function took its default): say so.
            for (const auto& w : c->model.warnings) r.warnings.push_back(labels[s] + ": " + w);
            compiles.push_back(std::move(c));
        }
    } catch (const Cancelled&) {
        r.cancelled = true;
        return r;
    }
    r.compiles = int(compiles.size());
    Compiled& ca = *compiles.front();
    Compiled& cb = *compiles.back();
    for (const auto& f : ca.model.functions) r.tunableA += !f.knobs.empty();
    for (const auto& f : cb.model.functions) r.tunableB += !f.knobs.empty();
    checkSameInterface(ca.model, cb.model);

    const PoolGuard pool;
    Loaded loaded;
    const std::vector<runtime::NDArray> inputs = seededInputs(ca.model, options.seed);
    std::vector<CompareRound> ra, rb;
    try {
        SideRunner runA(ca, a, options, loaded, pool.threads);
        SideRunner runB(cb, b, options, loaded, pool.threads);
        if (!progress(0.5, "starting " + r.labelA)) throw Cancelled{};
        const auto outA = runA.start(inputs);
        if (!progress(0.52, "starting " + r.labelB)) throw Cancelled{};
        const auto outB = runB.start(inputs);
        r.threadsA = runA.threads();
        r.threadsB = runB.threads();
        r.error = checkOutputs(outA, outB, ca.model, options.tolerance, r);
        const int rounds = std::max(1, options.rounds);
        for (int i = 0; i < rounds; ++i) {
            const double f = 0.55 + 0.45 * i / rounds;
            if (!progress(f, "round " + std::to_string(i + 1) + " of " + std::to_string(rounds))) throw Cancelled{};
            CompareRound x = runA.round();
            if (!progress(f + 0.45 / rounds / 2, "round " + std::to_string(i + 1) + " of " + std::to_string(rounds)))
                throw Cancelled{};
            CompareRound y = runB.round();
            ra.push_back(std::move(x));
            rb.push_back(std::move(y));
            r.threadsA = runA.threads();
            r.threadsB = runB.threads();
        }
        progress(1.0, "done");
    } catch (const Cancelled&) {
        r.cancelled = true;
    } catch (const std::exception& e) {
        const std::string why = e.what();
        const std::string at = ra.size() == size_t(std::max(1, options.rounds))
                                   ? std::string()
                                   : " (after " + std::to_string(ra.size()) + " complete rounds)";
        r.error = (r.error.empty() ? "" : r.error + "; ") + "the run failed" + at + ": " + why;
    }
    summariseRounds(ca.model, cb.model, ra, rb, r);
    return r;
}

CompareResult compareModels(const std::string& path, const frontend::ImportOptions& import, const CompareSide& a,
                            const CompareSide& b, const CompareOptions& options) {
    frontend::ImportOptions io = import;
    if (!io.ops) io.ops = &options.compile.request.registries().ops;
    return compareModels(frontend::importOnnx(path, io), a, b, options);
}

// ---------------------------------------------------------------- CSV

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string number(double v) {
    if (!std::isfinite(v)) return {};
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string integer(int v, bool present) { return present ? std::to_string(v) : std::string(); }

} // namespace

const std::vector<std::string>& compareCsvColumns() {
    static const std::vector<std::string> columns = {"function", "calls_a",  "calls_b", "ms_a",    "ms_b",
                                                     "gflops_a", "gflops_b", "ratio",   "tuned_a", "tuned_b"};
    return columns;
}

std::string compareCsv(const CompareResult& result) {
    std::string out;
    const auto& cols = compareCsvColumns();
    for (size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + cols[i];
    out += "\n";
    for (const CompareRow& row : result.rows) {
        const std::vector<std::string> fields = {csvField(row.function),
                                                 integer(row.callsA, row.inA()),
                                                 integer(row.callsB, row.inB()),
                                                 number(row.msA),
                                                 number(row.msB),
                                                 row.inA() ? number(row.gflopsA) : std::string(),
                                                 row.inB() ? number(row.gflopsB) : std::string(),
                                                 number(row.ratio),
                                                 row.inA() ? (row.tunedA ? "1" : "0") : "",
                                                 row.inB() ? (row.tunedB ? "1" : "0") : ""};
        for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + fields[i];
        out += "\n";
    }
    out += std::string(kEndToEnd) + ",,," + number(result.latencyA) + "," + number(result.latencyB) + ",,," +
           number(result.ratio) + ",,\n";
    return out;
}

} // namespace tessel::driver
