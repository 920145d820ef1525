// The tunable templates in resources/templates: their knobs, and every config
// tried (the default, the last choice of every knob, and 8 random ones drawn
// with a fixed seed) builds, runs and computes what the default schedule of
// the same computation computes.
#include "driver/TeDriver.h"
#include "runtime/ThreadPool.h"
#include "te/script/Script.h"

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
    return te::script::runScript(source, so).knobs;
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
            << QStringList{"tile_ic", "tile_oc", "tile_ow", "unroll_kw", "reduce_order"};
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
