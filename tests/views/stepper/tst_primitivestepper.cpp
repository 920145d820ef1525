// The primitive stepper (issue 21, "for students, past the anchors"): a
// schedule stepped through primitive by primitive. For every GEMM ladder
// step and a fused convolution's script, the TIR after step k is exactly
// what the script cut after that primitive's line lowers to (the cut made
// here independently: the lines up to it, and the build call); the view
// shows it with the lines the primitive changed lit, and follows the
// schedule editor.

#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "common/SmallConvNet.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "driver/TeDriver.h"
#include "ir/Diagnostic.h"
#include "schedule/ScheduleEditor.h"
#include "stepper/PrimitiveStepper.h"
#include "stepper/ScheduleSteps.h"
#include "tir/IRPrinter.h"

#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace tessel;
using namespace tessel::views;

namespace {

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// The script cut after 1-based line `line`: its lines up to there, then the
/// build or lower call(s) of the script, and nothing else.
QString cutAfterLine(const QString& script, int line) {
    const QStringList lines = script.split(QLatin1Char('\n'));
    QStringList out = lines.mid(0, line);
    static const QRegularExpression build(QStringLiteral(R"(\b(tvm|te)\.(build|lower)\s*\()"));
    for (int i = line; i < lines.size(); ++i)
        if (build.match(lines[i]).hasMatch()) out << lines[i];
    return out.join(QLatin1Char('\n'));
}

/// The line (1-based) of the script's create_schedule statement.
int scheduleLine(const QString& script) {
    const QStringList lines = script.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(QLatin1String("create_schedule("))) return i + 1;
    return 0;
}

QString lowered(const QString& script, const QString& file) {
    driver::ScriptOptions so;
    so.fileName = file.toStdString();
    const auto fns = driver::lowerScript(script.toStdString(), so);
    return fns.empty() ? QString() : QString::fromStdString(tir::toString(fns.front().lowered));
}

} // namespace

class TestPrimitiveStepper : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString convScript_;

private slots:
    void initTestCase() {
        // A fused convolution's script, as the model compiler prints it.
        const QString model = dir_.filePath(QStringLiteral("small_conv.onnx"));
        QVERIFY(test::writeSmallConvNet(model));
        driver::CompileOptions co;
        co.trace = true;
        const driver::CompiledModel m = driver::compileModel(model.toStdString(), {}, co);
        for (const auto& f : m.functions)
            if (convScript_.isEmpty() && f.name.find("conv") != std::string::npos && !f.script.empty())
                convScript_ = QString::fromStdString(f.script);
        QVERIFY(!convScript_.isEmpty());
    }

    void stepsOfAScript() {
        const QString s = readText(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm/08_register_blocking.te"));
        const QList<ScheduleStep> steps = scheduleSteps(s);
        QVERIFY(steps.size() >= 10);
        QCOMPARE(steps.front().text, QStringLiteral("CC = s.cache_write(C, \"local\")"));
        QCOMPARE(steps.front().firstLine, scheduleLine(s) + 1);
        // Getters of the schedule are no primitives; the build call is none either.
        for (const ScheduleStep& st : steps) {
            QVERIFY2(!st.text.contains(QLatin1String(".op.axis")) || st.text.contains(QLatin1String("(")),
                     qPrintable(st.text));
            QVERIFY(!st.text.contains(QLatin1String("tvm.build")));
        }
        // No steps: the default schedule; all of them: the script as it is.
        QCOMPARE(scriptWithSteps(s, int(steps.size())), s);
        QVERIFY(!scriptWithSteps(s, 0).contains(QLatin1String("cache_write")));
        QVERIFY(scriptWithSteps(s, 0).contains(QLatin1String("tvm.build")));
        // Statements over several lines are one step.
        const QString multi = QStringLiteral("A = te.placeholder((64,), name=\"A\")\n"
                                             "B = te.compute((64,), lambda i: A[i] + 1, name=\"B\")\n"
                                             "s = te.create_schedule(B.op)\n"
                                             "xo, xi = s[B].split(B.op.axis[0],\n"
                                             "                   factor=8)  # a comment (with a bracket\n"
                                             "s[B].vectorize(xi)\n"
                                             "func = tvm.build(s, [A, B], name=\"f\")\n");
        const QList<ScheduleStep> two = scheduleSteps(multi);
        QCOMPARE(two.size(), 2);
        QCOMPARE(two[0].firstLine, 4);
        QCOMPARE(two[0].lastLine, 5);
        QCOMPARE(two[1].firstLine, 6);
    }

    void theTirAfterStepKIsTheScriptCutThere_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("script");
        for (const QFileInfo& fi : QDir(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm"))
                                       .entryInfoList({QStringLiteral("*.te")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(fi.fileName())) << fi.fileName() << readText(fi.absoluteFilePath());
        QTest::newRow("fused convolution") << QStringLiteral("conv.te") << convScript_;
    }

    void theTirAfterStepKIsTheScriptCutThere() {
        QFETCH(QString, file);
        QFETCH(QString, script);
        const QList<ScheduleStep> primitives = scheduleSteps(script);
        const QList<PrimitiveStepper::Step> steps =
            PrimitiveStepper::lowerSteps(script, file, QString(), driver::CompileRequest{});
        QCOMPARE(steps.size(), primitives.size() + 1);
        int lowered_ = 0;
        for (int k = 0; k < steps.size(); ++k) {
            const int line = k == 0 ? scheduleLine(script) : primitives[k - 1].lastLine;
            QCOMPARE(steps[k].line, k == 0 ? 0 : primitives[k - 1].firstLine);
            QString expected, why;
            try {
                expected = lowered(cutAfterLine(script, line), file);
            } catch (const CompileError& e) {
                why = QString::fromStdString(e.diagnostic().message);
            }
            if (!why.isEmpty()) {
                // A schedule that is whole only with a later primitive (a
                // printed script's compute_at before the compute_inline that
                // makes it valid) does not lower cut there: the step says so.
                QVERIFY2(steps[k].tir.isEmpty() && steps[k].error.contains(why),
                         qPrintable(QStringLiteral("%1, step %2: %3 / %4").arg(file).arg(k).arg(why, steps[k].error)));
                continue;
            }
            QVERIFY2(steps[k].error.isEmpty(), qPrintable(QStringLiteral("%1, step %2: %3").arg(file).arg(k).arg(steps[k].error)));
            QVERIFY(!expected.isEmpty());
            QVERIFY2(steps[k].tir == expected, qPrintable(QStringLiteral("%1, step %2 (line %3) differs").arg(file).arg(k).arg(line)));
            ++lowered_;
        }
        QVERIFY2(lowered_ >= steps.size() * 3 / 4, qPrintable(QStringLiteral("%1 of %2 steps lower").arg(lowered_).arg(steps.size())));
        // The last step is the script itself.
        QCOMPARE(steps.back().tir, lowered(script, file));
    }

    void theViewFollowsTheEditorAndLightsTheChange() {
        Session session;
        ScheduleEditor editor(&session);
        PrimitiveStepper stepper(&session);
        stepper.resize(1100, 600);
        stepper.show();
        QVERIFY(QTest::qWaitForWindowExposed(&stepper));
        QSignalSpy ready(&stepper, &PrimitiveStepper::stepsReady);
        const QString path = QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm/06_write_cache.te");
        const QString script = readText(path);
        session.setScript(path, script);
        QVERIFY(ready.wait(120000));
        QCOMPARE(stepper.script(), script);
        const int n = int(scheduleSteps(script).size());
        QCOMPARE(stepper.stepList()->count(), n + 1);
        QCOMPARE(stepper.currentStep(), n); // the whole schedule first
        QCOMPARE(stepper.tirView()->toPlainText(), stepper.steps().back().tir);
        // Each step shows its TIR, with what its primitive changed lit.
        int lit = 0;
        for (int k = 0; k <= n; ++k) {
            stepper.setCurrentStep(k);
            QCOMPARE(stepper.tirView()->toPlainText(), stepper.steps()[k].tir);
            if (k > 0 && stepper.steps()[k].tir != stepper.steps()[k - 1].tir) {
                QVERIFY2(!stepper.changedLines().isEmpty(), qPrintable(stepper.steps()[k].label));
                QCOMPARE(stepper.tirView()->lineColors().keys(), stepper.changedLines());
                ++lit;
            }
        }
        QVERIFY(lit >= n / 2);
        stepper.setCurrentStep(2);
        QVERIFY(stepper.statusText().startsWith(QStringLiteral("Step 2 of %1").arg(n)));
        const QString shots = QStringLiteral(TESSEL_BINARY_DIR "/screenshots/views");
        QDir().mkpath(shots);
        QVERIFY(stepper.grab().save(shots + QStringLiteral("/primitive-stepper.png")));

        // An edit in the editor: the steps follow (one primitive fewer).
        auto* e = editor.editor();
        QString text = e->toPlainText();
        const QString last = scheduleSteps(text).back().text;
        text.replace(last + QLatin1Char('\n'), QString());
        e->setPlainText(text);
        QVERIFY(ready.wait(120000));
        QCOMPARE(stepper.stepList()->count(), n);
        QVERIFY(session.jobs()->waitForIdle(60000));
    }
};

QTEST_MAIN(TestPrimitiveStepper)
#include "tst_primitivestepper.moc"
