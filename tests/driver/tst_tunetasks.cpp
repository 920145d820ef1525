// driver::ScriptTask: a TE script template as a tuning task. Its workload key
// names the template, the parameters and the target; its knobs and FLOPs come
// from the script; a configuration instantiates a kernel that builds and
// matches its reference (per layout, for a template that packs its inputs);
// a bad configuration is a CompileError; it makes itself for another workload;
// and instantiating from several threads at once gives the same kernels.
#include "driver/Measure.h"
#include "driver/TuneTasks.h"
#include "runtime/InProcessRunner.h"
#include "tir/IRPrinter.h"
#include "tune/Space.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <thread>

using namespace tessel;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

driver::ScriptTask templateTask(const char* name, std::map<std::string, int64_t> workload = {}) {
    driver::ScriptTaskOptions o;
    o.fileName = name;
    o.workload = std::move(workload);
    return driver::ScriptTask(readText(std::string(TESSEL_SOURCE_DIR "/resources/templates/") + name), o);
}

/// Builds and runs an instance in this process on seeded inputs; its outputs.
std::vector<runtime::NDArray> run(const tune::Instance& inst) {
    codegen::LocalBuilder builder(codegen::hostTarget());
    runtime::InProcessRunner runner;
    runtime::RunRequest req;
    req.untimed = true;
    const auto r = runner.run(builder.build(inst.job), req);
    if (!r.ok) throw std::runtime_error(r.message);
    return r.outputs;
}

/// "float32[1, 2, 8, 8, 8] float32[...] out float32[...]": the arguments without the name.
std::string argTypes(const tune::Instance& inst) {
    std::string out;
    for (auto& a : inst.job.signature.args) out += (a.output ? "out " : "") + a.typeText() + " ";
    return out;
}

} // namespace

class TestTuneTasks : public QObject {
    Q_OBJECT
private slots:
    void workloadKnobsAndFlops() {
        const auto task = templateTask("gemm.te", {{"M", 64}, {"K", 32}});
        QCOMPARE(task.name(), std::string("gemm.te M=64,N=1024,K=32"));
        QCOMPARE(task.workload().op, std::string("template:gemm"));
        QCOMPARE(task.workload().key, "template:gemm(M=64,N=1024,K=32) " + codegen::hostTarget().str());
        QCOMPARE(task.target(), codegen::hostTarget().str());
        const auto j = nlohmann::json::parse(task.workload().json);
        QCOMPARE(j["template"].get<std::string>(), std::string("gemm"));
        QCOMPARE(j["function"].get<std::string>(), std::string("gemm"));
        QCOMPARE(j["params"]["K"].get<int64_t>(), int64_t(32));
        QCOMPARE(j["key"].get<std::string>(), task.workload().key);
        QCOMPARE(task.flops(), 2.0 * 64 * 1024 * 32);
        QCOMPARE(int(task.knobs().size()), 6);
        QCOMPARE(task.knobs()[0].name, std::string("tile_y"));
        // Another workload is another key; the same one the same key.
        QVERIFY(templateTask("gemm.te").workload().key != task.workload().key);
        QCOMPARE(templateTask("gemm.te", {{"M", 64}, {"K", 32}}).workload().key, task.workload().key);
    }

    void aConfigurationBuildsAndMatchesItsReference() {
        // The blocked convolution as topi computes it in a model (data and output
        // in channel blocks): every configuration against its reference.
        const auto task = templateTask("conv2d_nchwc.te", {{"C", 16}, {"OC", 16}, {"H", 8}, {"W", 8}});
        tune::Space space(task.knobs());
        for (int64_t i : {space.defaultIndex(), int64_t(0), space.size() - 1, space.size() / 3}) {
            const tune::Config c = space.config(i);
            const tune::Instance inst = task.instantiate(c);
            QCOMPARE(inst.job.flops, task.flops());
            QCOMPARE(inst.job.workload, task.workload().key);
            QCOMPARE(int(inst.knobs.size()), int(task.knobs().size()));
            for (auto& k : inst.knobs) QCOMPARE(k.chosen, c.at(k.name));
            const tune::Instance ref = task.referenceFor(c);
            QCOMPARE(argTypes(ref), argTypes(inst));
            const auto got = run(inst), want = run(ref);
            QCOMPARE(got.size(), want.size());
            const auto cmp = runtime::compare(got[0], want[0], 1e-4, 1e-5);
            QVERIFY2(cmp.allClose, cmp.str().c_str());
        }
        // The layouts are the model's, fixed: another register block is another
        // kernel of the same signature.
        tune::Config a = space.config(space.defaultIndex()), b = a;
        b["reg_block"] = a.at("reg_block") == 0 ? 1 : 0;
        QCOMPARE(task.instantiate(a).job.signature.str(), task.instantiate(b).job.signature.str());
        QVERIFY(tir::toString(task.instantiate(a).job.func) != tir::toString(task.instantiate(b).job.func));
        QCOMPARE(argTypes(task.reference()), argTypes(task.instantiate(a)));
    }

    void featureFunctionKeepsTheLoopAnnotations() {
        const auto task = templateTask("gemm.te", {{"M", 64}, {"N", 64}, {"K", 64}});
        const std::string text = tir::toString(task.featureFunction({}));
        QVERIFY2(text.find("T.vectorized") != std::string::npos, text.c_str());
        QVERIFY2(text.find("T.unroll") != std::string::npos, text.c_str());
        QVERIFY2(text.find("T.parallel") != std::string::npos, text.c_str());
    }

    void badConfigurationsAreCompileErrors() {
        const auto task = templateTask("gemm.te", {{"M", 64}, {"N", 64}, {"K", 64}});
        QVERIFY_THROWS_EXCEPTION(CompileError, task.instantiate({{"tile_y", 99}}));
        QVERIFY_THROWS_EXCEPTION(CompileError, task.instantiate({{"no_such_knob", 0}}));
        QVERIFY_THROWS_EXCEPTION(CompileError, templateTask("gemm.te", {{"Q", 3}}));
        driver::ScriptTaskOptions o;
        o.fileName = "broken.te";
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::ScriptTask("x = = 1\n", o));
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::ScriptTask("x = 1\n", o)); // builds no function
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::ScriptTask::fromFile("/no/such/file.te", o));
    }

    void forAnotherWorkload() {
        const auto task = templateTask("gemm.te", {{"M", 64}, {"N", 64}, {"K", 64}});
        const auto other = templateTask("gemm.te", {{"M", 128}, {"N", 64}, {"K", 32}});
        auto made = task.forWorkload(other.workload().json);
        QVERIFY(made);
        QCOMPARE(made->workload().key, other.workload().key);
        QCOMPARE(made->flops(), other.flops());
        QVERIFY(!task.forWorkload(templateTask("conv2d_nchwc.te").workload().json));
        QVERIFY(!task.forWorkload("not json"));
        QVERIFY(!task.forWorkload(R"({"template": "gemm", "params": {"Q": 1}})"));
    }

    void instantiatesFromSeveralThreadsAtOnce() {
        const auto task = templateTask("conv2d_nchwc.te", {{"C", 32}, {"OC", 32}, {"H", 14}, {"W", 14}});
        tune::Space space(task.knobs());
        std::vector<std::string> serial, parallel(16);
        for (int64_t i = 0; i < 16; ++i) serial.push_back(tir::toString(task.instantiate(space.config(i * 97 % space.size())).job.func));
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int64_t i = t; i < 16; i += 4)
                    parallel[size_t(i)] = tir::toString(task.instantiate(space.config(i * 97 % space.size())).job.func);
            });
        for (auto& t : threads) t.join();
        QCOMPARE(parallel, serial);
    }
};

QTEST_APPLESS_MAIN(TestTuneTasks)
#include "tst_tunetasks.moc"
