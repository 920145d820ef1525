#include "common/CodeEditor.h"

#include "common/Highlighter.h"

#include <QFontDatabase>
#include <cmath>
#include <QHelpEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QToolTip>
#include <QtMath>

namespace tessel::views {

namespace {

class Gutter : public QWidget {
public:
    explicit Gutter(CodeEditor* editor) : QWidget(editor), editor_(editor) {}
    QSize sizeHint() const override { return {editor_->lineNumberAreaWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { editor_->paintLineNumbers(event); }

private:
    CodeEditor* editor_;
};

} // namespace

QColor linkColor(int i) {
    // Pastel hues spaced by the golden angle: neighbours differ, text stays readable.
    int hue = int(std::fmod(i * 137.508, 360.0));
    return QColor::fromHsl(hue, 170, 215);
}

CodeEditor::CodeEditor(QWidget* parent) : QPlainTextEdit(parent), gutter_(new Gutter(this)) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setReadOnly(true);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setTabStopDistance(4 * fontMetrics().horizontalAdvance(QLatin1Char(' ')));
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateGutterWidth(); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy)
            gutter_->scroll(0, dy);
        else
            gutter_->update(0, rect.y(), gutter_->width(), rect.height());
    });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] { updateExtraSelections(); });
    updateGutterWidth();
}

void CodeEditor::setLanguage(Language language) {
    language_ = language;
    delete highlighter_;
    highlighter_ = makeHighlighter(language, document());
}

void CodeEditor::setCode(const QString& text) {
    if (text == toPlainText()) return;
    int v = verticalScrollBar()->value();
    setPlainText(text);
    verticalScrollBar()->setValue(v);
}

void CodeEditor::setLineColors(const QMap<int, QColor>& colors) {
    lineColors_ = colors;
    updateExtraSelections();
    gutter_->update();
}

void CodeEditor::setMarks(const QVector<EditorMark>& marks) {
    marks_ = marks;
    updateExtraSelections();
    gutter_->update();
}

void CodeEditor::setLineNumbers(const QVector<int>& numbers) {
    lineNumbers_ = numbers;
    updateGutterWidth();
    gutter_->update();
}

void CodeEditor::revealLine(int line) {
    QTextBlock b = document()->findBlockByNumber(line - 1);
    if (!b.isValid()) return;
    int first = firstVisibleBlock().blockNumber();
    int visible = viewport()->height() / qMax(1, fontMetrics().height());
    if (line - 1 >= first && line - 1 < first + visible) return;
    verticalScrollBar()->setValue(qMax(0, line - 1 - visible / 3));
}

int CodeEditor::cursorLine() const { return textCursor().blockNumber() + 1; }

int CodeEditor::lineNumberAreaWidth() const {
    int digits = QString::number(qMax(1, blockCount())).size();
    return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * qMax(3, digits);
}

int CodeEditor::visibleColumns() const {
    const int margins = 2 * qCeil(document()->documentMargin());
    return (viewport()->width() - margins) / qMax(1, fontMetrics().horizontalAdvance(QLatin1Char('x')));
}

int CodeEditor::widthForColumns(int columns) const {
    const int digits = qMax(4, int(QString::number(qMax(1, blockCount())).size()));
    const int gutter = qMax(lineNumberAreaWidth(), 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits);
    const int margins = 2 * qCeil(document()->documentMargin());
    const int scrollBar = verticalScrollBar()->sizeHint().width();
    return 2 * frameWidth() + gutter + scrollBar + margins +
           columns * fontMetrics().horizontalAdvance(QLatin1Char('x'));
}

void CodeEditor::updateGutterWidth() { setViewportMargins(lineNumberAreaWidth(), 0, 0, 0); }

void CodeEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    QRect cr = contentsRect();
    gutter_->setGeometry(QRect(cr.left(), cr.top(), lineNumberAreaWidth(), cr.height()));
}

void CodeEditor::paintLineNumbers(QPaintEvent* event) {
    QPainter p(gutter_);
    p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    QHash<int, bool> marked;
    for (const auto& m : marks_) marked[m.line] = marked.value(m.line) || m.error;
    while (block.isValid() && top <= event->rect().bottom()) {
        int line = block.blockNumber() + 1;
        if (block.isVisible() && bottom >= event->rect().top()) {
            if (auto c = lineColors_.find(line); c != lineColors_.end())
                p.fillRect(0, top, gutter_->width(), bottom - top, c->darker(115));
            if (marked.contains(line)) {
                p.setBrush(marked[line] ? QColor(220, 50, 47) : QColor(203, 145, 22));
                p.setPen(Qt::NoPen);
                int d = fontMetrics().height() / 2;
                p.drawEllipse(3, top + (bottom - top - d) / 2, d, d);
            }
            p.setPen(palette().color(QPalette::PlaceholderText));
            int shown = lineNumbers_.isEmpty() ? line : lineNumbers_.value(line - 1);
            if (shown > 0)
                p.drawText(0, top, gutter_->width() - 5, fontMetrics().height(), Qt::AlignRight,
                           QString::number(shown));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
    }
}

void CodeEditor::updateExtraSelections() {
    QList<QTextEdit::ExtraSelection> sels;
    // One selection per run of consecutive lines with the same colour: Qt lays
    // out every block a selection starts or ends in, so a selection per line
    // made a thousand lit assembly lines take a third of a second.
    for (auto it = lineColors_.begin(); it != lineColors_.end();) {
        const int first = it.key();
        const QColor color = it.value();
        int last = first;
        for (++it; it != lineColors_.end() && it.key() == last + 1 && it.value() == color; ++it)
            last = it.key();
        QTextBlock b = document()->findBlockByNumber(first - 1);
        if (!b.isValid()) continue;
        QTextBlock e = document()->findBlockByNumber(last - 1);
        if (!e.isValid()) e = document()->lastBlock();
        QTextEdit::ExtraSelection s;
        s.format.setBackground(color);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(b);
        if (e != b) {
            // Past the last line's end (its newline, when it has one): the full-width
            // flag paints to the edge only the lines the selection runs off.
            s.cursor.setPosition(qMin(e.position() + e.length(), document()->characterCount() - 1),
                                 QTextCursor::KeepAnchor);
        }
        sels << s;
    }
    for (const auto& m : marks_) {
        QTextBlock b = document()->findBlockByNumber(m.line - 1);
        if (!b.isValid()) continue;
        QTextEdit::ExtraSelection s;
        s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        s.format.setUnderlineColor(m.error ? QColor(220, 50, 47) : QColor(203, 145, 22));
        s.format.setToolTip(m.message);
        QTextCursor c(b);
        int col = qBound(0, m.column - 1, qMax(0, b.length() - 1));
        c.setPosition(b.position() + col);
        c.setPosition(b.position() + qMax(col + 1, b.length() - 1), QTextCursor::KeepAnchor);
        s.cursor = c;
        sels << s;
    }
    setExtraSelections(sels);
}

void CodeEditor::mouseReleaseEvent(QMouseEvent* event) {
    QPlainTextEdit::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton && !textCursor().hasSelection())
        emit lineClicked(cursorForPosition(event->pos()).blockNumber() + 1);
}

void CodeEditor::mouseMoveEvent(QMouseEvent* event) {
    QPlainTextEdit::mouseMoveEvent(event);
    int line = cursorForPosition(event->pos()).blockNumber() + 1;
    if (line != hovered_) {
        hovered_ = line;
        emit lineHovered(line);
    }
}

void CodeEditor::leaveEvent(QEvent* event) {
    QPlainTextEdit::leaveEvent(event);
    if (hovered_) {
        hovered_ = 0;
        emit lineHovered(0);
    }
}

bool CodeEditor::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        int line = cursorForPosition(viewport()->mapFromGlobal(help->globalPos())).blockNumber() + 1;
        QStringList msgs;
        for (const auto& m : marks_)
            if (m.line == line) msgs << m.message;
        if (!msgs.isEmpty()) {
            QToolTip::showText(help->globalPos(), msgs.join(QLatin1Char('\n')), this);
            return true;
        }
        QToolTip::hideText();
    }
    return QPlainTextEdit::event(event);
}

} // namespace tessel::views
