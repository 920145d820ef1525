// The tunable templates in resources/templates: their knobs, and every config
// tried (the default, the last choice of every knob, and 8 random ones drawn
// with a fixed seed) builds, runs and computes what the default schedule of
// the same computation computes; their workload parameters instantiate one
// template as different, correct functions, and an unknown parameter is a
// located error.
#include "driver/Measure.h"
#include "driver/TeDriver.h"
#include "runtime/ThreadPool.h"
#include "te/script/Script.h"
#include "tir/IROperators.h"

#include <QtTest>

#include <fstream>
#include <random>
#include <sstream>

using namespace tessel;

namespace {

std::string readTemplate(const std::string& name) {
    std::ifstream in(std::string(TESSEL_SOURCE_DIR "/resources/templates/") + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<te::Knob> spaceOf(const std::string& source, const std::string& file) {
    te::script::ScriptOptions so;
    so.fileName = file;
    return driver::runScript(source, so, codegen::hostTarget()).knobs;
}

/// Lowers, builds and runs `source` under `config`; "" when it matches the
/// reference schedule, else why not.
std::string check(const std::string& source, const std::string& file,
                  const std::map<std::string, int64_t>& config) {
    try {
        driver::ScriptOptions so;
        so.fileName = file;
        so.config = config;
        auto fns = driver::lowerScript(source, so);
        if (fns.size() != 1) return "expected one function";
        driver::RunOptions ro;
        ro.evaluator = runtime::TimeEvaluator{1, 1, 0, 0};
        auto rep = driver::runAndCheck(fns[0], ro);
        return rep.ok ? "" : rep.error;
    } catch (const CompileError& e) {
        return e.diagnostic().str();
    }
}

} // namespace

class TestTemplates : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { runtime::ThreadPool::global().setNumThreads(2); }

    void knobs_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("conv2d_nchwc")
            << "conv2d_nchwc.te"
            << QStringList{"reg_block", "unroll_kw", "task_order", "unroll_ic"}; // topi's own knobs (data and output in blocks)
        QTest::newRow("dense") << "dense.te"
                               << QStringList{"tile_y", "tile_x", "tile_k", "unroll_k"};
    }
    void knobs() {
        QFETCH(QString, file);
        QFETCH(QStringList, names);
        auto knobs = spaceOf(readTemplate(file.toStdString()), file.toStdString());
        QStringList got;
        for (auto& k : knobs) {
            got << QString::fromStdString(k.name);
            QVERIFY(k.size() >= 1);
        }
        QCOMPARE(got, names);
    }

    void configs_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("conv2d_nchwc") << "conv2d_nchwc.te";
        QTest::newRow("dense") << "dense.te";
    }
    void configs() {
        QFETCH(QString, file);
        const std::string name = file.toStdString();
        const std::string source = readTemplate(name);
        auto knobs = spaceOf(source, name);
        QVERIFY(!knobs.empty());

        std::vector<std::map<std::string, int64_t>> configs = {{}};
        std::map<std::string, int64_t> last;
        for (auto& k : knobs)
            last[k.name] = k.size() - 1;
        configs.push_back(last);
        std::mt19937 rng(20240611);
        for (int i = 0; i < 8; ++i) {
            std::map<std::string, int64_t> c;
            for (auto& k : knobs)
                c[k.name] = std::uniform_int_distribution<int64_t>(0, k.size() - 1)(rng);
            configs.push_back(c);
        }
        for (auto& c : configs) {
            std::string why = check(source, name, c);
            QVERIFY2(why.empty(),
                     qPrintable(QString::fromStdString(name + " --config " +
                                                       te::formatConfig(c) + ": " + why)));
        }
    }

    void workloadParameters() {
        // The declared parameters and the values used come back with the result.
        te::script::ScriptOptions so;
        so.fileName = "conv2d_nchwc.te";
        so.workload = {{"C", 32}, {"H", 14}};
        auto r = driver::runScript(readTemplate("conv2d_nchwc.te"), so, codegen::hostTarget());
        QStringList names;
        for (auto& p : r.workload)
            names << QString::fromStdString(p.name);
        QCOMPARE(names, (QStringList{"N", "C", "H", "W", "OC", "KH", "KW", "pad", "stride"}));
        QCOMPARE(r.workload[1].defaultValue, int64_t(64));
        QCOMPARE(r.workload[1].value, int64_t(32));
        QVERIFY(r.workload[1].overridden);
        QCOMPARE(r.workload[3].value, int64_t(56));
        QVERIFY(!r.workload[3].overridden);
        QCOMPARE(te::script::formatWorkload(r.workload),
                 std::string("N=1,C=32,H=14,W=56,OC=64,KH=3,KW=3,pad=1,stride=1"));
        QCOMPARE(te::script::parseWorkload("C=32,H=14,pad=-1"),
                 (std::map<std::string, int64_t>{{"C", 32}, {"H", 14}, {"pad", -1}}));
    }

    void oneTemplateTwoWorkloads_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::newRow("dense") << "dense.te" << "M=2,N=64,K=32" << "M=4,N=128,K=48";
        QTest::newRow("conv2d_nchwc")
            << "conv2d_nchwc.te" << "C=16,H=10,W=10,OC=32" << "C=32,H=8,W=12,OC=16,pad=0";
    }
    void oneTemplateTwoWorkloads() {
        // One template, two workloads: two functions with other shapes, each
        // computing what the default schedule of its computation computes.
        QFETCH(QString, file);
        QFETCH(QString, first);
        QFETCH(QString, second);
        const std::string name = file.toStdString(), source = readTemplate(name);
        std::vector<std::vector<std::vector<int64_t>>> shapes;
        for (const QString& wl : {first, second}) {
            driver::ScriptOptions so;
            so.fileName = name;
            so.workload = te::script::parseWorkload(wl.toStdString());
            auto fns = driver::lowerScript(source, so);
            QCOMPARE(fns.size(), size_t(1));
            std::vector<std::vector<int64_t>> argShapes;
            for (auto& a : fns[0].args) {
                std::vector<int64_t> dims;
                for (auto& d : a->shape)
                    dims.push_back(*tir::asConstInt(d));
                argShapes.push_back(dims);
            }
            shapes.push_back(argShapes);
            driver::RunOptions ro;
            ro.evaluator = runtime::TimeEvaluator{1, 1, 0, 0};
            auto rep = driver::runAndCheck(fns[0], ro);
            QVERIFY2(rep.ok, qPrintable(wl + ": " + QString::fromStdString(rep.error)));
        }
        QVERIFY(shapes[0] != shapes[1]);
        if (name == "dense.te") {
            QCOMPARE(shapes[0].back(), (std::vector<int64_t>{2, 64}));
            QCOMPARE(shapes[1].back(), (std::vector<int64_t>{4, 128}));
        } else {
            // The output in blocks of the target's lanes, as alter-layout stores it:
            // OC / b channel blocks of OH x OW x b.
            const int64_t b = codegen::hostTarget().vectorLanes(DataType::float32());
            QCOMPARE(shapes[0].back(), (std::vector<int64_t>{1, 32 / b, 10, 10, b}));
            QCOMPARE(shapes[1].back(), (std::vector<int64_t>{1, 16 / b, 6, 10, b}));
        }
    }

    void unknownWorkloadParameter() {
        // A parameter the template does not declare: an error at its
        // tessel.workload call, with line and column.
        driver::ScriptOptions so;
        so.fileName = "dense.te";
        so.workload = {{"Q", 3}};
        try {
            driver::lowerScript(readTemplate("dense.te"), so);
            QFAIL("no error");
        } catch (const CompileError& e) {
            QCOMPARE(QString::fromStdString(e.diagnostic().str()),
                     QString("17:13: error: the workload sets parameter 'Q', which the template "
                             "does not declare (it declares M, N, K)"));
        }
        // A script without a workload takes none.
        te::script::ScriptOptions plain;
        plain.workload = {{"N", 3}};
        try {
            te::script::runScript("A = te.placeholder((4,), name=\"A\")\n", plain);
            QFAIL("no error");
        } catch (const CompileError& e) {
            QVERIFY2(e.diagnostic().message.find("declares no workload") != std::string::npos,
                     e.what());
        }
    }

    void impossibleConfig() {
        // An index past a knob's choices is a located error, not a crash.
        std::string why = check(readTemplate("dense.te"), "dense.te", {{"tile_k", 7}});
        QVERIFY2(why.starts_with("22:") &&
                     why.find("the config chooses index 7 for knob 'tile_k', which has 7 "
                              "choices (0 to 6)") != std::string::npos,
                 why.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTemplates)
#include "tst_templates.moc"
