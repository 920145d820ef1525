// Devices and their runners (driver/Devices.h), as tesselc and the IDE get
// them: the default is this machine's tessel-rpc server, runs in process and
// on a server by address share one description, a remote device's kernels
// are built for its target and checked against this machine, two model
// runners of one device are two sessions, and a model with nothing to
// compute runs where tesselc runs by default as well as in process (issue 20:
// its export used to fail with "codegen: no functions to build").
#include "codegen/Target.h"
#include "driver/DeviceProbe.h"
#include "driver/Devices.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "driver/TeDriver.h"
#include "frontend/TensorProto.h"
#include "rpc/LocalServer.h"

#include <QtTest>

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

const std::string kNode = "/usr/share/libonnx-testdata/data/node/";

/// The add_one kernel of the RPC test kernels, as a built artifact.
runtime::BuildArtifact addOne() {
    std::ifstream in(TEST_KERNELS, std::ios::binary);
    runtime::BuildArtifact a;
    a.library.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    a.signature.name = "add_one";
    a.signature.args = {{"in", DataType::float32(), {1024}, false}, {"out", DataType::float32(), {1024}, true}};
    return a;
}

void checkAddOne(runtime::Runner& r) {
    runtime::RunRequest req;
    req.evaluator = {1, 2, 0, 0};
    const runtime::RunResult res = r.run(addOne(), req);
    QVERIFY2(res.ok, res.message.c_str());
    QCOMPARE(res.outputs.size(), size_t(1));
    runtime::NDArray in({1024}, DataType::float32());
    in.fillRandom(1, 0.0, 1.0); // the runners' seeded input 0
    QCOMPARE(res.outputs[0].data<float>()[5], in.data<float>()[5] + 1.0f);
}

std::vector<runtime::NDArray> tensors(const fs::path& dir, const char* prefix) {
    std::vector<runtime::NDArray> out;
    for (int i = 0;; ++i) {
        const fs::path p = dir / (std::string(prefix) + std::to_string(i) + ".pb");
        if (!fs::exists(p)) break;
        out.push_back(driver::toNDArray(*frontend::readTensorProto(p.string()).value));
    }
    return out;
}

/// Runs ONNX test case `name` on `runner` (null: in process); the report.
driver::ModelRunReport runCase(const std::string& name, runtime::ModelRunner* runner, size_t* functions = nullptr) {
    const fs::path dir = kNode + name;
    const driver::CompiledModel m = driver::compileModel((dir / "model.onnx").string(), {});
    if (functions) *functions = m.functions.size();
    driver::ModelRunOptions ro;
    ro.runner = runner;
    ro.repeat = 2;
    return driver::runModel(m, tensors(dir / "test_data_set_0", "input_"), tensors(dir / "test_data_set_0", "output_"),
                            ro);
}

} // namespace

class TestDevices : public QObject {
    Q_OBJECT
private slots:
    void specsAndLabels() {
        const driver::DeviceSpec d;
        QCOMPARE(int(d.kind), int(driver::DeviceSpec::Kind::Local)); // what a user gets by default
        QVERIFY(!d.remote());
        QCOMPARE(QString::fromStdString(d.label()), QString("this machine"));
        QCOMPARE(QString::fromStdString(driver::DeviceSpec::inProcess().label()), QString("this process"));
        QCOMPARE(QString::fromStdString(driver::DeviceSpec::server("10.0.0.2", 9090).label()),
                 QString("server 10.0.0.2:9090"));
        driver::DeviceSpec gpu = driver::DeviceSpec::tracker("10.0.0.1", 9190, "h100");
        gpu.device = runtime::Device::cuda(0);
        QVERIFY(gpu.remote());
        QCOMPARE(QString::fromStdString(gpu.label()), QString("h100 via tracker 10.0.0.1:9190 (cuda:0)"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 driver::DeviceRunners(driver::DeviceSpec::server("127.0.0.1", 1, "/no/such/token")));
    }

    void theDefaultRunsOnThisMachinesServer() {
        driver::DeviceRunners d(driver::DeviceSpec::local());
        QCOMPARE(QString::fromStdString(d.name()), QString("local server"));
        QCOMPARE(d.target().str(), codegen::hostTarget().str());
        QCOMPARE(&d.referenceRunner(), &d.runner()); // this machine checks itself
        checkAddOne(d.runner());
        driver::RunOptions ro;
        d.apply(ro);
        QCOMPARE(ro.runner, &d.runner());
        QVERIFY(!ro.builder && !ro.referenceBuilder);
        QCOMPARE(QString::fromStdString(d.modelRunner()->name()), QString("local server"));
    }

    void inProcess() {
        driver::DeviceRunners d(driver::DeviceSpec::inProcess());
        QCOMPARE(QString::fromStdString(d.name()), QString("in-process"));
        QCOMPARE(QString::fromStdString(d.modelRunner()->name()), QString("in-process"));
        checkAddOne(d.runner());
    }

    void aServerByAddressIsARemoteDevice() {
        // This machine's server, reached as a board would be: by address and token.
        rpc::LocalServer server;
        server.ensureRunning();
        QTemporaryDir dir;
        const QString tokenFile = dir.filePath("token");
        {
            std::ofstream t(tokenFile.toStdString());
            t << server.token() << "\n";
        }
        driver::DeviceRunners d(driver::DeviceSpec::server("127.0.0.1", server.port(), tokenFile.toStdString()));
        QCOMPARE(QString::fromStdString(d.name()), QString("rpc 127.0.0.1:%1").arg(server.port()));
        QCOMPARE(d.deviceInfo().triple, runtime::DeviceInfo::local().triple);
        QCOMPARE(d.target().str(), codegen::targetForDevice(d.deviceInfo()).str());
        QVERIFY(&d.referenceBuilder() != &d.builder());
        QVERIFY(&d.referenceRunner() != &d.runner()); // checked against this machine, in process
        driver::RunOptions ro;
        d.apply(ro);
        QVERIFY(ro.builder == &d.builder() && ro.referenceBuilder == &d.referenceBuilder() &&
                ro.referenceRunner == &d.referenceRunner());
        checkAddOne(d.runner());
        // Two model runners: two sessions, each with its own model loaded.
        if (!fs::exists(kNode + "test_relu")) QSKIP("libonnx-testdata is not installed");
        auto a = d.modelRunner(), b = d.modelRunner();
        QVERIFY2(runCase("test_relu", a.get()).ok, "relu on A");
        QVERIFY2(runCase("test_sigmoid", b.get()).ok, "sigmoid on B");
        QVERIFY(a->run({}).ms.size() == 1 && b->run({}).ms.size() == 1);
    }

    void measuringOnADeviceSpec() {
        // What the schedule editor and the lesson call: the device's runners, applied.
        driver::ScriptOptions so;
        so.fileName = "add.te";
        const driver::LoweredFunction f = driver::lowerScript(
            "A = te.placeholder((256,), name=\"A\")\n"
            "B = te.compute((256,), lambda i: A[i] + 1.0, name=\"B\")\n"
            "s = te.create_schedule(B.op)\n"
            "xo, xi = s[B].split(B.op.axis[0], factor=16)\n", so).at(0);
        driver::ReferenceStore references;
        driver::RunOptions ro;
        ro.evaluator = {1, 1, 1, 1};
        ro.references = &references;
        for (const auto& spec : {driver::DeviceSpec::inProcess(), driver::DeviceSpec::local()}) {
            const driver::RunReport r = driver::runAndCheckOn(spec, f, ro);
            QVERIFY2(r.ok, r.error.c_str());
            QCOMPARE(r.maxAbsErr, 0.0);
        }
        driver::DeviceSpec badToken = driver::DeviceSpec::server("127.0.0.1", 1, "/nonexistent/token");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, driver::runAndCheckOn(badToken, f, ro));
    }

    void probingAServer() {
        rpc::LocalServer server;
        server.ensureRunning();
        QTemporaryDir dir;
        const QString tokenFile = dir.filePath("token"), wrongFile = dir.filePath("wrong");
        {
            std::ofstream t(tokenFile.toStdString());
            t << server.token() << "\n";
            std::ofstream w(wrongFile.toStdString());
            w << "not-" << server.token() << "\n";
        }
        driver::DeviceSpec spec = driver::DeviceSpec::server("127.0.0.1", server.port(), tokenFile.toStdString());
        spec.clientName = "tst_devices probe";
        const driver::DeviceProbe ok = driver::probeDevice(spec, 5000);
        QVERIFY2(ok.ok, ok.error.c_str());
        QVERIFY(!ok.rpcError && !ok.tracker);
        QVERIFY(ok.deviceJson.find(runtime::DeviceInfo::local().triple) != std::string::npos);
        QVERIFY(ok.roundTripMs > 0);

        spec.tokenFile = wrongFile.toStdString();
        const driver::DeviceProbe wrong = driver::probeDevice(spec, 5000);
        QVERIFY(!wrong.ok && wrong.rpcError);
        QCOMPARE(wrong.rpcError->remote(), rpc::ErrorCode::Auth);

        spec.tokenFile = dir.filePath("missing").toStdString(); // the file's name in the error
        const driver::DeviceProbe missing = driver::probeDevice(spec, 5000);
        QVERIFY(!missing.ok && !missing.rpcError);
        QVERIFY(missing.error.find("missing") != std::string::npos);

        const driver::DeviceProbe here = driver::probeDevice(driver::DeviceSpec::local(), 5000);
        QVERIFY(!here.ok && !here.error.empty());
    }

    // Issue 20's regression: no fused function, so no library in the export.
    void aModelWithNothingToComputeRunsEverywhere_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"test_identity", "test_constant", "test_shape", "test_size", "test_dropout_default"})
            QTest::newRow(n) << QString(n);
    }
    void aModelWithNothingToComputeRunsEverywhere() {
        QFETCH(QString, name);
        if (!fs::exists(kNode + name.toStdString())) QSKIP("libonnx-testdata is not installed");
        std::unique_ptr<runtime::ModelRunner> byDefault = driver::DeviceRunners(driver::DeviceSpec{}).modelRunner();
        size_t functions = 1;
        const driver::ModelRunReport there = runCase(name.toStdString(), byDefault.get(), &functions);
        QCOMPARE(functions, size_t(0));
        QVERIFY2(there.ok, there.error.c_str());
        QCOMPARE(there.runsMs.size(), size_t(2));
        const driver::ModelRunReport here = runCase(name.toStdString(), nullptr);
        QVERIFY2(here.ok, here.error.c_str());
        // And a model with kernels after it, in the same session.
        QVERIFY(runCase("test_relu", byDefault.get()).ok);
    }
};

QTEST_GUILESS_MAIN(TestDevices)
#include "tst_devices.moc"
