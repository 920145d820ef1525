// The tuner on real kernels: a small GEMM template (resources/templates/gemm.te)
// tuned with the model-based search and the built-in random model, measured
// in a tessel-rpc server child (rpc::LocalRunner), with configurations
// planted to fail: kernels that crash, hang or write wrong values, and
// configurations that do not build. Each is a failed trial of its kind in
// the records, and tuning goes on to the end of its budget.
#include "driver/TuneTasks.h"
#include "rpc/RpcRunner.h"
#include "tir/IROperators.h"
#include "tune/RandomModel.h"
#include "tune/Tuner.h"

#include <QtTest>

#include <QTemporaryDir>

#include <fstream>
#include <iterator>

using namespace tessel;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

enum class Plant { None, Crash, Hang, Wrong, Build };

/// gemm.te whose configurations fail by their index: index % 5 picks the
/// planted failure (the default configuration stays good, as a baseline).
class PlantedTask : public driver::ScriptTask {
public:
    using ScriptTask::ScriptTask;

    Plant plant(const tune::Config& c) const {
        tune::Space space(knobs());
        const int64_t i = space.index(c);
        if (i == space.defaultIndex()) return Plant::None;
        switch (i % 5) {
        case 1: return Plant::Crash;
        case 2: return Plant::Hang;
        case 3: return Plant::Wrong;
        case 4: return Plant::Build;
        default: return Plant::None;
        }
    }

    tune::Instance instantiate(const tune::Config& c) const override {
        tune::Instance inst = ScriptTask::instantiate(c);
        const tir::PrimFunc f = inst.job.func;
        const tir::Buffer A = f->params[0], C = f->params[2];
        switch (plant(c)) {
        case Plant::None: break;
        case Plant::Build: throw CompileError("planted: this configuration does not schedule");
        case Plant::Crash: {
            // A store 2^48 bytes past C: past the 47 bits of user addresses,
            // so it faults wherever C is (4 TiB past it, ASan's allocator
            // region can still be mapped there).
            const tir::Expr far = tir::IntImmNode::make(DataType::int64(), int64_t(1) << 46);
            inst.job.func = f.withBody(tir::BufferStoreNode::make(C, tir::FloatImmNode::make(DataType::float32(), 1.0), {far}));
            break;
        }
        case Plant::Hang: {
            // 2^40 dependent multiply-adds: hours.
            tir::Var i("i", DataType::int64());
            const tir::Expr zero = tir::IntImmNode::make(DataType::int64(), 0);
            const tir::Expr c0 = tir::BufferLoadNode::make(C, {zero});
            const tir::Expr a = tir::BufferLoadNode::make(
                A, {tir::FloorModNode::make(i, tir::IntImmNode::make(DataType::int64(), 64))});
            tir::Stmt body = tir::BufferStoreNode::make(C, tir::AddNode::make(tir::MulNode::make(c0, a), a), {zero});
            inst.job.func = f.withBody(tir::ForNode::make(i, zero, tir::IntImmNode::make(DataType::int64(), int64_t(1) << 40),
                                                          tir::ForKind::Serial, body));
            break;
        }
        case Plant::Wrong: {
            // The right kernel, then one element off by one.
            const tir::Expr zero = tir::Expr(0);
            tir::Stmt bump = tir::BufferStoreNode::make(
                C, tir::AddNode::make(tir::BufferLoadNode::make(C, {zero}), tir::FloatImmNode::make(DataType::float32(), 1.0)),
                {zero});
            inst.job.func = f.withBody(tir::SeqStmtNode::make({f->body, bump}));
            break;
        }
        }
        return inst;
    }
};

runtime::MeasureError expected(Plant p) {
    switch (p) {
    case Plant::None: return runtime::MeasureError::None;
    case Plant::Crash: return runtime::MeasureError::Crash;
    case Plant::Hang: return runtime::MeasureError::Timeout;
    case Plant::Wrong: return runtime::MeasureError::WrongResult;
    case Plant::Build: return runtime::MeasureError::Build;
    }
    return runtime::MeasureError::None;
}

} // namespace

class TestTunerLocal : public QObject {
    Q_OBJECT
private slots:
    void plantedFailuresAreFailedTrials() {
        driver::ScriptTaskOptions so;
        so.fileName = "gemm.te";
        so.workload = {{"M", 64}, {"N", 64}, {"K", 64}};
        PlantedTask task(readText(TESSEL_SOURCE_DIR "/resources/templates/gemm.te"), so);

        codegen::LocalBuilder builder(codegen::hostTarget());
        rpc::LocalRunner runner;
        tune::MeasureOptions mo;
        mo.evaluator = {1, 2, 1, 1};
        mo.timeoutSeconds = 1;
        mo.threads = 1;
        tune::Measurer measurer(builder, runner, mo);

        tune::CostModelRegistry models;
        tune::registerBuiltinCostModels(models);
        tune::TuneOptions o;
        o.tuner = "xgb";
        o.costModel = "random"; // the model-based search with the built-in model
        o.trials = 40;
        o.batchSize = 8;
        o.threads = 2;
        tune::Tuner tuner(task, models, o);

        QTemporaryDir dir;
        const std::string path = dir.filePath("gemm.jsonl").toStdString();
        std::vector<tune::TrialEvent> events;
        tune::TuneResult r;
        {
            tune::RecordWriter writer(path);
            r = tuner.run(measurer, &writer, [&](const tune::TrialEvent& e) { events.push_back(e); });
        }
        QCOMPARE(r.trials, 40);
        QCOMPARE(int(events.size()), 40);
        std::map<Plant, int> planted;
        for (auto& e : events) {
            const Plant p = task.plant(e.config);
            ++planted[p];
            QVERIFY2(e.error == expected(p), (std::to_string(e.trial) + ": " + runtime::measureErrorName(e.error) +
                                              " (" + e.message + ")").c_str());
            if (p == Plant::None) QVERIFY(e.gflops > 0);
        }
        qInfo("40 trials: %d good, %d crash, %d hang, %d wrong, %d build", planted[Plant::None], planted[Plant::Crash],
              planted[Plant::Hang], planted[Plant::Wrong], planted[Plant::Build]);
        // Enough of every kind to mean something (the random model picks the mix).
        for (Plant p : {Plant::Crash, Plant::Hang, Plant::Wrong, Plant::Build}) QVERIFY(planted[p] >= 3);
        QCOMPARE(r.failed, 40 - planted[Plant::None]);
        QVERIFY(r.bestGflops > 0);
        QCOMPARE(task.plant(r.bestConfig), Plant::None);
        // The wrong result is caught by the comparison, with the numbers.
        for (auto& e : events)
            if (e.error == runtime::MeasureError::WrongResult)
                QVERIFY2(e.message.find("differs from the reference") != std::string::npos, e.message.c_str());

        const tune::Records records = tune::Records::load(path);
        QCOMPARE(int(records.size()), 40);
        const tune::Record* best = records.best(task.workload().key);
        QVERIFY(best);
        QCOMPARE(best->config, r.bestConfig);
        // Measured with the one thread asked for, and written so.
        QCOMPARE(best->threads, 1);
        QCOMPARE(int(records.summary()[0].failed), r.failed);
        // The server survived (restarted where a kernel took it down).
        QVERIFY(runner.server().running() || runner.server().starts() > 1);
    }
};

QTEST_APPLESS_MAIN(TestTunerLocal)
#include "tst_tuner_local.moc"
