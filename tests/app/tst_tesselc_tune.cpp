// `tesselc tune` and `tesselc records` as a user runs them: a small GEMM
// template tuned with a records file, a progress line per task, resume to the
// same budget, the summary and the best records, the clear error of a tuner
// whose cost model is not loaded, and kill -9 at random moments: the records
// file always reads, a resumed run loses at most the trial in flight and ends
// with every configuration measured once.
#include "common/Tesselc.h"

#include <QtTest>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <set>

namespace {

using Result = tessel::test::TesselcResult;

Result tesselc(const QStringList& args) { return tessel::test::runTesselc(args); }

const QString kGemm = TESSEL_SOURCE_DIR "/resources/templates/gemm.te";

QStringList tuneArgs(const QString& records, int trials, const QString& workload = "M=64,N=64,K=64") {
    return {"tune", kGemm, "--workload", workload, "--trials", QString::number(trials), "--tuner", "random",
            "--records", records, "--threads", "1", "--batch", "4"};
}

/// Every line of a records file as JSON; a line that does not parse counts in `torn`.
QList<QJsonObject> readRecords(const QString& path, int* torn = nullptr) {
    QFile f(path);
    QList<QJsonObject> out;
    if (!f.open(QIODevice::ReadOnly)) return out;
    int bad = 0;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.trimmed().isEmpty()) continue;
        const QJsonDocument d = QJsonDocument::fromJson(line);
        if (d.isObject()) out.push_back(d.object());
        else ++bad;
    }
    if (torn) *torn = bad;
    return out;
}

QString configOf(const QJsonObject& r) {
    return QString::fromUtf8(QJsonDocument(r["config"].toObject()).toJson(QJsonDocument::Compact));
}

QString readProc(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).replace(QChar('\0'), ' ') : QString();
}

/// Local servers of this build (`tessel-rpc server ... --exit-on-eof`) whose
/// parent is not a live tesselc, test or other program of this build.
QStringList orphanedServers() {
    QStringList out;
    const QString binary = TESSEL_BINARY_DIR "/bin/tessel-rpc";
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
        bool number = false;
        pid.toInt(&number);
        if (!number) continue;
        const QString cmd = readProc("/proc/" + pid + "/cmdline");
        if (!cmd.startsWith(binary + " server") || !cmd.contains("--exit-on-eof")) continue;
        // Field 4 of /proc/PID/stat is the parent (after the parenthesised name).
        const QString stat = readProc("/proc/" + pid + "/stat");
        const QStringList fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields[0] == "Z") continue; // exited, not yet reaped
        const QString parent = readProc("/proc/" + fields[1] + "/cmdline");
        // A parent of this build (the IDE of the smoke test beside this suite under ctest -j2) is
        // alive and owns its server; an orphan's parent is init or a reaper.
        if (!parent.startsWith(TESSEL_BINARY_DIR "/bin/") && !parent.contains("tesselc") && !parent.contains("/tst_"))
            out << pid + " (parent " + fields[1] + ": " + parent.left(80) + ")";
    }
    return out;
}

} // namespace

class TestTesselcTune : public QObject {
    Q_OBJECT
private slots:
    void tuneResumeAndSummarise() {
        QTemporaryDir dir;
        const QString records = dir.filePath("gemm.jsonl");
        const Result r = tesselc(tuneArgs(records, 12));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QRegularExpression line(R"(gemm\.te M=64,N=64,K=64: 12/12 trials, best ([0-9.]+) GFLOP/s, ([0-9.]+)x over the default, \d+ failed, ETA 0s)");
        QVERIFY2(line.match(r.out).hasMatch(), qPrintable(r.out));
        QVERIFY2(r.out.contains("best: "), qPrintable(r.out));
        auto recs = readRecords(records);
        QCOMPARE(recs.size(), 12);
        QVERIFY(recs[0]["default"].toBool());
        for (auto& rec : recs) {
            QVERIFY(rec["workload"].toObject()["key"].toString().startsWith("template:gemm(M=64,N=64,K=64) llvm"));
            QCOMPARE(rec["tuner"].toString(), QString("random"));
            QCOMPARE(rec["workload"].toObject()["params"].toObject()["M"].toInt(), 64);
            QVERIFY(rec["values"].toObject().contains("tile_x"));
            if (rec["error"].toString() == "none") QCOMPARE(rec["costs"].toArray().size(), 3);
        }

        // Resume to a budget of 20: 8 more trials, none measured twice.
        const Result again = tesselc(tuneArgs(records, 20));
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        QVERIFY2(again.out.contains("12 trials from"), qPrintable(again.out));
        QVERIFY2(again.out.contains("20/20 trials"), qPrintable(again.out));
        recs = readRecords(records);
        QCOMPARE(recs.size(), 20);
        std::set<QString> configs;
        for (auto& rec : recs) configs.insert(configOf(rec));
        QCOMPARE(int(configs.size()), 20);

        // A second workload in the same file: one progress line each.
        const Result two = tesselc({"tune", kGemm, "--workload", "M=32,N=64,K=64", "--workload", "M=64,N=64,K=64",
                                    "--trials", "20", "--tuner", "grid", "--records", records, "--threads", "1"});
        QVERIFY2(two.exitCode == 0, qPrintable(two.out + two.err));
        QVERIFY2(two.out.contains("gemm.te M=32,N=64,K=64: 20/20 trials"), qPrintable(two.out));
        QVERIFY2(two.out.contains("gemm.te M=64,N=64,K=64: 20/20 trials"), qPrintable(two.out));
        QCOMPARE(readRecords(records).size(), 40);

        const Result summary = tesselc({"records", records});
        QVERIFY2(summary.exitCode == 0, qPrintable(summary.err));
        QVERIFY2(summary.out.contains("40 records, 2 workloads"), qPrintable(summary.out));
        QVERIFY2(summary.out.contains("template:gemm(M=64,N=64,K=64)"), qPrintable(summary.out));
        QVERIFY2(summary.out.contains("20 trials"), qPrintable(summary.out));
        QVERIFY2(summary.out.contains("faster tuned"), qPrintable(summary.out));

        const Result best = tesselc({"records", records, "--best"});
        QCOMPARE(best.exitCode, 0);
        const QStringList bestLines = best.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(bestLines.size(), 2);
        double fastest = 1e30;
        for (auto& rec : readRecords(records))
            if (rec["workload"].toObject()["params"].toObject()["M"].toInt() == 64 && rec["error"].toString() == "none") {
                QList<double> c;
                for (auto v : rec["costs"].toArray()) c.push_back(v.toDouble());
                std::sort(c.begin(), c.end());
                fastest = std::min(fastest, c[c.size() / 2]);
            }
        bool found = false;
        for (auto& l : bestLines) {
            const QJsonObject o = QJsonDocument::fromJson(l.toUtf8()).object();
            if (o["workload"].toObject()["params"].toObject()["M"].toInt() != 64) continue;
            QList<double> c;
            for (auto v : o["costs"].toArray()) c.push_back(v.toDouble());
            std::sort(c.begin(), c.end());
            QCOMPARE(c[c.size() / 2], fastest);
            found = true;
        }
        QVERIFY(found);

        const Result json = tesselc({"records", records, "--json"});
        const QJsonArray arr = QJsonDocument::fromJson(json.out.toUtf8()).array();
        QCOMPARE(arr.size(), 2);
        QCOMPARE(arr[0].toObject()["trials"].toInt(), 20);
        QVERIFY(arr[0].toObject()["best_gflops"].toDouble() > 0);
    }

    /// A model's tasks (the DCGAN generator of the models fixture: five
    /// transposed convolutions), tuned, then applied: the tuned model matches
    /// ONNX Runtime's output.
    void aModelIsTunedAndTheBestIsApplied() {
        const QString model = TESSEL_BINARY_DIR "/models/dcgan_generator";
        if (!QFile::exists(model + "/model.onnx")) QSKIP("the models fixture (models/references) has not run");
        QTemporaryDir dir;
        const QString records = dir.filePath("dcgan.jsonl");
        const Result r = tesselc({"tune", model + "/model.onnx", "--trials", "4", "--tuner", "random", "--records",
                                  records, "--threads", "1", "--batch", "2"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("5 tuning tasks"), qPrintable(r.out));
        QVERIFY2(r.out.contains("[5/5] ConvTranspose"), qPrintable(r.out));
        const auto recs = readRecords(records);
        QVERIFY(recs.size() >= 5);
        QSet<QString> workloads;
        for (auto& rec : recs) workloads.insert(rec["workload"].toObject()["key"].toString());
        QCOMPARE(workloads.size(), 5);

        const Result run = tesselc({"run", model + "/model.onnx", "--records", records, "--inputs",
                                    model + "/test_data_set_0/input_0.pb", "--expect",
                                    model + "/test_data_set_0/output_0.pb", "--atol", "1e-4", "--repeat", "2"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.err.contains("5 of 5 tunable functions tuned"), qPrintable(run.err));

        // A records file of nothing this model has: every function keeps its default.
        const QString other = dir.filePath("other.jsonl");
        QVERIFY(tesselc(tuneArgs(other, 2)).exitCode == 0);
        const Result plain = tesselc({"compile", model + "/model.onnx", "--records", other, "-o", dir.filePath("out")});
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.out + plain.err));
        QVERIFY2(plain.err.contains("0 of 5 tunable functions tuned"), qPrintable(plain.err));
    }

    void tunerWithoutItsModelAndBadInvocations() {
        QTemporaryDir dir;
        const QString records = dir.filePath("r.jsonl");
        QStringList args = tuneArgs(records, 4);
        args[args.indexOf("random")] = "xgb";
        const Result xgb = tesselc(args);
        if (xgb.exitCode != 0) {
            // Without the XGBoost plugin: a clear error, nothing measured.
            QCOMPARE(xgb.exitCode, 1);
            QVERIFY2(xgb.err.contains("cost model 'xgb'") && xgb.err.contains("plugins/costmodel-xgboost"),
                     qPrintable(xgb.err));
            QVERIFY(readRecords(records).isEmpty());
        } else {
            QCOMPARE(readRecords(records).size(), 4); // the plugin is loaded
        }
        QCOMPARE(tesselc({"tune", kGemm, "--trials", "4"}).exitCode, 2); // no --records
        QCOMPARE(tesselc({"tune", kGemm, "--records", records}).exitCode, 2); // no --trials
        QCOMPARE(tesselc({"tune", kGemm, "--trials", "4", "--records", records, "--features", "loops"}).exitCode, 2);
        const Result unknown = tesselc({"tune", kGemm, "--trials", "4", "--records", records, "--tuner", "annealing"});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("unknown tuner 'annealing'"), qPrintable(unknown.err));
        QCOMPARE(tesselc({"records", dir.filePath("none.jsonl")}).exitCode, 1);
    }

    void withoutTheLocalServerOneError() {
        // tesselc alone (no tessel-rpc beside it or on PATH): one error naming
        // the way out, not every trial failing.
        QTemporaryDir dir;
        const QString alone = dir.filePath("tesselc");
        QVERIFY(QFile::copy(TESSEL_BINARY_DIR "/bin/tesselc", alone));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("TESSEL_RPC_SERVER");
        env.insert("PATH", "/usr/bin:/bin");
        p.setProcessEnvironment(env);
        p.start(alone, tuneArgs(dir.filePath("r.jsonl"), 4));
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains("tessel-rpc") && err.contains("--in-process"), qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath("r.jsonl")));
        // --in-process needs no server.
        QStringList inProcess = tuneArgs(dir.filePath("r.jsonl"), 2);
        inProcess << "--in-process";
        p.start(alone, inProcess);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(readRecords(dir.filePath("r.jsonl")).size(), 2);
    }

    void killNineAndResume() {
        // 10 kills at random moments of a 40-trial run, then a resume each time.
        QTemporaryDir dir;
        const QString records = dir.filePath("kill.jsonl");
        const int budget = 40;
        int kills = 0;
        for (int round = 0; round < 10; ++round) {
            QProcess p;
            QStringList args = tuneArgs(records, budget);
            args << "--verbose";
            p.start(TESSEL_BINARY_DIR "/bin/tesselc", args);
            QVERIFY(p.waitForStarted());
            const int ms = 300 + int(QRandomGenerator::global()->bounded(1500));
            if (!p.waitForFinished(ms)) {
                p.kill(); // SIGKILL
                p.waitForFinished();
                ++kills;
            }
            // Every trial the run reported as done is in the file (it is
            // written before it is reported): only the one in flight is lost.
            const int reported = int(QString::fromUtf8(p.readAllStandardOutput()).count(QRegularExpression("\\n  trial \\d+:")));
            int torn = 0;
            const auto recs = readRecords(records, &torn);
            QVERIFY2(torn <= 1 + round, "more than one torn line per kill");
            std::set<QString> configs;
            for (auto& r : recs) configs.insert(configOf(r));
            QCOMPARE(int(configs.size()), int(recs.size())); // nothing measured twice
            QVERIFY(int(recs.size()) >= reported);
            // `tesselc records` reads it, skipping a torn line with a warning.
            const Result summary = tesselc({"records", records});
            QCOMPARE(summary.exitCode, 0);
        }
        QVERIFY(kills >= 5);
        const Result finish = tesselc(tuneArgs(records, budget));
        QVERIFY2(finish.exitCode == 0, qPrintable(finish.out + finish.err));
        QVERIFY2(finish.out.contains(QString("%1/%1 trials").arg(budget)), qPrintable(finish.out));
        const auto recs = readRecords(records);
        QCOMPARE(int(recs.size()), budget);
        std::set<QString> configs;
        for (auto& r : recs) configs.insert(configOf(r));
        QCOMPARE(int(configs.size()), budget);
        // No tessel-rpc server outlived its killed tesselc: every local server
        // of this build still running belongs to a live process that started
        // it (another suite running beside this one), none to init or a reaper.
        QStringList orphans;
        for (int wait = 0; wait < 30; ++wait) {
            orphans = orphanedServers();
            if (orphans.isEmpty()) break;
            QTest::qWait(100);
        }
        QVERIFY2(orphans.isEmpty(), qPrintable("orphaned local servers: " + orphans.join(", ")));
    }
};

QTEST_APPLESS_MAIN(TestTesselcTune)
#include "tst_tesselc_tune.moc"
