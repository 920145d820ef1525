// CodeEditor: linked-line colours, inline marks and the click/hover signals.

#include "common/CodeEditor.h"

#include <QTextBlock>
#include <QtTest>

using namespace tessel::views;

class TestCodeEditor : public QObject {
    Q_OBJECT
private slots:
    void clickEmitsLine();
    void colorsAndMarksBecomeSelections();
};

void TestCodeEditor::clickEmitsLine() {
    CodeEditor e;
    e.setLanguage(Language::Tir);
    QStringList lines;
    for (int i = 1; i <= 50; ++i) lines << QStringLiteral("for (i%1, 0, 16) {").arg(i);
    e.setCode(lines.join(QLatin1Char('\n')));
    e.resize(500, 400);
    e.show();
    QVERIFY(QTest::qWaitForWindowExposed(&e));
    QSignalSpy clicked(&e, &CodeEditor::lineClicked);
    QTextBlock b = e.document()->findBlockByNumber(4);
    QRect r = e.cursorRect(QTextCursor(b));
    QTest::mouseClick(e.viewport(), Qt::LeftButton, {}, r.center());
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.first().first().toInt(), 5);
    e.revealLine(45);
    QVERIFY(e.cursorForPosition(QPoint(5, 5)).blockNumber() > 10);
}

void TestCodeEditor::colorsAndMarksBecomeSelections() {
    CodeEditor e;
    e.setCode(QStringLiteral("a\nb\nc\nd"));
    e.setLineColors({{2, linkColor(0)}, {4, linkColor(1)}});
    QCOMPARE(e.extraSelections().size(), 2);
    QCOMPARE(e.extraSelections()[0].cursor.blockNumber(), 1);
    QVERIFY(linkColor(0) != linkColor(1));
    e.setMarks({{3, 1, QStringLiteral("unknown primitive 'splt'"), true}});
    QCOMPARE(e.extraSelections().size(), 3);
    auto last = e.extraSelections().last();
    QCOMPARE(last.cursor.blockNumber(), 2);
    QCOMPARE(last.format.underlineStyle(), QTextCharFormat::WaveUnderline);
    e.clearLineColors();
    QCOMPARE(e.extraSelections().size(), 1);
}

QTEST_MAIN(TestCodeEditor)
#include "tst_codeeditor.moc"
