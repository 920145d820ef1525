/// \file
/// The text pane every view uses: line numbers, syntax colouring, lines lit
/// in a colour (linked lines across panes), and inline diagnostics.
///
/// Read-only by default (TIR, LLVM IR, assembly); the schedule editor makes it
/// editable. Clicking or hovering a line emits its number so the owner can
/// light up the lines it is linked to in the other panes.
#pragma once

#include <QColor>
#include <QMap>
#include <QPlainTextEdit>
#include <QString>
#include <QVector>

class QSyntaxHighlighter;

namespace tessel::views {

/// Which colouring a pane gets.
enum class Language { Plain, Te, Tir, LlvmIr, Assembly, C, Graph, Diff };

/// Code lines narrower than this many characters are cut: the views' default
/// layouts keep every code pane at least this wide where the window allows.
inline constexpr int kReadableColumns = 60;

/// A diagnostic shown inline: a wavy underline from the column to the line's
/// end, a mark in the gutter, and the message as the tooltip.
struct EditorMark {
    int line = 0;      ///< 1-based
    int column = 0;    ///< 1-based; 0 underlines the whole line
    QString message;
    bool error = true;
};

class CodeEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeEditor(QWidget* parent = nullptr);

    void setLanguage(Language language);
    Language language() const { return language_; }

    /// Replaces the text, keeping the scroll position when the text is similar.
    void setCode(const QString& text);

    /// Lights up whole lines (1-based line -> background colour). Replaces the
    /// previous set.
    void setLineColors(const QMap<int, QColor>& colors);
    const QMap<int, QColor>& lineColors() const { return lineColors_; }
    void clearLineColors() { setLineColors({}); }

    void setMarks(const QVector<EditorMark>& marks);
    const QVector<EditorMark>& marks() const { return marks_; }

    /// Numbers shown in the gutter per block (1-based source lines; 0 leaves a
    /// row unnumbered, e.g. a diff's filler row). Empty: blocks are numbered.
    void setLineNumbers(const QVector<int>& numbers);

    /// Scrolls so that `line` (1-based) is visible, near the top third.
    void revealLine(int line);
    /// 1-based line under the text cursor.
    int cursorLine() const;

    int lineNumberAreaWidth() const;

    /// How many characters ('x' wide: the font is fixed) fit across the text
    /// area as it is laid out now.
    int visibleColumns() const;
    /// The editor width at which `columns` characters fit across its text
    /// area, next to the line numbers (at least four digits wide, so a longer
    /// text does not take columns away) and a vertical scroll bar.
    int widthForColumns(int columns) const;
    void paintLineNumbers(QPaintEvent* event);

signals:
    /// A line was clicked (1-based).
    void lineClicked(int line);
    /// The mouse rests over a line (1-based); 0 when it leaves the text.
    void lineHovered(int line);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    void updateExtraSelections();
    void updateGutterWidth();

    Language language_ = Language::Plain;
    QSyntaxHighlighter* highlighter_ = nullptr;
    QWidget* gutter_;
    QMap<int, QColor> lineColors_;
    QVector<EditorMark> marks_;
    QVector<int> lineNumbers_;
    int hovered_ = 0;
};

/// A colour for link group `i`, distinct for neighbours, readable under text.
QColor linkColor(int i);

} // namespace tessel::views
