// The Compare view on a small model (tests/common/SmallConvNet.h) on this
// machine's tessel-rpc server: untuned against a records file whose
// configurations all differ from the defaults. Run works on a worker (the GUI
// thread's longest stall is measured) with a progress bar; the chart has a
// bar per function and side plus the end-to-end pair, slowest first, whose
// values are the result's figures, and the ratio labels; the table says the
// same; the exported CSV parses and matches the measured figures; PNG and
// PDF files are written; Cancel stops a long run and keeps its rounds; the
// device list offers the device panel's servers; side B follows the
// session's tuned configurations (a folder of records) until the user sets
// it; ResNet-18 untuned against the bundled records, the demo, shown with
// every tunable function tuned. A screenshot of the view
// goes to <build>/screenshots/views/compare-view.png, the exported chart to
// compare-chart.png beside it, the ResNet-18 demo to compare-resnet18.png.
#include "common/GapMeter.h"
#include "common/Session.h"
#include "common/Csv.h"
#include "common/SmallConvNet.h"
#include "compare/CompareChart.h"
#include "compare/CompareSession.h"
#include "compare/CompareTable.h"
#include "compare/CompareView.h"
#include "devices/DeviceList.h"
#include "driver/ModelCompare.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelTasks.h"
#include "frontend/ModelZoo.h"
#include "tune/Records.h"

#include <qcustomplot.h>

#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include "driver/ApplyBest.h"
#include "codegen/Target.h"
#include <QtTest>

#include <cmath>

using namespace tessel;
using namespace tessel::views;

namespace {



/// The bar of `bars` at category `key`, or NaN.
double barAt(QCPBars* bars, int key) {
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        if (int(std::lround(it->key)) == key) return it->value;
    return NAN;
}

int distinctColours(const QImage& img) {
    QSet<QRgb> seen;
    for (int y = 0; y < img.height(); y += qMax(1, img.height() / 60))
        for (int x = 0; x < img.width(); x += qMax(1, img.width() / 60)) seen.insert(img.pixel(x, y));
    return seen.size();
}

} // namespace

class TestCompareView : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString model_, records_;
    std::shared_ptr<const driver::CompiledModel> compiled_;

    /// A session with the small model open and a view over it: A untuned, B the records.
    void setUp(Session& session, CompareView& view, int rounds) {
        session.setModel(model_, compiled_);
        CompareSideChoice b;
        b.schedules = CompareSideChoice::Schedules::RecordsFile;
        b.recordsPath = records_;
        view.compare()->setSide(1, b);
        view.compare()->setRounds(rounds);
        view.resize(1100, 800);
        view.show();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        model_ = dir_.filePath(QStringLiteral("small.onnx"));
        QVERIFY(tessel::test::writeSmallConvNet(model_));
        compiled_ = std::make_shared<const driver::CompiledModel>(driver::compileModel(model_.toStdString(), {}));
        // Records whose configurations differ from the defaults in every knob: a "tuned" side without tuning.
        records_ = dir_.filePath(QStringLiteral("small.records.jsonl"));
        tune::RecordWriter w(records_.toStdString());
        for (const auto& t : driver::extractTasks(*compiled_)) {
            tune::Record r;
            r.workload = t.task->workload();
            r.target = compiled_->target.str();
            for (const auto& k : t.task->knobs())
                if (k.size() > 1) r.config[k.name] = (k.defaultIndex + 1) % k.size();
            r.costs = {1e-3};
            r.flops = t.task->flops();
            r.trial = 0;
            w.write(r);
        }
    }

    void nothingToCompareWithoutAModel() {
        Session session;
        CompareView view(&session);
        QVERIFY(!view.runButton()->isEnabled());
        QVERIFY(!view.compare()->start());
        QVERIFY2(view.statusText().contains(QStringLiteral("Open a model")), qPrintable(view.statusText()));
        // Defaults: A untuned, B the Tuning view's records (beside the model) while
        // the session compiles untuned.
        QCOMPARE(view.compare()->side(0).schedules, CompareSideChoice::Schedules::Untuned);
        QCOMPARE(view.compare()->side(1).schedules, CompareSideChoice::Schedules::TuningRecords);
        session.setModel(model_, compiled_);
        QVERIFY(view.runButton()->isEnabled());
        QCOMPARE(view.compare()->recordsPath(1), model_ + QStringLiteral(".records.jsonl"));
        // That file does not exist yet: a clear status, no run.
        QVERIFY(!view.compare()->start());
        QVERIFY2(view.statusText().contains(QStringLiteral("does not exist yet")), qPrintable(view.statusText()));
        QCOMPARE(view.compare()->sideLabel(0), QStringLiteral("untuned"));
    }

    void sideBFollowsTheSessionsTunedConfigurations() {
        Session session;
        CompareView view(&session);
        session.setModel(model_, compiled_);
        QCOMPARE(view.compare()->side(1).schedules, CompareSideChoice::Schedules::TuningRecords);
        // Run > Tuned Configurations: a folder of records, as the bundled ones are.
        QDir(dir_.path()).mkpath(QStringLiteral("bundle"));
        const QString bundle = dir_.filePath(QStringLiteral("bundle"));
        QFile::remove(bundle + QStringLiteral("/small.jsonl"));
        QVERIFY(QFile::copy(records_, bundle + QStringLiteral("/small.jsonl")));
        session.setRecordsPath(bundle);
        QCOMPARE(view.compare()->side(1).schedules, CompareSideChoice::Schedules::SessionRecords);
        QCOMPARE(view.compare()->recordsPath(1), bundle);
        QCOMPARE(view.compare()->sideLabel(1), QStringLiteral("bundle/"));
        view.compare()->setRounds(1);
        QSignalSpy finished(view.compare(), &CompareSession::finished);
        QVERIFY(view.compare()->start());
        QVERIFY2(finished.wait(180000), qPrintable(view.statusText()));
        auto result = view.compare()->result();
        QVERIFY(result);
        QVERIFY2(result->ok(), result->error.c_str());
        int tuned = 0;
        for (const auto& row : result->rows) tuned += row.tunedB;
        QVERIFY(tuned >= 4);
        // Once the user chose B, it stays.
        CompareSideChoice b;
        view.compare()->setSide(1, b);
        session.setRecordsPath(QString());
        session.setRecordsPath(bundle);
        QCOMPARE(view.compare()->side(1).schedules, CompareSideChoice::Schedules::Untuned);
    }

    void runShowsTheMeasuredFigures() {
        Session session;
        CompareView view(&session);
        setUp(session, view, 3);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.compare()->sideLabel(1), QStringLiteral("small.records.jsonl"));
        QSignalSpy finished(view.compare(), &CompareSession::finished);
        QSignalSpy progress(view.compare(), &CompareSession::progressChanged);
        tessel::test::GapMeter gaps;
        QTest::mouseClick(view.runButton(), Qt::LeftButton);
        QVERIFY(view.compare()->isRunning());
        QVERIFY(view.cancelButton()->isEnabled() && !view.runButton()->isEnabled());
        QVERIFY2(finished.wait(180000), qPrintable(view.statusText()));
        QVERIFY2(gaps.longest() < 200, qPrintable(QStringLiteral("GUI thread blocked %1 ms").arg(gaps.longest())));
        qInfo("longest gap between GUI timer ticks while comparing: %lld ms", gaps.longest());
        QVERIFY(progress.count() >= 5);
        QCOMPARE(view.progressBar()->value(), 1000);
        QVERIFY(view.runButton()->isEnabled() && !view.cancelButton()->isEnabled());

        auto result = view.compare()->result();
        QVERIFY(result);
        const driver::CompareResult& r = *result;
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY2(view.statusText().startsWith(QStringLiteral("Done")), qPrintable(view.statusText()));
        QCOMPARE(r.rounds, 3);
        QCOMPARE(r.rows.size(), compiled_->functions.size());
        int tuned = 0;
        for (const auto& row : r.rows) tuned += row.tunedB;
        QVERIFY(tuned >= 4); // three convolutions and the dense layer

        // The chart: a pair per function plus the end-to-end pair, slowest on A first.
        CompareChart* chart = view.chart();
        QCOMPARE(chart->barsA()->dataCount(), int(r.rows.size()) + 1);
        QCOMPARE(chart->barsB()->dataCount(), int(r.rows.size()) + 1);
        QCOMPARE(chart->categories().size(), int(r.rows.size()) + 1);
        QCOMPARE(chart->ratioLabels().size(), int(r.rows.size()) + 1);
        QCOMPARE(barAt(chart->barsA(), 0), r.latencyA);
        QCOMPARE(barAt(chart->barsB(), 0), r.latencyB);
        QCOMPARE(chart->ratioLabels()[0]->text(), QStringLiteral("%1×").arg(r.ratio, 0, 'f', 2));
        double previous = INFINITY;
        for (int k = 1; k < chart->categories().size(); ++k) {
            const driver::CompareRow* row = r.find(chart->categories()[k].toStdString());
            QVERIFY2(row, qPrintable(chart->categories()[k]));
            QCOMPARE(barAt(chart->barsA(), k), row->msA);
            QCOMPARE(barAt(chart->barsB(), k), row->msB);
            QCOMPARE(chart->ratioLabels()[k]->text(), QStringLiteral("%1×").arg(row->ratio, 0, 'f', 2));
            QVERIFY(row->msA <= previous);
            previous = row->msA;
        }
        QVERIFY(chart->legend->itemCount() == 2);
        QCOMPARE(chart->barsB()->name(), QStringLiteral("B: small.records.jsonl"));

        // The table: the end-to-end line, then the chart's order, with the same numbers.
        CompareTable* table = view.table();
        QCOMPARE(table->rowCount(), int(r.rows.size()) + 1);
        QCOMPARE(table->index(0, CompareTable::MsA).data(Qt::UserRole).toDouble(), r.latencyA);
        QCOMPARE(table->index(0, CompareTable::Ratio).data(Qt::UserRole).toDouble(), r.ratio);
        for (int i = 1; i < table->rowCount(); ++i) {
            QCOMPARE(table->index(i, CompareTable::Function).data().toString(), chart->categories()[i]);
            const driver::CompareRow& row = r.rows[size_t(table->resultRow(i))];
            QCOMPARE(table->index(i, CompareTable::MsA).data(Qt::UserRole).toDouble(), row.msA);
            QCOMPARE(table->index(i, CompareTable::MsB).data(Qt::UserRole).toDouble(), row.msB);
            QCOMPARE(table->index(i, CompareTable::Ratio).data(Qt::UserRole).toDouble(), row.ratio);
            QCOMPARE(table->index(i, CompareTable::Tuned).data().toString().contains(QLatin1Char('B')), row.tunedB);
        }

        // CSV: parses, one line per function and the end-to-end line, the measured figures exactly.
        const QString csv = dir_.filePath(QStringLiteral("compare.csv"));
        QVERIFY(view.exportCsv(csv));
        const auto lines = tessel::test::readCsv(csv);
        QCOMPARE(lines.size(), int(r.rows.size()) + 1);
        for (int i = 0; i < int(r.rows.size()); ++i) {
            const driver::CompareRow& row = r.rows[size_t(i)];
            QCOMPARE(lines[i]["function"], QString::fromStdString(row.function));
            QCOMPARE(lines[i]["ms_a"].toDouble(), row.msA);
            QCOMPARE(lines[i]["ms_b"].toDouble(), row.msB);
            QCOMPARE(lines[i]["gflops_b"].toDouble(), row.gflopsB);
            QCOMPARE(lines[i]["ratio"].toDouble(), row.ratio);
            QCOMPARE(lines[i]["tuned_b"], row.tunedB ? QStringLiteral("1") : QStringLiteral("0"));
        }
        QCOMPARE(lines.back()["function"], QStringLiteral("end-to-end"));
        QCOMPARE(lines.back()["ms_a"].toDouble(), r.latencyA);
        QCOMPARE(lines.back()["ms_b"].toDouble(), r.latencyB);
        QCOMPARE(lines.back()["ratio"].toDouble(), r.ratio);

        // PNG and PDF: written, not empty; the picture is no flat colour.
        const QString png = dir_.filePath(QStringLiteral("compare.png"));
        const QString pdf = dir_.filePath(QStringLiteral("compare.pdf"));
        QVERIFY(view.exportPng(png));
        QVERIFY(view.exportPdf(pdf));
        QVERIFY(QFileInfo(png).size() > 1000);
        QVERIFY(QFileInfo(pdf).size() > 1000);
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.height(), chart->preferredHeight());
        QVERIFY(distinctColours(image) > 8);
        QFile head(pdf);
        QVERIFY(head.open(QIODevice::ReadOnly));
        QVERIFY(head.read(5) == "%PDF-");

        // The screenshot to look at.
        // In a folder of its own: the smoke test clears the PNGs of screenshots/ when it runs.
        const QString shots = QStringLiteral(TESSEL_BINARY_DIR "/screenshots/views");
        QDir().mkpath(shots);
        QTest::qWait(50);
        QVERIFY(view.grab().save(shots + QStringLiteral("/compare-view.png")));
        QFile::remove(shots + QStringLiteral("/compare-chart.png"));
        QVERIFY(QFile::copy(png, shots + QStringLiteral("/compare-chart.png"))); // the export, to look at too
    }

    void resnet18UntunedAgainstTheBundledRecords() {
        // The demo: ResNet-18 of the zoo, untuned against what the example opens
        // with (Run > Tuned Configurations: the bundled records).
        const QString path = dir_.filePath(QStringLiteral("resnet18.onnx"));
        frontend::writeZooModel("resnet18", path.toStdString());
        auto model = std::make_shared<const driver::CompiledModel>(driver::compileModel(path.toStdString(), {}));
        Session session;
        CompareView view(&session);
        session.setModel(path, model);
        session.setRecordsPath(QStringLiteral(TESSEL_SOURCE_DIR "/resources/records"));
        QCOMPARE(view.compare()->side(1).schedules, CompareSideChoice::Schedules::SessionRecords);
        view.compare()->setRounds(5);
        view.resize(1100, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy finished(view.compare(), &CompareSession::finished);
        QVERIFY(view.compare()->start());
        QVERIFY2(finished.wait(300000), qPrintable(view.statusText()));
        auto result = view.compare()->result();
        QVERIFY(result);
        QVERIFY2(result->ok(), result->error.c_str());
        int tuned = 0;
        for (const auto& row : result->rows) tuned += row.tunedB;
        // The bundled records cover every tunable function on a machine of a
        // kind they were tuned on (architecture and vector width); elsewhere
        // none fits and the comparison is untuned against untuned.
        const bool bundledForThisKind =
            !driver::bestConfigsFor(driver::loadRecords(TESSEL_SOURCE_DIR "/resources/records"), codegen::hostTarget())
                 .configs.empty();
        if (bundledForThisKind) {
            QCOMPARE(tuned, result->tunableB);
            QVERIFY(tuned >= 20);
        } else {
            QCOMPARE(tuned, 0);
            qInfo("the bundled records are for other machine kinds than %s", codegen::hostTarget().str().c_str());
        }
        QCOMPARE(view.chart()->barsB()->dataCount(), int(result->rows.size()) + 1);
        qInfo("ResNet-18 end to end: untuned %.3f ms, bundled records %.3f ms, B/A %.3f", result->latencyA,
              result->latencyB, result->ratio);
        const QString shots = QStringLiteral(TESSEL_BINARY_DIR "/screenshots/views");
        QDir().mkpath(shots);
        QTest::qWait(50);
        QVERIFY(view.grab().save(shots + QStringLiteral("/compare-resnet18.png")));
    }

    void cancelKeepsTheRoundsSoFar() {
        Session session;
        CompareView view(&session);
        setUp(session, view, 100000); // far more than the test waits for
        QSignalSpy finished(view.compare(), &CompareSession::finished);
        QVERIFY(view.compare()->start());
        // Wait until the rounds run, let a few go by, then cancel.
        QTRY_VERIFY_WITH_TIMEOUT(view.progressBar()->format().contains(QStringLiteral("round ")), 120000);
        QTest::qWait(500);
        QTest::mouseClick(view.cancelButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QVERIFY(!view.compare()->isRunning());
        auto result = view.compare()->result();
        QVERIFY(result);
        QVERIFY(result->cancelled);
        QVERIFY(result->rounds >= 1 && result->rounds < 100000);
        QVERIFY2(view.statusText().startsWith(QStringLiteral("Cancelled")), qPrintable(view.statusText()));
        QCOMPARE(view.chart()->barsA()->dataCount(), int(result->rows.size()) + 1);
        QVERIFY(view.runButton()->isEnabled() && !view.cancelButton()->isEnabled());
    }

    void devicesOfThePanelAreOffered() {
        Session session;
        CompareView view(&session);
        QCOMPARE(view.devices().size(), 1);
        QVERIFY(view.devices()[0].isLocal());
        DeviceList list;
        Endpoint server;
        server.kind = Endpoint::Kind::Server;
        server.port = 9999;
        QVERIFY(list.addEndpoint(server));
        view.followDevices(&list);
        QCOMPARE(view.devices().size(), 2);
        QCOMPARE(view.devices()[1].kind, DeviceChoice::Kind::Server);
        QCOMPARE(view.devices()[1].port, quint16(9999));
        // A side on it says so in its label.
        CompareSideChoice b = view.compare()->side(1);
        b.device = view.devices()[1];
        b.threads = 2;
        view.compare()->setSide(1, b);
        QVERIFY2(view.compare()->sideLabel(1).contains(QStringLiteral(" on server 127.0.0.1:9999, 2 thread")),
                 qPrintable(view.compare()->sideLabel(1)));
        list.removeEndpoint(0);
        QCOMPARE(view.devices().size(), 2); // still chosen by side B, so still offered
    }
};

QTEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
