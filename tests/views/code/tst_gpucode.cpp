// The IDE on a GPU kernel, offscreen: the schedule editor and the code view
// over one session with a GPU ladder step open. Choosing CUDA in the code
// view's target selector re-lowers the script through the GPU pipeline: the
// TIR has thread bindings, the assembly pane is PTX linked to it by .loc
// lines, the C pane CUDA C; the PTX pane offers SASS (or says which CUDA tool
// is missing); the verifier's error (4096 threads per block) shows at its
// schedule line; a run says why it cannot run here (no GPU), never a time.
#include "code/CodeView.h"
#include "code/SassDisassembly.h"
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "common/TargetChoice.h"
#include "driver/FunctionArtifacts.h"
#include "driver/Measure.h"
#include "codegen/Target.h"
#include "schedule/RunHistory.h"
#include "schedule/ScheduleDocument.h"
#include "schedule/ScheduleEditor.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessel;
using namespace tessel::views;

namespace {

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

const QString kStep = QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm-gpu/02_shared_tiles.te");

/// The 1-based line of `text` that contains `what` (its first), 0 if none.
int lineOf(const QString& text, const QString& what) {
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(what)) return i + 1;
    return 0;
}

} // namespace

class TestGpuCode : public QObject {
    Q_OBJECT

    Session session_;
    ScheduleEditor* editor_ = nullptr;
    CodeView* code_ = nullptr;
    QString script_;

    ScheduleDocument* doc() const { return editor_->document(); }

    bool settle(int timeoutMs = 120000) {
        QElapsedTimer t;
        t.start();
        while ((doc()->isRelowering() || session_.jobs()->runningCount() > 0) && t.elapsed() < timeoutMs)
            QTest::qWait(10);
        QTest::qWait(20);
        return !doc()->isRelowering() && session_.jobs()->runningCount() == 0;
    }

    QString text(CodeView::Pane p) const { return code_->pane(p)->toPlainText(); }

private slots:
    void initTestCase() {
        script_ = readText(kStep);
        QVERIFY(!script_.isEmpty());
        editor_ = new ScheduleEditor(&session_);
        editor_->resize(900, 700);
        editor_->show();
        code_ = new CodeView(&session_);
        code_->resize(1600, 900);
        code_->show();
        QVERIFY(QTest::qWaitForWindowExposed(code_));
        session_.setScript(kStep, script_);
        QVERIFY(settle());
        QVERIFY(session_.artifacts());
    }

    void theHostFirst() {
        QCOMPARE(session_.target(), QStringLiteral("host"));
        QVERIFY(!code_->showsGpuCode());
        QCOMPARE(code_->paneName(CodeView::Assembly), QStringLiteral("Assembly"));
        QVERIFY(!text(CodeView::Assembly).contains(QLatin1String(".entry")));
    }

    void choosingCudaShowsPtx() {
        auto* selector = code_->findChild<TargetSelector*>();
        QVERIFY(selector);
        const int cuda = selector->findData(QStringLiteral("cuda -mcpu=sm_90"));
        QVERIFY(cuda >= 0);
        QCOMPARE(selector->itemText(cuda), QStringLiteral("CUDA (sm_90)"));
        QSignalSpy linked(code_, &CodeView::linksUpdated);
        emit selector->activated(cuda); // what a click on the item does
        QCOMPARE(session_.target(), QStringLiteral("cuda -mcpu=sm_90"));
        QVERIFY(settle());
        QVERIFY2(!doc()->diagnostic(), qPrintable(doc()->diagnostic() ? doc()->diagnostic()->message : QString()));
        QVERIFY(code_->showsGpuCode());
        QCOMPARE(code_->paneName(CodeView::Assembly), QStringLiteral("PTX"));
        QCOMPARE(code_->paneName(CodeView::C), QStringLiteral("CUDA C"));
        const QString ptx = text(CodeView::Assembly), tir = text(CodeView::Tir);
        QVERIFY2(ptx.contains(QLatin1String(".entry gemm_kernel0")), qPrintable(ptx.left(600)));
        QVERIFY2(tir.contains(QLatin1String("T.thread_binding")), qPrintable(tir.left(600)));
        QVERIFY(tir.contains(QLatin1String("threadIdx.x")));
        QVERIFY(text(CodeView::C).contains(QLatin1String("__global__")));
        // Messages name the GPU target without the host CPU's feature list.
        const QString shown = targetText(session_.request().target);
        QVERIFY2(shown.contains(QLatin1String("sm_90")) && !shown.contains(QLatin1String("-host")), qPrintable(shown));
        // The editor's selector follows: one target for the whole IDE.
        auto* editorSelector = editor_->findChild<TargetSelector*>();
        QVERIFY(editorSelector);
        QCOMPARE(editorSelector->currentData().toString(), QStringLiteral("cuda -mcpu=sm_90"));

        // Linked lines: a TIR line of the multiply-add lights PTX lines.
        if (!code_->linksReady()) QVERIFY(linked.wait(30000));
        const int mad = lineOf(tir, QStringLiteral("C_local["));
        QVERIFY(mad > 0);
        int lit = 0;
        for (int l = mad; l < mad + 20 && lit == 0; ++l) {
            code_->activateLine(CodeView::Tir, l);
            lit = code_->linkedLines(CodeView::Assembly).size();
        }
        QVERIFY2(lit > 0, "no PTX line is linked to the TIR");
        const QStringList ptxLines = ptx.split(QLatin1Char('\n'));
        for (int l : code_->linkedLines(CodeView::Assembly).keys())
            QVERIFY(!ptxLines.value(l - 1).trimmed().startsWith(QLatin1String(".loc")));
    }

    void sassOrWhyNot() {
        QSignalSpy ready(code_, &CodeView::sassReady);
        code_->setSassShown(true);
        if (ready.isEmpty()) QVERIFY(ready.wait(60000));
        const QString shown = text(CodeView::Assembly);
        const CudaTools tools = findCudaTools();
        if (tools.canDisassemble())
            QVERIFY2(shown.contains(QLatin1String("gemm_kernel0")) && !shown.contains(QLatin1String(".entry")),
                     qPrintable(shown.left(600)));
        else
            QVERIFY2(shown.contains(QLatin1String("nvdisasm")) && shown.contains(QLatin1String("not found")),
                     qPrintable(shown));
        // Where no tool is, the pane says which and where it looked.
        QTemporaryDir empty;
        ready.clear();
        code_->setCudaToolFolders({empty.path()});
        QVERIFY(!ready.isEmpty());
        const QString missing = text(CodeView::Assembly);
        QVERIFY2(missing.contains(QLatin1String("ptxas")) && missing.contains(QFileInfo(empty.path()).fileName()),
                 qPrintable(missing));
        // No links into SASS.
        code_->activateLine(CodeView::Tir, lineOf(text(CodeView::Tir), QStringLiteral("C_local[")) + 1);
        QVERIFY(code_->linkedLines(CodeView::Assembly).isEmpty());
        code_->setCudaToolFolders({});
        code_->setSassShown(false);
        QVERIFY(text(CodeView::Assembly).contains(QLatin1String(".entry gemm_kernel0")));
    }

    void verifierErrorAtItsLine() {
        // 64 x 64 threads per block: 4096, over the GPU's 1024.
        QString big = script_;
        big.replace(QStringLiteral("threads = 16"), QStringLiteral("threads = 64"));
        big.replace(QStringLiteral("tile = 32"), QStringLiteral("tile = 128"));
        QSignalSpy diagnostic(doc(), &ScheduleDocument::diagnosticChanged);
        doc()->edit(big);
        QVERIFY(settle());
        QVERIFY(doc()->diagnostic().has_value());
        const auto& d = *doc()->diagnostic();
        QVERIFY2(d.message.contains(QLatin1String("4096")) && d.message.contains(QLatin1String("1024")),
                 qPrintable(d.message));
        // At a schedule line of the loop it names (y_inner_outer, the script's
        // `tx`: the last line that changed it), in the editor too.
        QVERIFY(d.message.contains(QLatin1String("y_inner_outer")));
        const QString line = big.split(QLatin1Char('\n')).value(d.line - 1);
        QVERIFY2(line.startsWith(QLatin1String("s[")) && line.contains(QLatin1String("tx")),
                 qPrintable(QStringLiteral("%1: %2").arg(d.line).arg(line)));
        const auto& marks = editor_->editor()->marks();
        QCOMPARE(marks.size(), 1);
        QCOMPARE(marks[0].line, d.line);
        QVERIFY(marks[0].error);
        // The same script for this machine's CPU: bound loops are serial loops there.
        doc()->edit(script_);
        QVERIFY(settle());
        QVERIFY(!doc()->diagnostic());
    }

    void runWithoutGpuSaysWhy() {
        const std::string why = driver::whyCannotRun(codegen::resolveTarget("cuda -mcpu=sm_90"));
        if (why.empty()) QSKIP("this machine has a CUDA GPU: the run is timed there");
        if (doc()->text() != script_) {
            doc()->edit(script_);
            QVERIFY(settle());
        }
        QVERIFY(!doc()->diagnostic());
        QSignalSpy finished(doc(), &ScheduleDocument::runFinished);
        doc()->run();
        QVERIFY(finished.wait(60000));
        const auto r = finished.first().first().value<RunRecord>();
        QVERIFY(!r.measured);
        QVERIFY(!r.correct);
        QVERIFY2(r.error.contains(QString::fromStdString(why)), qPrintable(r.error));
        QVERIFY(doc()->statusText().contains(QLatin1String("NVIDIA")));
        QVERIFY(doc()->statusIsError());
    }

    void backToTheHost() {
        auto* selector = code_->findChild<TargetSelector*>();
        emit selector->activated(selector->findData(QStringLiteral("host")));
        QVERIFY(settle());
        QVERIFY(!code_->showsGpuCode());
        QCOMPARE(code_->paneName(CodeView::Assembly), QStringLiteral("Assembly"));
        QVERIFY(!text(CodeView::Assembly).contains(QLatin1String(".entry")));
    }

    void cleanupTestCase() {
        delete code_;
        delete editor_;
    }
};

QTEST_MAIN(TestGpuCode)
#include "tst_gpucode.moc"
