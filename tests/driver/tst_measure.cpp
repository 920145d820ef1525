// The build and run seams: a Builder's artifact (shared object + signature)
// run through a Runner gives what the JIT path gives; runAndCheck builds,
// runs and checks through them, with reference outputs kept by workload and
// seed; failures come back as error kinds, never as exceptions.

#include "codegen/Builder.h"
#include "codegen/CodeGenLLVM.h"
#include "driver/Measure.h"
#include "ir/Diagnostic.h"
#include "runtime/InProcessRunner.h"
#include "runtime/ReferenceStore.h"

#include <QtTest>

#include <cstring>

using namespace tessel;

namespace {

const char* kGemm = "M = 48\nN = 64\nK = 32\n"
                    "k = te.reduce_axis((0, K), \"k\")\n"
                    "A = te.placeholder((M, K), name=\"A\")\n"
                    "B = te.placeholder((K, N), name=\"B\")\n"
                    "C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name=\"C\")\n"
                    "s = te.create_schedule(C.op)\n";

driver::LoweredFunction lowerGemm(const std::string& schedule = {}) {
    driver::ScriptOptions so;
    so.fileName = "gemm.te";
    return driver::lowerScript(std::string(kGemm) + schedule, so).at(0);
}

const char* kTiled = "xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], 16, 16)\ns[C].vectorize(yi)\n";

/// Counts the runs it passes on to the in-process runner.
class CountingRunner : public runtime::Runner {
public:
    std::string name() const override { return "counting"; }
    runtime::DeviceInfo device() const override { return inner.device(); }
    runtime::RunResult run(const runtime::BuildArtifact& a, const runtime::RunRequest& r) override {
        ++runs;
        if (r.untimed) ++untimedRuns;
        return inner.run(a, r);
    }
    runtime::InProcessRunner inner;
    int runs = 0, untimedRuns = 0;
};

bool sameBits(const runtime::NDArray& a, const runtime::NDArray& b) {
    return a.shape() == b.shape() && a.dtype() == b.dtype() && std::memcmp(a.rawData(), b.rawData(), a.numBytes()) == 0;
}

} // namespace

class TestMeasure : public QObject {
    Q_OBJECT
private slots:
    void signatureAndArtifact() {
        driver::LoweredFunction f = lowerGemm(kTiled);
        runtime::KernelSignature sig = driver::signatureOf(f);
        QCOMPARE(sig.name, f.name);
        QCOMPARE(sig.args.size(), size_t(3));
        QCOMPARE(sig.args[0].name, std::string("A"));
        QCOMPARE(sig.args[0].shape, (std::vector<int64_t>{48, 32}));
        QVERIFY(!sig.args[0].output && !sig.args[1].output && sig.args[2].output);
        QCOMPARE(sig.outputIndices(), (std::vector<size_t>{2}));
        QVERIFY(sig.str().find("out C: float32[48, 64]") != std::string::npos);

        codegen::LocalBuilder builder(codegen::hostTarget());
        runtime::BuildArtifact a = builder.build(driver::buildJobOf(f, "w"));
        QVERIFY(a.library.size() > 64);
        QVERIFY(std::memcmp(a.library.data(), "\x7f" "ELF", 4) == 0);
        QCOMPARE(a.flops, 2.0 * 48 * 64 * 32);
        QCOMPARE(a.workload, std::string("w"));
        QCOMPARE(a.target, codegen::hostTarget().str());
        QVERIFY(a.buildSeconds > 0);
    }

    void artifactMatchesTheJitPath() {
        driver::LoweredFunction f = lowerGemm(kTiled);
        codegen::LocalBuilder builder(codegen::hostTarget());
        runtime::InProcessRunner runner;
        runtime::RunRequest req;
        req.seed = 7;
        req.evaluator = {1, 2, 0, 0};
        runtime::RunResult r = runner.run(builder.build(driver::buildJobOf(f)), req);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(r.outputs.size(), size_t(1));
        QCOMPARE(r.repeatsMs.size(), size_t(2));
        QVERIFY(r.latencyMs > 0);

        // The same kernel through the JIT, called by hand on the same seeded inputs.
        codegen::BuildOptions bo;
        bo.emitAssembly = false;
        bo.debugInfo = false;
        codegen::BuildResult jit = codegen::build({f.lowered}, codegen::hostTarget(), bo);
        QVERIFY(jit.module);
        auto fn = jit.module->function(f.name);
        QVERIFY(fn);
        runtime::NDArray A({48, 32}, DataType::float32()), B({32, 64}, DataType::float32()),
            C = runtime::NDArray::zeros({48, 64}, DataType::float32());
        A.fillRandom(7, 0.0, 1.0);
        B.fillRandom(8, 0.0, 1.0);
        void* args[] = {A.rawData(), B.rawData(), C.rawData()};
        QCOMPARE(fn(args), 0);
        QVERIFY(sameBits(r.outputs[0], C));
    }

    void runnerFailuresAreErrorKinds() {
        driver::LoweredFunction f = lowerGemm();
        codegen::LocalBuilder builder(codegen::hostTarget());
        runtime::BuildArtifact good = builder.build(driver::buildJobOf(f));
        runtime::InProcessRunner runner;
        runtime::RunRequest req;
        req.evaluator = {1, 1, 0, 0};

        runtime::BuildArtifact renamed = good;
        renamed.signature.name = "nope";
        runtime::RunResult r = runner.run(renamed, req);
        QVERIFY(!r.ok);
        QVERIFY(r.error == runtime::MeasureError::Load);
        QVERIFY(r.message.find("no kernel 'nope'") != std::string::npos);

        runtime::BuildArtifact corrupt = good;
        corrupt.library.resize(100);
        r = runner.run(corrupt, req);
        QVERIFY(r.error == runtime::MeasureError::Load);

        req.cancelled = [] { return true; };
        r = runner.run(good, req);
        QVERIFY(r.error == runtime::MeasureError::Cancelled);
        QCOMPARE(std::string(runtime::measureErrorName(r.error)), std::string("cancelled"));
    }

    void builderChecksTheSignature() {
        driver::LoweredFunction f = lowerGemm();
        codegen::BuildJob job = driver::buildJobOf(f);
        job.signature.args.pop_back();
        codegen::LocalBuilder builder(codegen::hostTarget());
        QVERIFY_THROWS_EXCEPTION(CompileError, builder.build(job));
        job = driver::buildJobOf(f);
        job.signature.args[0].dtype = DataType::int32();
        QVERIFY_THROWS_EXCEPTION(CompileError, builder.build(job));
    }

    void buildsForABoard() {
        codegen::LocalBuilder builder(codegen::resolveTarget("aarch64"));
        runtime::BuildArtifact a = builder.build(driver::buildJobOf(lowerGemm(kTiled)));
        QVERIFY(std::memcmp(a.library.data(), "\x7f" "ELF", 4) == 0);
        uint16_t machine = 0;
        std::memcpy(&machine, a.library.data() + 18, 2);
        QCOMPARE(machine, uint16_t(183)); // EM_AARCH64
        // It does not run here, and says why.
        driver::RunOptions o;
        o.request.target = codegen::resolveTarget("aarch64");
        driver::RunReport rep = driver::runAndCheck(lowerGemm(kTiled), o);
        QVERIFY(!rep.ok);
        QVERIFY(rep.errorKind == runtime::MeasureError::Load);
        QVERIFY2(rep.error.find("cannot run on this machine") != std::string::npos, rep.error.c_str());
    }

    void referencesAreKeptByWorkloadAndSeed() {
        runtime::ReferenceStore store(2);
        CountingRunner runner;
        driver::RunOptions o;
        o.runner = &runner;
        o.references = &store;
        o.evaluator = {1, 1, 0, 0};
        driver::LoweredFunction tiled = lowerGemm(kTiled);
        driver::RunReport rep = driver::runAndCheck(tiled, o);
        QVERIFY2(rep.ok, rep.error.c_str());
        QCOMPARE(runner.untimedRuns, 1); // the reference, once
        QCOMPARE(store.size(), size_t(1));
        rep = driver::runAndCheck(tiled, o);
        QVERIFY(rep.ok);
        QCOMPARE(runner.untimedRuns, 1); // kept
        QCOMPARE(runner.runs, 3);
        o.seed = 2; // other inputs: another reference
        rep = driver::runAndCheck(tiled, o);
        QVERIFY(rep.ok);
        QCOMPARE(runner.untimedRuns, 2);
        // The default schedule is its own reference: nothing else runs.
        o.seed = 3;
        rep = driver::runAndCheck(lowerGemm(), o);
        QVERIFY(rep.ok);
        QCOMPARE(runner.untimedRuns, 2);
        QCOMPARE(store.size(), size_t(2)); // capacity 2: the oldest went
        QVERIFY(store.find(driver::workloadOf(tiled), 3));
        QVERIFY(!store.find(driver::workloadOf(tiled), 1));
        QCOMPARE(rep.gflops > 0, true);
    }

    void wrongResultsAreReported() {
        driver::LoweredFunction f = lowerGemm(kTiled);
        driver::RunOptions o;
        o.evaluator = {1, 1, 0, 0};
        runtime::NDArray wrong = runtime::NDArray::zeros({48, 64}, DataType::float32());
        o.referenceOutputs = {wrong};
        driver::RunReport rep = driver::runAndCheck(f, o);
        QVERIFY(!rep.ok);
        QVERIFY(rep.errorKind == runtime::MeasureError::WrongResult);
        QVERIFY(rep.error.find("differs from the reference") != std::string::npos);
        QVERIFY(rep.latencyMs > 0); // measured all the same
    }
};

QTEST_GUILESS_MAIN(TestMeasure)
#include "tst_measure.moc"
