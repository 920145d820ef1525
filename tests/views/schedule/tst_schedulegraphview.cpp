// TEDD's pictures in the schedule editor (schedule/ScheduleGraphView.h),
// offscreen: for GEMM ladder steps each of the three pictures is laid out and
// drawn (every node a box inside the picture, ink on the image), a new
// lowering redraws it, and a click on a loop selects the script line that
// made it. With TESSEL_PICTURE_SHOTS=DIR the pictures are saved there as PNGs.
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "graph/GraphView.h"
#include "schedule/ScheduleEditor.h"
#include "schedule/ScheduleGraphView.h"
#include "schedule/ScriptEdit.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>

using namespace tessel;
using namespace tessel::views;

namespace {

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

/// A script of resources/ ("examples/gemm/02_blocking.te"), by its path there.
QString resourcePath(const QString& name) { return QStringLiteral(TESSEL_SOURCE_DIR "/resources/") + name; }

/// Pixels that are not the white background.
int inkOf(const QImage& img) {
    int ink = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) ink += (img.pixel(x, y) & 0xffffff) != 0xffffff;
    return ink;
}

} // namespace

class TestScheduleGraphView : public QObject {
    Q_OBJECT

    Session session_;
    ScheduleEditor* editor_ = nullptr;

    /// Waits for the lowering and, when `pictures` (the tab in front), the picture.
    bool settle(bool pictures = true, int timeoutMs = 60000) {
        QElapsedTimer t;
        t.start();
        auto busy = [&] {
            return editor_->document()->isRelowering() || session_.jobs()->runningCount() > 0 ||
                   (pictures && !editor_->pictures()->isUpToDate());
        };
        while (busy() && t.elapsed() < timeoutMs) QTest::qWait(10);
        return !busy();
    }

    void open(const QString& name, bool pictures = true) {
        session_.setScript(resourcePath(name), readText(resourcePath(name)));
        QVERIFY(settle(pictures));
        QVERIFY2(editor_->document()->artifacts(), qPrintable(editor_->document()->statusText()));
    }

    /// Checks the picture shown: a box per node, all inside the scene (nothing
    /// clipped), ink on the image; saves it when asked.
    void checkPicture(const QString& shot) {
        ScheduleGraphView* v = editor_->pictures();
        const auto& g = v->graph();
        QVERIFY(!g.nodes.empty());
        const QRectF scene = v->scene()->sceneRect();
        QVERIFY(scene.width() > 50 && scene.height() > 50);
        for (int i = 0; i < int(g.nodes.size()); ++i) {
            QGraphicsItem* item = v->nodeItem(i);
            QVERIFY2(item, g.nodes[size_t(i)].id.c_str());
            QVERIFY2(scene.contains(item->sceneBoundingRect()), g.nodes[size_t(i)].id.c_str());
            // The label fits its box.
            for (QGraphicsItem* text : item->childItems())
                QVERIFY2(item->sceneBoundingRect().adjusted(-1, -1, 1, 1).contains(text->sceneBoundingRect()),
                         g.nodes[size_t(i)].id.c_str());
        }
        const QImage img = v->render();
        QVERIFY(inkOf(img) > img.width() * img.height() / 50);
        // What the user sees in the tab: the view, not blank.
        const QImage seen = v->grab().toImage();
        QVERIFY(inkOf(seen) > seen.width() * seen.height() / 50);
        if (QByteArray dir = qgetenv("TESSEL_PICTURE_SHOTS"); !dir.isEmpty()) {
            QDir().mkpath(QString::fromLocal8Bit(dir));
            img.save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + shot + QStringLiteral(".png"));
            editor_->grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + shot + QStringLiteral("-editor.png"));
        }
    }

private slots:
    void initTestCase() {
        editor_ = new ScheduleEditor(&session_);
        editor_->resize(1100, 650);
        editor_->show();
        QVERIFY(QTest::qWaitForWindowExposed(editor_));
    }
    void cleanupTestCase() { delete editor_; }

    void hiddenPicturesWaitUntilShown() {
        open(QStringLiteral("examples/gemm/02_blocking.te"), false);
        // Behind its tab the picture is not laid out.
        QCOMPARE(editor_->outlineTabs()->currentIndex(), 0);
        QVERIFY(editor_->pictures()->graph().nodes.empty());
        QVERIFY(!editor_->pictures()->isUpToDate());
        editor_->outlineTabs()->setCurrentWidget(editor_->pictures());
        QVERIFY(settle());
        QVERIFY(!editor_->pictures()->graph().nodes.empty());
    }

    void threePicturesOfEachStep_data() {
        QTest::addColumn<QString>("step");
        QTest::newRow("02_blocking") << QStringLiteral("examples/gemm/02_blocking.te");
        QTest::newRow("06_write_cache") << QStringLiteral("examples/gemm/06_write_cache.te");
        QTest::newRow("08_register_blocking") << QStringLiteral("examples/gemm/08_register_blocking.te");
        // A blocked convolution's template: padding, packing, compute_at, fuse.
        QTest::newRow("conv2d_nchwc") << QStringLiteral("templates/conv2d_nchwc.te");
    }
    void threePicturesOfEachStep() {
        QFETCH(QString, step);
        editor_->outlineTabs()->setCurrentWidget(editor_->pictures());
        open(step);
        ScheduleGraphView* v = editor_->pictures();
        const char* names[] = {"dataflow", "tree", "itervars"};
        for (auto p : {ScheduleGraphView::Dataflow, ScheduleGraphView::ScheduleTree, ScheduleGraphView::IterVars}) {
            v->setPicture(p);
            QVERIFY(settle());
            QCOMPARE(v->chooser()->currentData().toInt(), int(p));
            checkPicture(QFileInfo(step).completeBaseName() + QLatin1Char('-') + QLatin1String(names[p]));
        }
        // The schedule's stages are in the pictures: the tree of step 8 hangs
        // the cache under a loop of C.
        v->setPicture(ScheduleGraphView::ScheduleTree);
        QVERIFY(settle());
        if (step.contains(QLatin1String("/08_")))
            QVERIFY(v->graph().hasEdge("iv:C/x_outer", "stage:C_local"));
    }

    void aNewLoweringRedraws() {
        editor_->outlineTabs()->setCurrentWidget(editor_->pictures());
        open(QStringLiteral("examples/gemm/02_blocking.te"));
        ScheduleGraphView* v = editor_->pictures();
        v->setPicture(ScheduleGraphView::ScheduleTree);
        QVERIFY(settle());
        QVERIFY(v->graph().find("iv:C/x_outer") >= 0);
        QCOMPARE(v->graph().nodes[size_t(v->graph().find("iv:C/x_outer"))].annotation, std::string());
        // Edit: parallel over xo. The picture follows the re-lowering.
        QSignalSpy ready(v, &ScheduleGraphView::pictureReady);
        QString text = editor_->editor()->toPlainText();
        const int at = text.indexOf(QLatin1String("func = "));
        QVERIFY(at > 0);
        text.insert(at, QStringLiteral("s[C].parallel(xo)\n"));
        editor_->editor()->setPlainText(text);
        QVERIFY(settle());
        QVERIFY(ready.count() >= 1);
        const int xo = v->graph().find("iv:C/x_outer");
        QVERIFY(xo >= 0);
        QCOMPARE(v->graph().nodes[size_t(xo)].annotation, std::string("parallel"));
    }

    void clickSelectsTheScriptLine() {
        editor_->outlineTabs()->setCurrentWidget(editor_->pictures());
        open(QStringLiteral("examples/gemm/02_blocking.te"));
        ScheduleGraphView* v = editor_->pictures();
        v->setPicture(ScheduleGraphView::ScheduleTree);
        QVERIFY(settle());
        const int xi = v->graph().find("iv:C/x_inner");
        QVERIFY(xi >= 0);
        const auto& node = v->graph().nodes[size_t(xi)];
        QVERIFY(!node.lines.empty());
        // The line that made xi is the tile.
        const QString line = editor_->editor()->document()->findBlockByNumber(node.lines.front() - 1).text();
        QVERIFY2(line.contains(QLatin1String("tile(")), qPrintable(line));
        // A click on its box (centred in the view first).
        QGraphicsItem* item = v->nodeItem(xi);
        v->view()->centerOn(item);
        const QPoint at = v->view()->mapFromScene(item->sceneBoundingRect().center());
        QSignalSpy activated(v, &ScheduleGraphView::lineActivated);
        QTest::mouseClick(v->view()->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(editor_->editor()->cursorLine(), node.lines.front());
        QCOMPARE(editor_->editor()->textCursor().selectedText(), line);
    }
};

QTEST_MAIN(TestScheduleGraphView)
#include "tst_schedulegraphview.moc"
