// `tesselc compare` as a user runs it, on a small model written by the test
// and records from a short `tesselc tune`: untuned against the records on
// this machine's tessel-rpc server prints a row per fused function and an
// end-to-end line whose figures the CSV repeats at full precision (ratio =
// B / A); two thread counts in this process; a stale records file is the
// compiler's error naming the side; two equal sides are a usage error.
#include "common/Csv.h"
#include "common/SmallConvNet.h"
#include "common/Tesselc.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

using Result = tessel::test::TesselcResult;

Result tesselc(const QStringList& args) { return tessel::test::runTesselc(args); }

QString explain(const Result& r) { return QString("exit %1\n%2\n%3").arg(r.exitCode).arg(r.out, r.err); }


/// The table line of `name`: its whitespace-separated fields.
QStringList tableLine(const QString& out, const QString& name) {
    for (const QString& line : out.split('\n')) {
        const QString t = line.trimmed();
        if (t.startsWith(name + " ")) return t.mid(name.size()).split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
    }
    return {};
}

} // namespace

class TestTesselcCompare : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString model_, records_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        model_ = dir_.filePath("small.onnx");
        QVERIFY(tessel::test::writeSmallConvNet(model_));
        records_ = dir_.filePath("small.jsonl");
        const Result t = tesselc({"tune", model_, "--trials", "3", "--tuner", "random", "--records", records_,
                                  "--threads", "1", "--batch", "3"});
        QVERIFY2(t.exitCode == 0, qPrintable(explain(t)));
    }

    void untunedAgainstRecordsOnTheLocalServer() {
        const QString csv = dir_.filePath("small.csv");
        const Result r = tesselc({"compare", model_, "--records", records_, "--rounds", "3", "--threads", "1",
                                  "--csv", csv});
        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
        QVERIFY2(r.out.contains("A = untuned, B = small.jsonl, on a local tessel-rpc server"), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("B: (\\d+) of \\1 tunable functions tuned")), qPrintable(r.out));
        QVERIFY2(r.out.contains("3 rounds interleaved") && r.out.contains("threads: A 1, B 1"), qPrintable(r.out));
        QVERIFY2(r.out.contains("outputs agree"), qPrintable(r.out));

        const auto rows = tessel::test::readCsv(csv);
        QVERIFY2(rows.size() >= 4, qPrintable(r.out)); // three convolutions and the dense layer, at least
        QCOMPARE(rows.back()["function"], QString("end-to-end"));
        int tunedB = 0;
        for (const auto& row : rows) {
            const double a = row["ms_a"].toDouble(), b = row["ms_b"].toDouble(), ratio = row["ratio"].toDouble();
            QVERIFY2(a > 0 && b > 0, qPrintable(row["function"]));
            QVERIFY(std::abs(ratio - b / a) <= 1e-12 * ratio);
            // The table says the same, rounded.
            const QString name = row["function"] == "end-to-end" ? QString("end to end") : row["function"];
            const QStringList line = tableLine(r.out, name);
            QVERIFY2(!line.isEmpty(), qPrintable(name + " is not in the table\n" + r.out));
            const int first = row["function"] == "end-to-end" ? 0 : 1; // after the calls column
            QCOMPARE(line[first], QString::asprintf("%.5g", a));
            QCOMPARE(line[first + 1], QString::asprintf("%.5g", b));
            if (row["function"] != "end-to-end") {
                QCOMPARE(row["tuned_a"], QString("0"));
                tunedB += row["tuned_b"] == "1";
                QCOMPARE(line[first + 4], QString::number(ratio, 'f', 3));
            }
        }
        QVERIFY(tunedB >= 3); // conv1, conv2 and conv3 (one workload), the dense layer
    }

    void twoThreadCountsInThisProcess() {
        const Result r = tesselc({"compare", model_, "--threads-a", "1", "--threads-b", "2", "--rounds", "2",
                                  "--in-process"});
        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
        QVERIFY2(r.out.contains("A = untuned, B = untuned, in this process"), qPrintable(r.out));
        QVERIFY2(r.out.contains("threads: A 1, B 2"), qPrintable(r.out));
        QVERIFY2(r.out.contains("outputs agree: max |B - A| 0 "), qPrintable(r.out));
    }

    // Stale records (every configuration out of range) compare all the same:
    // the functions keep their defaults and a warning names each.
    void staleRecordsAreSkippedWithAWarning() {
        // Every configuration of the records, out of range.
        QFile in(records_);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString stale = dir_.filePath("stale.jsonl");
        QFile out(stale);
        QVERIFY(out.open(QIODevice::WriteOnly));
        for (const QByteArray& line : in.readAll().split('\n')) {
            if (line.trimmed().isEmpty()) continue;
            QJsonObject r = QJsonDocument::fromJson(line).object();
            QJsonObject config = r["config"].toObject();
            for (const QString& k : config.keys()) config[k] = 999;
            r["config"] = config;
            out.write(QJsonDocument(r).toJson(QJsonDocument::Compact) + "\n");
        }
        out.close();
        const Result r = tesselc({"compare", model_, "--records", stale, "--rounds", "1", "--in-process"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("warning: stale.jsonl: function ") && r.out.contains("tuned configuration") &&
                     r.out.contains("the default schedule is used"),
                 qPrintable(explain(r)));
    }

    void equalSidesAreAUsageError() {
        const Result r = tesselc({"compare", model_});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("two different sides"), qPrintable(r.err));
        const Result both = tesselc({"compare", model_, "--records", records_, "--records-b", records_});
        QCOMPARE(both.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestTesselcCompare)
#include "tst_tesselc_compare.moc"
