// The schedule editor's script pane offers topi's functions for completion,
// from the module's own table, besides the schedule primitives.
#include "schedule/ScriptEdit.h"
#include "topi/script/ScriptModule.h"

#include <QtTest>

using namespace tessel;

class TestScriptEdit : public QObject {
    Q_OBJECT
private slots:
    void offersTopiFunctions() {
        views::ScriptEdit e;
        const QStringList words = e.completions();
        QVERIFY(words.contains(QStringLiteral("split")));
        QVERIFY(words.contains(QStringLiteral("topi")));
        for (const auto& f : topi::script::scriptFunctions()) {
            const QString leaf = QString::fromStdString(f.name.substr(f.name.rfind('.') + 1));
            QVERIFY2(words.contains(leaf), qPrintable(leaf));
        }
        // Names from a lowering come on top and keep the module's words.
        e.setNames({QStringLiteral("conv_out")});
        QVERIFY(e.completions().contains(QStringLiteral("conv_out")));
        QVERIFY(e.completions().contains(QStringLiteral("schedule_default")));
        QCOMPARE(e.completions().count(QStringLiteral("max")), 1); // te.max and topi.max: one word
    }
};

QTEST_MAIN(TestScriptEdit)
#include "tst_scriptedit.moc"
