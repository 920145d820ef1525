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
    void runOfLinesIsOneSelectionPaintedFullWidth();
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

void TestCodeEditor::runOfLinesIsOneSelectionPaintedFullWidth() {
    CodeEditor e;
    QStringList lines;
    for (int i = 1; i <= 12; ++i) lines << QStringLiteral("line %1").arg(i);
    e.setCode(lines.join(QLatin1Char('\n')));
    const QColor c(255, 0, 0);
    // Lines 3-6 one colour (one run), line 7 another, line 9 the first again.
    e.setLineColors({{3, c}, {4, c}, {5, c}, {6, c}, {7, linkColor(1)}, {9, c}});
    QCOMPARE(e.extraSelections().size(), 3);
    QCOMPARE(e.extraSelections()[0].cursor.selectionStart(), e.document()->findBlockByNumber(2).position());
    // It runs off line 6 (to the start of line 7), so that line 6 is painted full width too.
    QCOMPARE(e.extraSelections()[0].cursor.selectionEnd(), e.document()->findBlockByNumber(6).position());
    e.resize(400, 300);
    e.show();
    QVERIFY(QTest::qWaitForWindowExposed(&e));
    const QImage img = e.viewport()->grab().toImage();
    auto colourAt = [&](int line, int x) {
        QRect r = e.cursorRect(QTextCursor(e.document()->findBlockByNumber(line - 1)));
        return img.pixelColor(x, r.center().y()).rgb();
    };
    const int right = img.width() - 3; // far right of the text: only the background
    for (int line = 3; line <= 6; ++line) QCOMPARE(colourAt(line, right), c.rgb());
    QCOMPARE(colourAt(9, right), c.rgb());
    QVERIFY(colourAt(2, right) != c.rgb());
    QVERIFY(colourAt(8, right) != c.rgb());
    QCOMPARE(colourAt(7, right), linkColor(1).rgb());
}

QTEST_MAIN(TestCodeEditor)
#include "tst_codeeditor.moc"
