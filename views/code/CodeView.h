/// \file
/// The code view: one function's TE script, TIR, LLVM IR, assembly and C side
/// by side, with syntax colouring; clicking (or hovering) a line lights up the
/// lines it came from and the lines it became in every pane, one colour per
/// TIR line, as Compiler Explorer does for C and assembly.
///
/// The panes are arranged for the view's size: as many groups side by side as
/// fit with every pane at least kMinimumColumns characters wide (stacked two
/// high when only one fits across and the height allows), the shown panes
/// split over the groups in order, and in each group the panes beyond the
/// first are tabs, one click away. A narrow view shows fewer panes at once, a
/// wide one more; any pane can be maximised to fill the view.
///
/// For a GPU target (chosen in the toolbar's TargetSelector) the texts are the
/// kernels': TIR with `T.thread_binding` loops, their LLVM IR, PTX in the
/// assembly pane (linked by its .loc lines like a CPU's assembly) and CUDA C in
/// the C pane. The PTX pane can show SASS instead, where the CUDA toolkit's
/// ptxas and nvdisasm exist (SassDisassembly.h; made on a worker, not linked).
///
/// It shows Session::artifacts() and follows artifactsChanged. The line
/// tables (LineLinks) are built on a worker each time the artifacts change;
/// a click that arrives before they are ready is applied when they are.
#pragma once

#include "common/CodeEditor.h"

#include <QColor>
#include <QMap>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <array>
#include <string>
#include <memory>
#include <utility>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QRegularExpression;
class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace tessel::driver {
struct FunctionArtifacts;
}

namespace tessel::views {

class LineLinks;
class Session;

class CodeView : public QWidget {
    Q_OBJECT
public:
    /// The panes, left to right.
    enum Pane { Te, Tir, LlvmIr, Assembly, C };
    Q_ENUM(Pane)
    static constexpr int PaneCount = 5;
    /// A pane is never made narrower than this many characters by the
    /// arrangement (the view as a whole may be narrower than one pane).
    static constexpr int kMinimumColumns = kReadableColumns;
    /// Panes are stacked only when each gets at least this many lines.
    static constexpr int kMinimumLines = 12;

    explicit CodeView(Session* session, QWidget* parent = nullptr);
    ~CodeView() override;

    Session* session() const { return session_; }

    /// The editor of one pane.
    CodeEditor* pane(Pane pane) const;
    /// The checkable toolbar action that shows or hides a pane.
    QAction* paneAction(Pane pane) const;
    void setPaneVisible(Pane pane, bool visible);
    bool isPaneVisible(Pane pane) const;

    /// The arrangement: how many groups of panes there are, side by side
    /// (Horizontal) or stacked (Vertical), and which panes each holds in order.
    int groupCount() const { return int(groups_.size()); }
    Qt::Orientation groupOrientation() const;
    QList<Pane> groupPanes(int group) const;
    /// The least width at which every shown pane keeps kMinimumColumns: one
    /// group across, the others stacked or tabbed (the layout rule's measure
    /// of what the view can give up).
    int leastWidth() const;
    /// Whether `pane` is shown and the tab in front of its group.
    bool isPaneInFront(Pane pane) const;
    /// Brings `pane` to the front of its group (showing it first when hidden).
    void raisePane(Pane pane);

    /// The pane with the keyboard focus, else the one that had it last (TIR
    /// at first): the pane the maximise key acts on.
    Pane currentPane() const;
    /// The pane `widget` is in, or -1.
    int paneOf(const QWidget* widget) const;

    /// `pane` fills the view, with the other shown panes as tabs beside it,
    /// until restorePanes() brings the arrangement for the view's size back.
    void maximisePane(Pane pane);
    void restorePanes();
    /// The maximised pane, or -1.
    int maximisedPane() const { return maximised_; }

    /// Whether the shown texts are a GPU's (PTX, CUDA C).
    bool showsGpuCode() const { return gpu_; }
    /// The assembly pane's title as shown: "Assembly", or "PTX" for a GPU.
    QString paneName(Pane pane) const;
    /// For a GPU: the assembly pane shows SASS (ptxas + nvdisasm) instead of
    /// the PTX. The SASS comes from a job (sassReady) or is a message saying
    /// which CUDA tool is missing.
    void setSassShown(bool shown);
    bool sassShown() const { return sassShown_; }
    /// Where the CUDA tools are looked for (default: cudaToolFolders()).
    void setCudaToolFolders(const QStringList& folders);

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
    /// The SASS pane's text is there (the disassembly or why there is none).
    void sassReady();
    /// A line was activated (clicked); the main window may show it elsewhere.
    void lineActivated(tessel::views::CodeView::Pane pane, int line);
    /// The panes were arranged anew (another group count, pane shown or
    /// hidden, maximised or restored).
    void arrangementChanged();

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void arrangePanes();
    void shareEqually();
    /// How many groups fit in the view's size, and which way.
    std::pair<int, Qt::Orientation> groupsThatFit(int panes) const;
    void showArtifacts();
    void setLlvmText();
    /// Scrolls `pane` to the first line `re` matches (none: as it is).
    void revealFirst(Pane pane, const QRegularExpression& re);
    /// Scrolls the assembly to the shown function's label.
    void revealFunctionInAssembly();
    /// The PTX or, with sassShown_, the SASS (started on a worker when not made yet).
    void setAssemblyText();
    /// Pane names for the CPU or the GPU, and which title bars show.
    void updatePaneNames();
    void updateTitleBars();
    void refreshColors();
    QMap<int, QColor> colorsFor(int pane, int line, bool light, bool reveal);

    Session* session_;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts_;
    std::shared_ptr<LineLinks> links_;
    bool llvmOptimized_ = true;

    QStackedWidget* stack_;
    QLabel* placeholder_;
    QSplitter* splitter_;
    std::vector<QTabWidget*> groups_;
    std::vector<std::vector<int>> arrangement_; ///< the panes of each group
    int tabBarHeight_ = 0;
    int maximised_ = -1;
    bool userSized_ = false; ///< a splitter handle was dragged since the last arrangement
    int currentPane_ = Tir;
    std::array<QWidget*, PaneCount> frames_{};
    std::array<QWidget*, PaneCount> titles_{};
    std::array<QLabel*, PaneCount> names_{};
    std::array<CodeEditor*, PaneCount> editors_{};
    std::array<QAction*, PaneCount> actions_{};
    std::array<QLabel*, PaneCount> notes_{};
    QComboBox* llvmMode_;
    QComboBox* asmMode_; ///< PTX or SASS (a GPU's texts only)
    bool gpu_ = false;
    bool sassShown_ = false;
    QString sass_;        ///< the SASS of the shown PTX, once made; empty: not yet
    QStringList toolFolders_;

    /// The clicked line (pane -1: none) and what it lit; the hovered line.
    int activePane_ = -1, activeLine_ = 0;
    std::array<QMap<int, QColor>, PaneCount> active_;
    int hoverPane_ = -1, hoverLine_ = 0;
    std::array<QMap<int, QColor>, PaneCount> hover_;
    std::string shownFunction_; ///< the function whose texts are shown (scroll resets on a change)
    /// The assembly pane shows that its text is being made; where it was
    /// scrolled to before (-1: at the shown function's label when it comes).
    bool assemblyWaits_ = false;
    int assemblyScroll_ = 0;
};

} // namespace tessel::views
