/// \file
/// The code view: one function's TE script, TIR, LLVM IR, assembly and C side
/// by side, with syntax colouring; clicking (or hovering) a line lights up the
/// lines it came from and the lines it became in every pane, one colour per
/// TIR line, as Compiler Explorer does for C and assembly.
///
/// It shows Session::artifacts() and follows artifactsChanged. The line
/// tables (LineLinks) are built on a worker each time the artifacts change;
/// a click that arrives before they are ready is applied when they are.
#pragma once

#include <QColor>
#include <QMap>
#include <QPointer>
#include <QWidget>

#include <array>
#include <string>
#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;

namespace tessel::driver {
struct FunctionArtifacts;
}

namespace tessel::views {

class CodeEditor;
class LineLinks;
class Session;

class CodeView : public QWidget {
    Q_OBJECT
public:
    /// The panes, left to right.
    enum Pane { Te, Tir, LlvmIr, Assembly, C };
    Q_ENUM(Pane)
    static constexpr int PaneCount = 5;

    explicit CodeView(Session* session, QWidget* parent = nullptr);
    ~CodeView() override;

    /// The editor of one pane.
    CodeEditor* pane(Pane pane) const;
    /// The checkable toolbar action that shows or hides a pane.
    QAction* paneAction(Pane pane) const;
    void setPaneVisible(Pane pane, bool visible);
    bool isPaneVisible(Pane pane) const;

    /// Whether the LLVM IR pane shows the IR after LLVM's optimisation (the
    /// default) or as generated.
    void setLlvmOptimized(bool optimized);
    bool llvmOptimized() const { return llvmOptimized_; }

    /// What a click does: lights up every line linked to line `line`
    /// (1-based) of `pane`, each TIR line's group in its own colour, and
    /// scrolls the other panes to their first lit line. Line 0 clears.
    void activateLine(Pane pane, int line);
    /// What hovering does: a lighter preview of the links of `line` under the
    /// clicked ones; 0 ends the preview.
    void previewLine(Pane pane, int line);
    /// The lines lit by the last activated line in `pane` (line -> colour).
    QMap<int, QColor> linkedLines(Pane pane) const;

    /// True when the line tables for the shown artifacts are built.
    bool linksReady() const { return links_ != nullptr; }
    /// True while the placeholder is shown instead of the panes.
    bool showsPlaceholder() const;

signals:
    /// The line tables for new artifacts are ready.
    void linksUpdated();
    /// A line was activated (clicked); the main window may show it elsewhere.
    void lineActivated(tessel::views::CodeView::Pane pane, int line);

private:
    void showArtifacts();
    void setLlvmText();
    void refreshColors();
    QMap<int, QColor> colorsFor(int pane, int line, bool light, bool reveal);

    Session* session_;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts_;
    std::shared_ptr<LineLinks> links_;
    bool llvmOptimized_ = true;

    QStackedWidget* stack_;
    QLabel* placeholder_;
    QSplitter* splitter_;
    std::array<QWidget*, PaneCount> frames_{};
    std::array<CodeEditor*, PaneCount> editors_{};
    std::array<QAction*, PaneCount> actions_{};
    std::array<QLabel*, PaneCount> notes_{};
    QComboBox* llvmMode_;

    /// The clicked line (pane -1: none) and what it lit; the hovered line.
    int activePane_ = -1, activeLine_ = 0;
    std::array<QMap<int, QColor>, PaneCount> active_;
    int hoverPane_ = -1, hoverLine_ = 0;
    std::array<QMap<int, QColor>, PaneCount> hover_;
    std::string shownFunction_; ///< the function whose texts are shown (scroll resets on a change)
};

} // namespace tessel::views
