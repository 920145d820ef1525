/// \file
/// The IDE's views as records: one ViewRecord per view says what the main
/// window needs to know about it — the id its dock is saved under, its
/// translatable title, where it sits in the default layout and how large, the
/// screenshot it gives, and a factory that builds it over the Session. The main
/// window, its View menu, the default layout, retranslation, maximising and
/// the screenshots iterate the records; none of them names a view.
///
/// Adding a view is one record in builtinViews() (BuiltinViews.cpp) plus the
/// view's own files. Records are filled by that explicit function, not by
/// static constructors (a static library would drop them).
#pragma once

#include <QSize>
#include <QString>
#include <Qt>

#include <functional>
#include <vector>

class QWidget;

namespace tessel::views {

class Session;

/// The least room a view is useful in — the layout rule's measure
/// (WindowLayout): the view's key widget (the lines of a script, the rows of
/// a table, a chart's plot area) and the size that widget needs, from the
/// view's own fonts.
struct UsefulSize {
    QWidget* widget = nullptr; ///< the key widget, inside the view; null: any size will do
    QSize size;                ///< what the key widget needs, in pixels
    QString what;              ///< in words, for messages and tests ("12 lines of 60 columns of the script")
    /// The least width / height of the whole view that still gives the key
    /// widget `size`, for a view that rearranges its panes to the room (the
    /// code view stacks them); 0: the key widget keeps its share of the view.
    QSize least{0, 0};
    /// More room the view can use when chosen (a graph's whole drawing, of a
    /// model whose graph is all there is to see), as far as the views beside
    /// it keep their useful size; 0: its record's room shares alone.
    QSize room{0, 0};
    /// The view has nothing to show now (the code view of a model that cannot
    /// compile): its room may go to the others. A side dock chosen beside an
    /// idle central view takes the central view's room (WindowLayout hides it
    /// until a layout is restored).
    bool idle = false;
};

/// What the layout does when a chosen view's dock cannot give it its useful
/// size (or its room share) beside the other views.
enum class WhenCramped {
    FillWindow, ///< the view fills the window as if maximised; the key brings the layout from before it was chosen back
    Stay,       ///< it stays as large as the dock can make it (a small panel: messages, properties)
};

/// Where a view goes in the default layout (a saved layout overrides it).
struct ViewPlacement {
    /// The window's central widget (one view), or a dock.
    bool central = false;
    Qt::DockWidgetArea area = Qt::LeftDockWidgetArea;
    /// Split below the dock of this view id (same area), or tabbed with it.
    QString below;
    QString tabWith;
    /// The visible tab of its tab group.
    bool raised = false;
    /// Default size as a share of the window's width / height (0: left to the layout).
    double widthShare = 0;
    double heightShare = 0;
    /// Room when chosen: when the view is chosen (Help menu, View menu, its
    /// tab brought to the front), its dock grows to at least this share of the
    /// window's width / height (0: as it is). The sizes from before come back
    /// when another tab of its group is chosen, unless the user resized it.
    /// Where the window is too small to give that room beside the other
    /// views, the view fills the window (the maximise key brings them back).
    double roomWidthShare = 0;
    double roomHeightShare = 0;
    /// When its useful size (ViewRecord::useful) or its room does not fit beside the others.
    WhenCramped cramped = WhenCramped::FillWindow;
};

/// Finds another view by id once all are built (for views that follow another).
using ViewLookup = std::function<QWidget*(const QString& id)>;

struct ViewRecord {
    /// The dock's object name, under which saved layouts remember it ("GraphDock").
    QString id;
    /// Untranslated title, marked with QT_TRANSLATE_NOOP in the context
    /// kViewTitleContext; translated whenever the window's language changes.
    const char* title = nullptr;
    ViewPlacement placement;
    /// The file name (without .png) --screenshots saves the view as; empty: none.
    QString screenshot;
    /// Builds the view over the session (the window reparents it into its dock).
    std::function<QWidget*(Session*, QWidget* parent)> create;
    /// Called after every view was built (optional): e.g. the properties follow the graph.
    std::function<void(QWidget* self, const ViewLookup& find)> link;
    /// Optional, for a view made of panes: the maximise key was pressed with
    /// the focus on `focus` (inside the view, or null) and the view fills the
    /// window; `maximise` lets that pane fill the view, `restore` undoes it.
    std::function<void(QWidget* self, QWidget* focus)> maximise;
    std::function<void(QWidget* self)> restore;
    /// The least room the view is useful in (the layout rule): chosen, its
    /// dock grows until its key widget has that size, or, where the window
    /// cannot give it beside the others, it fills the window
    /// (ViewPlacement::cramped). Optional: without it any size will do.
    std::function<UsefulSize(QWidget* self)> useful;
    /// Optional: lets the view ask for room itself, as if it were chosen
    /// (WindowLayout::giveRoom): the window passes `ask`, which the view calls
    /// (the graph does when it drew a model that cannot compile: its drawing
    /// is all there is to see).
    std::function<void(QWidget* self, std::function<void()> ask)> asksForRoom;
};

/// The translation context of the view titles.
inline constexpr const char* kViewTitleContext = "tessel::views::MainWindow";

/// An ordered set of view records: the order is the View menu's.
class ViewRegistry {
public:
    /// Adds `record`; an id that is already registered replaces the earlier record.
    void add(ViewRecord record);
    const std::vector<ViewRecord>& records() const { return records_; }
    /// The record with `id`, or null.
    const ViewRecord* find(const QString& id) const;
    /// The record's title in the current language.
    static QString title(const ViewRecord& record);

private:
    std::vector<ViewRecord> records_;
};

/// The IDE's views: graph, node properties, stages, schedule editor, GEMM
/// lesson, messages (docks) and the code view (central).
ViewRegistry builtinViews();

} // namespace tessel::views
