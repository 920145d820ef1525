// driver::extractTasks and apply-best (CompileOptions::configs) on graphs built
// in the test: identical workloads are one task weighted by their calls, the
// empty configuration is exactly the default schedule, another configuration
// computes the same values with another kernel, a stale configuration is a
// clear error; the per-kernel profile of a model run on a device (the local
// tessel-rpc server's profile-model) names every step.
#include "driver/ModelRunner.h"
#include "driver/ModelTasks.h"
#include "graph/Graph.h"
#include "ir/Diagnostic.h"
#include "rpc/RpcRunner.h"
#include "tir/IRPrinter.h"

#include "common/TuneConfigs.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>
#include <set>

using namespace tessel;
using test::otherThanDefault;
using test::randomValues;

namespace {

graph::TensorType type(const char* text) { return *graph::TensorType::parse(text); }


/// x[1,16,14,14] -> conv 3x3 (16->32) + relu -> conv 3x3 (32->32) + relu ->
/// conv 3x3 (32->32) + relu, twice more (the same workload, other weights)
/// -> flatten -> gemm (6272 -> 40).
graph::Graph model() {
    graph::Graph g("tasks");
    auto x = g.addInput("x", type("float32[1, 16, 14, 14]"));
    graph::Attributes pads;
    pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    auto conv = [&](graph::Value in, int64_t c, int64_t k, unsigned seed, const char* name) {
        auto w = g.addConstant(std::string(name) + "_w",
                               graph::Constant::fromFloats({k, c, 3, 3}, randomValues(size_t(k * c * 9), seed)));
        return g.addOp("Relu", {g.addOp("Conv", {in, w}, pads, name)}, {}, std::string(name) + "_relu");
    };
    auto y = conv(conv(conv(conv(x, 16, 32, 1, "c1"), 32, 32, 2, "c2"), 32, 32, 3, "c3"), 32, 32, 6, "c4");
    auto flat = g.addOp("Flatten", {y}, {}, "flatten");
    graph::Attributes transB;
    transB.set("transB", int64_t(1));
    auto wd = g.addConstant("fc_w", graph::Constant::fromFloats({40, 6272}, randomValues(40 * 6272, 4)));
    g.setOutputs({g.addOp("Gemm", {flat, wd}, transB, "fc")});
    return g;
}

runtime::NDArray input() {
    runtime::NDArray x({1, 16, 14, 14}, DataType::float32());
    auto r = randomValues(size_t(x.numElements()), 5);
    for (size_t i = 0; i < r.size(); ++i) x.data<float>()[i] = float(r[i]);
    return x;
}


} // namespace

class TestModelTasks : public QObject {
    Q_OBJECT
private slots:
    void identicalWorkloadsAreOneTask() {
        auto m = driver::compileGraph(model());
        auto tasks = driver::extractTasks(m);
        // c1 (16->32); c2, c3 and c4 (32->32, one workload); the dense layer.
        QCOMPARE(tasks.size(), size_t(3));
        QCOMPARE(tasks[0].weight, 1);
        QCOMPARE(tasks[1].weight, 3);
        QCOMPARE(tasks[1].functions.size(), size_t(3));
        QCOMPARE(tasks[2].weight, 1);
        QCOMPARE(QString::fromStdString(tasks[2].task->workload().op), QString("Gemm"));
        // Names and the fusion pass's annotations are not part of a workload.
        QVERIFY(tasks[1].task->workload().key.find("fuse.") == std::string::npos);
        for (auto& t : tasks) {
            QVERIFY(!t.task->knobs().empty());
            QVERIFY(t.task->flops() > 0);
            QVERIFY(t.task->workload().key.find(" @ ") != std::string::npos);
        }
        // The conv knobs: the input's block (c1 reads the plain input; its output
        // is stored in blocks by alter-layout), the schedule's, and the choice
        // of implementation with the Winograd alternative's own knobs beside.
        std::set<std::string> names;
        for (auto& k : tasks[0].task->knobs()) names.insert(k.name);
        for (const char* n : {"tile_ic", "reg_block", "unroll_kw", "strategy", "conv2d_winograd.reg_block"})
            QVERIFY2(names.count(n), n);
        QVERIFY(!names.count("tile_oc"));
        names.clear();
        for (auto& k : tasks[1].task->knobs()) names.insert(k.name);
        QVERIFY(!names.count("tile_ic")); // c2..c4 read their producer's blocks
    }

    void emptyConfigIsTheDefaultSchedule() {
        auto m = driver::compileGraph(model());
        auto tasks = driver::extractTasks(m);
        for (auto& t : tasks) {
            const driver::FusedFunction* f = m.findFunction(t.functions[0]);
            QVERIFY(f);
            auto inst = t.task->instantiate({});
            QCOMPARE(QString::fromStdString(tir::toString(inst.job.func)),
                     QString::fromStdString(tir::toString(f->lowered.lowered)));
            for (auto& k : inst.knobs) QCOMPARE(k.chosen, k.defaultIndex);
            // The reference computes the same signature.
            auto ref = t.task->reference();
            QCOMPARE(ref.job.signature.args.size(), inst.job.signature.args.size());
        }
    }

    void anotherConfigComputesTheSameValues() {
        const graph::Graph g = model();
        auto m = driver::compileGraph(g);
        auto base = driver::runModel(m, {input()}, {});
        QVERIFY2(base.ok, base.error.c_str());

        driver::CompileOptions o;
        for (auto& t : driver::extractTasks(m)) o.configs[t.task->workload().key] = otherThanDefault(t.task->knobs());
        auto tuned = driver::compileGraph(g, o);
        int changed = 0;
        for (auto& f : tuned.functions) {
            if (f.knobs.empty()) continue;
            QVERIFY(f.tuned);
            const driver::FusedFunction* d = m.findFunction(f.name);
            changed += tir::toString(d->lowered.lowered) != tir::toString(f.lowered.lowered);
        }
        QCOMPARE(changed, 5); // every tunable function got another kernel
        auto rep = driver::runModel(tuned, {input()}, {base.values[0]});
        QVERIFY2(rep.ok, rep.error.c_str());
        const auto& a = base.values[0];
        const auto& b = rep.values[0];
        double worst = 0, scale = 0;
        for (int64_t i = 0; i < a.numElements(); ++i) {
            worst = std::max(worst, std::fabs(double(a.data<float>()[i]) - b.data<float>()[i]));
            scale = std::max(scale, std::fabs(double(a.data<float>()[i])));
        }
        QVERIFY2(worst <= 1e-4 * scale, qPrintable(QString("max abs error %1 of %2").arg(worst).arg(scale)));
    }

    void aProfileOnTheDeviceTimesEveryKernel() {
        auto m = driver::compileGraph(model());
        rpc::RpcModelRunner local(std::make_shared<rpc::LocalEndpoint>());
        driver::ModelRunOptions ro;
        ro.repeat = 3;
        ro.profile = true;
        ro.runner = &local;
        auto rep = driver::runModel(m, {input()}, {}, ro);
        QVERIFY2(rep.ok, rep.error.c_str());
        QCOMPARE(rep.profile.size(), m.plan.steps.size());
        double sum = 0;
        for (size_t s = 0; s < rep.profile.size(); ++s) {
            QCOMPARE(rep.profile[s].function, m.plan.steps[s].function);
            QVERIFY(rep.profile[s].ms > 0);
            sum += rep.profile[s].ms;
            if (m.findFunction(rep.profile[s].function)->flops > 0) QVERIFY(rep.profile[s].gflops > 0);
        }
        // The kernels' times add up to about one run (each timed alone; allow for noise).
        QVERIFY2(sum < 5 * rep.latencyMs + 1, qPrintable(QString("%1 ms of kernels, %2 ms a run").arg(sum).arg(rep.latencyMs)));
    }

    // A configuration that no longer fits its template (a stale record) is
    // skipped with a warning naming the function; the function keeps its
    // default schedule and the model still runs. A task rejects it, as a
    // failed build would be.
    void staleConfigIsSkippedWithAWarning() {
        const graph::Graph g = model();
        auto m = driver::compileGraph(g);
        QVERIFY(m.warnings.empty());
        auto tasks = driver::extractTasks(m);
        const std::string key = tasks[0].task->workload().key;
        for (const std::map<std::string, int64_t>& stale :
             {std::map<std::string, int64_t>{{"reg_block", 999}}, {{"no_such_knob", 0}}, {{"tile_ow", 1}}}) {
            driver::CompileOptions o;
            o.configs[key] = stale;
            auto s = driver::compileGraph(g, o);
            QCOMPARE(int(s.warnings.size()), 1);
            const QString msg = QString::fromStdString(s.warnings[0]);
            QVERIFY2(msg.contains("tuned configuration") && msg.contains("default schedule is used") &&
                         msg.contains(QString::fromStdString(stale.begin()->first)),
                     qPrintable(msg));
            for (auto& f : s.functions)
                if (f.workload == key) QVERIFY(!f.tuned);
            auto a = driver::runModel(s, {input()}, {}), b = driver::runModel(m, {input()}, {});
            QVERIFY(a.ok && b.ok);
            QVERIFY(runtime::compare(a.values[0], b.values[0], 0, 0).allClose);
        }
        QVERIFY_THROWS_EXCEPTION(CompileError, tasks[0].task->instantiate({{"reg_block", 999}}));
    }
};

QTEST_GUILESS_MAIN(TestModelTasks)
#include "tst_modeltasks.moc"
