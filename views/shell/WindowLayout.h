/// \file
/// How the main window's views are arranged as the user works: the maximise
/// key lets one view fill the window (a view of panes lets its focused pane
/// fill the view, ViewRecord::maximise) and brings the layout back; a view
/// whose record asks for room when chosen (ViewPlacement::roomWidthShare,
/// roomHeightShare) grows when its dock is shown or its tab brought to the
/// front, gives the room back when another tab of its group is chosen, and
/// fills the window where the window is too small to give that room beside
/// the other views.
///
/// Only a user's choice counts: layouts the window restores itself (a saved
/// layout, Reset Layout, a project, the screenshots) go through restore() or
/// under a Quiet, and nothing counts before the window's first paint.
#pragma once

#include "shell/ViewRegistry.h"

#include <QByteArray>
#include <QMap>
#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace tessel::views {

class WindowLayout : public QObject {
    Q_OBJECT
public:
    /// Arranges `window`'s docks (`docks`, by record id) and views (`views`,
    /// by record id) as `registry` describes them; all three outlive this.
    WindowLayout(QMainWindow* window, const ViewRegistry* registry, const QMap<QString, QWidget*>* views,
                 const QMap<QString, QDockWidget*>* docks);

    /// Follows the visibility of view `id`'s dock (called once per dock).
    void watch(const QString& id, QDockWidget* dock);
    /// From now on, docks shown or brought to the front are the user's
    /// choices (the window calls it at its first paint).
    void followChoices() { following_ = true; }

    /// The maximise key: the view with the keyboard focus (the central view
    /// when the focus is in none) fills the window.
    void maximiseFocused();
    /// View `id` fills the window, every other dock hidden (with the central
    /// view when `id` is a dock); `focus` (may be null) is passed to the
    /// record's maximise hook. `before` is the layout restoreMaximised()
    /// brings back (default: the current one).
    void maximise(const QString& id, QWidget* focus = nullptr, const QByteArray& before = {});
    /// Brings back the layout from before maximise(); nothing when none is.
    void restoreMaximised();
    /// The maximised view's id, or empty.
    QString maximised() const { return maximised_; }

    /// The layout rule, for view `id` chosen (its tab brought to the front,
    /// its dock shown): its dock grows to the room its record asks for and to
    /// the size its key widget is useful at (ViewRecord::useful); where the
    /// window cannot give that beside the other views, the view fills the
    /// window (WhenCramped::FillWindow), and the maximise key brings back the
    /// layout from before it was chosen, the tab that was in front included.
    void giveRoom(const QString& id);
    /// View `id`'s useful size (its record's `useful`; no widget when it has none).
    UsefulSize useful(const QString& id) const;
    /// Whether view `id`'s key widget has its useful size now; `why` says what it lacks.
    bool isUseful(const QString& id, QString* why = nullptr) const;

    /// Whether the central view is hidden because it had nothing to show
    /// (UsefulSize::idle) and a side dock chosen took its room; restore()
    /// shows it again.
    bool centralGivenAway() const { return centralHidden_; }

    /// Restores a layout made by saveState (a maximised view is restored
    /// first, room given is forgotten, an idle central view hidden for a
    /// dock's room is shown); false when `state` is not one.
    bool restore(const QByteArray& state);
    /// The window's layout to save: with a view maximised, or the idle
    /// central view's room given to a dock, the one from before.
    QByteArray state() const;
    /// While one exists, dock changes are the window's own, not choices.
    class Quiet {
    public:
        explicit Quiet(WindowLayout* layout) : layout_(layout), was_(layout->busy_) { layout->busy_ = true; }
        ~Quiet() { layout_->busy_ = was_; }
        Quiet(const Quiet&) = delete;
        Quiet& operator=(const Quiet&) = delete;

    private:
        WindowLayout* layout_;
        bool was_;
    };

signals:
    /// A view was maximised (`id`) or the layout brought back (empty).
    void maximisedChanged(const QString& id);

private:
    void onVisibility(const QString& id, bool visible);
    /// giveRoom's rounds: `attempt` 0 is the choice, later ones grow on
    /// while the dock grows and the key widget still lacks room.
    void giveRoom(const QString& id, int attempt);
    void returnRoom(const QString& id);
    /// The extent along `o` of the tab bar of `dock`'s tab group (0: not tabbed).
    int tabBarExtent(const QDockWidget* dock, Qt::Orientation o) const;
    /// A side dock chosen while the central view has nothing to show: hides
    /// the central view so the dock's area takes its room; true when it did.
    bool takeIdleCentral(QDockWidget* dock);
    /// The central view's record id (empty: none).
    QString centralId() const;
    /// Resizes `dock` along `o` towards `size`: as far as the docks in line
    /// with it (and the central view beside a side dock) keep their useful
    /// size; returns the size asked.
    int resizeBeside(QDockWidget* dock, int size, Qt::Orientation o);
    /// How much of `outer` (view `id`'s dock, or the central view) along `o`
    /// its view can give up and keep its useful size.
    int surplus(const QString& id, const QWidget* outer, Qt::Orientation o) const;

    QMainWindow* window_;
    const ViewRegistry* registry_;
    const QMap<QString, QWidget*>* views_;
    const QMap<QString, QDockWidget*>* docks_;
    bool following_ = false;
    /// The central view hidden for lack of anything to show, and the layout
    /// from before (what state() saves meanwhile).
    bool centralHidden_ = false;
    QByteArray beforeCentralHidden_;
    /// Set while the window itself rearranges docks.
    bool busy_ = false;
    QString maximised_;
    QByteArray beforeMaximise_;
    /// The tab to bring to the front when a view that filled the window for
    /// want of room gives it back; the dock last hidden (behind a tab).
    QString returnTo_, hiddenLast_;
    /// The layout, and the tab in front, before the choice giveRoom works on.
    QByteArray choiceBefore_;
    QString choicePrevious_;
    /// The view whose rounds of giveRoom are under way (empty: none), and its
    /// dock's and key widget's sizes when the last round began, and the dock's
    /// size that round asked for.
    QString choosing_;
    struct Round {
        QSize dock, widget, asked;
    };
    Round round_;
    /// The view that was given room when chosen, its dock's size before, and
    /// the size it got (a user's resize since keeps the new size); the
    /// layout before (its tab in front) and the docks on screen then outside
    /// its tab group, which bring all of it back where nothing else changed.
    struct Room {
        QString id;
        QSize before, given;
        QByteArray layout;
        QStringList around;
    };
    Room room_;
    /// The docks on screen outside `dock`'s tab group, by id, sorted.
    QStringList onScreenAround(const QDockWidget* dock) const;
};

} // namespace tessel::views
