#include "shell/WindowLayout.h"

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QTabBar>
#include <QTimer>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>

namespace tessel::views {

namespace {

/// Whether a dock is on screen: shown and not behind another tab of its group
/// (QMainWindow keeps those shown, moved out of sight).
bool onScreen(const QDockWidget* d) { return d->isVisible() && !d->visibleRegion().isEmpty(); }

} // namespace

WindowLayout::WindowLayout(QMainWindow* window, const ViewRegistry* registry, const QMap<QString, QWidget*>* views,
                           const QMap<QString, QDockWidget*>* docks)
    : QObject(window), window_(window), registry_(registry), views_(views), docks_(docks) {}

void WindowLayout::watch(const QString& id, QDockWidget* dock) {
    connect(dock, &QDockWidget::visibilityChanged, this, [this, id](bool visible) { onVisibility(id, visible); });
}

bool WindowLayout::restore(const QByteArray& state) {
    restoreMaximised();
    room_ = {};
    const Quiet quiet(this);
    if (centralHidden_) {
        centralHidden_ = false;
        beforeCentralHidden_.clear();
        if (QWidget* central = window_->centralWidget()) central->show();
    }
    return window_->restoreState(state);
}

QByteArray WindowLayout::state() const {
    if (!maximised_.isEmpty()) return beforeMaximise_;
    return centralHidden_ ? beforeCentralHidden_ : window_->saveState();
}

QString WindowLayout::centralId() const {
    for (const ViewRecord& r : registry_->records())
        if (r.placement.central) return r.id;
    return {};
}

bool WindowLayout::takeIdleCentral(QDockWidget* dock) {
    QWidget* central = window_->centralWidget();
    const Qt::DockWidgetArea area = window_->dockWidgetArea(dock);
    if (!central || !central->isVisible() || (area != Qt::LeftDockWidgetArea && area != Qt::RightDockWidgetArea) ||
        !useful(centralId()).idle)
        return false;
    // (Hidden before, and shown since: a language change made a new central view.)
    if (!centralHidden_) beforeCentralHidden_ = window_->saveState();
    centralHidden_ = true;
    const Quiet quiet(this);
    // Without a visible central widget the side areas share its width.
    central->hide();
    QCoreApplication::sendPostedEvents(window_, QEvent::LayoutRequest);
    return true;
}

// ---------------------------------------------------------------- maximising

void WindowLayout::maximiseFocused() {
    if (!maximised_.isEmpty()) return;
    // The view the focus is in: a view's widget, else a dock (its title bar).
    QWidget* focus = QApplication::focusWidget();
    QString id;
    for (QWidget* w = focus; w && id.isEmpty(); w = w->parentWidget()) {
        for (auto it = views_->cbegin(); it != views_->cend() && id.isEmpty(); ++it)
            if (it.value() == w) id = it.key();
        if (auto* d = qobject_cast<QDockWidget*>(w); d && id.isEmpty()) id = docks_->key(d);
    }
    if (id.isEmpty())
        for (const ViewRecord& r : registry_->records())
            if (r.placement.central && id.isEmpty()) id = r.id;
    maximise(id, focus);
}

void WindowLayout::maximise(const QString& id, QWidget* focus, const QByteArray& before) {
    const ViewRecord* record = registry_->find(id);
    if (!record || !maximised_.isEmpty()) return;
    beforeMaximise_ = before.isEmpty() ? window_->saveState() : before;
    maximised_ = id;
    room_ = {};
    if (before.isEmpty()) returnTo_.clear();
    {
        const Quiet quiet(this);
        QDockWidget* keep = docks_->value(id);
        if (keep) {
            keep->setFloating(false);
            keep->show();
        }
        for (QDockWidget* d : *docks_)
            if (d != keep) d->hide();
        // Without a visible central widget the remaining dock takes the whole window.
        if (QWidget* central = window_->centralWidget()) central->setVisible(!keep && !centralHidden_);
        if (record->maximise) record->maximise(views_->value(id), focus);
    }
    if (focus) focus->setFocus();
    emit maximisedChanged(id);
}

void WindowLayout::restoreMaximised() {
    if (maximised_.isEmpty()) return;
    QWidget* focus = QApplication::focusWidget();
    const ViewRecord* record = registry_->find(maximised_);
    {
        const Quiet quiet(this);
        if (QWidget* central = window_->centralWidget()) central->setVisible(!centralHidden_);
        if (record && record->restore) record->restore(views_->value(maximised_));
        window_->restoreState(beforeMaximise_);
        // A view that filled the window because its dock had no room for it:
        // the layout from before it was chosen, with the tab that was in front.
        if (QDockWidget* back = docks_->value(returnTo_)) back->raise();
    }
    maximised_.clear();
    beforeMaximise_.clear();
    returnTo_.clear();
    if (focus && focus->isVisible()) focus->setFocus();
    emit maximisedChanged(QString());
}

// ---------------------------------------------------------------- choices and room

void WindowLayout::onVisibility(const QString& id, bool visible) {
    // Only a user's choice counts: not the window's first show, a layout
    // being restored, or a maximised view hiding the others.
    if (busy_ || !following_) return;
    if (!visible) hiddenLast_ = id; // the tab that was in front before a choice
    if (!maximised_.isEmpty()) {
        // With a view maximised: closing it, or showing another dock (View
        // menu), brings the layout back, with that choice made in it.
        QDockWidget* d = docks_->value(id);
        if (!d || (id == maximised_ ? visible || !d->isHidden() : !visible)) return;
        QTimer::singleShot(0, this, [this, id, visible] {
            if (maximised_.isEmpty()) return;
            restoreMaximised();
            if (QDockWidget* d = docks_->value(id)) {
                d->setVisible(visible);
                if (visible) d->raise();
            }
        });
        return;
    }
    if (visible)
        QTimer::singleShot(0, this, [this, id] { giveRoom(id); });
    else if (room_.id == id)
        QTimer::singleShot(0, this, [this, id] { returnRoom(id); });
}

UsefulSize WindowLayout::useful(const QString& id) const {
    const ViewRecord* record = registry_->find(id);
    QWidget* view = views_->value(id);
    if (!record || !record->useful || !view) return {};
    return record->useful(view);
}

bool WindowLayout::isUseful(const QString& id, QString* why) const {
    const UsefulSize u = useful(id);
    if (!u.widget) return true;
    // A pixel or two of the layout's rounding.
    const bool ok = u.widget->width() + 2 >= u.size.width() && u.widget->height() + 2 >= u.size.height();
    if (!ok && why)
        *why = QStringLiteral("%1: %2 x %3 px, needs %4 x %5 (%6)")
                   .arg(id)
                   .arg(u.widget->width())
                   .arg(u.widget->height())
                   .arg(u.size.width())
                   .arg(u.size.height())
                   .arg(u.what);
    return ok;
}

void WindowLayout::giveRoom(const QString& id) { giveRoom(id, 0); }

void WindowLayout::giveRoom(const QString& id, int attempt) {
    const ViewRecord* record = registry_->find(id);
    QDockWidget* d = docks_->value(id);
    if (!record || !d || busy_ || !maximised_.isEmpty() || d->isFloating() || !onScreen(d)) return;
    // Chosen twice at once (its tab shown and the menu's own call): the
    // rounds under way for it go on; a second would take the grown layout
    // for the one from before the choice.
    if (attempt == 0 && choosing_ == id) return;
    // Beside a central view with nothing to show, a side dock takes its
    // room first (the central view is hidden), then the rule goes on.
    if (attempt == 0 && takeIdleCentral(d)) {
        QTimer::singleShot(0, this, [this, id] { giveRoom(id, 0); });
        return;
    }
    const ViewPlacement& p = record->placement;
    const QSize now = d->size();
    // The rule: the room its record asks for when chosen, and at least the
    // size its key widget is useful at, in rounds while the dock still grows
    // (the view's own splitters share a dock's growth among their panes).
    const QSize share(std::max(now.width(), int(window_->width() * p.roomWidthShare)),
                      std::max(now.height(), int(window_->height() * p.roomHeightShare)));
    QSize want = share;
    QSize need = now; // its useful size (asked as far as the others can spare it)
    if (const UsefulSize u = useful(id); u.widget) {
        // The room it can use (a whole drawing), as far as the others can give it.
        if (!u.room.isEmpty())
            want = want.expandedTo(now + (u.room - u.widget->size()).expandedTo(QSize(0, 0)));
        const QSize lack = (u.size - u.widget->size()).expandedTo(QSize(0, 0));
        // The first round grows the dock by what the widget lacks (a lower
        // bound: scaling by the dock's size over a widget squeezed to a few
        // pixels beside fixed parts asked for many times the window, taken
        // from the others); later rounds by what it still lacks times what
        // the dock's growth gave it in the round before.
        auto grow = [attempt](int lack, int dock, int widget, int dockBefore, int widgetBefore) {
            if (lack <= 0) return 0;
            double scale = 1;
            if (attempt > 0)
                scale =
                    widget > widgetBefore
                        ? std::clamp(double(dock - dockBefore) / (widget - widgetBefore), 1.0, 4.0)
                        : 2.0;
            return int(std::ceil(lack * scale)) + 2;
        };
        need = now + QSize(grow(lack.width(), now.width(), u.widget->width(), round_.dock.width(),
                                round_.widget.width()),
                           grow(lack.height(), now.height(), u.widget->height(),
                                round_.dock.height(), round_.widget.height()));
        // What the layout kept back of the last round's request (resizeDocks
        // shares an area across a bottom dock in proportion): asked again on top.
        if (attempt > 0 && round_.asked.isValid())
            need += (round_.asked - now).expandedTo(QSize(0, 0));
        round_ = {now, u.widget->size(), QSize()};
        want = want.expandedTo(need);
    }
    // The room is this view's now. A tab of the same group chosen after
    // another that was given room: one that asks for room itself keeps what
    // that one got; any other waits for the room's return (queued after
    // this), which gives it the sizes from before and then this rule.
    if (room_.id != id) {
        const QDockWidget* had = docks_->value(room_.id);
        const bool sameGroup = had && window_->tabifiedDockWidgets(d).contains(const_cast<QDockWidget*>(had));
        const bool asksForRoom = p.roomWidthShare > 0 || p.roomHeightShare > 0;
        if (sameGroup && !asksForRoom && room_.given.isValid() && !onScreen(had)) return;
        room_ = sameGroup ? Room{id, room_.before, room_.given, room_.layout, room_.around}
                          : Room{id, now, QSize(), {}, {}};
    }
    if (want == now) {
        if (!room_.given.isValid()) room_ = {};
        if (choosing_ == id) choosing_.clear();
        return;
    }
    if (attempt == 0) {
        choosing_ = id;
        // What "back" means if the view has to fill the window: the layout
        // before this choice, with the tab that was in front then.
        choiceBefore_ = window_->saveState();
        choicePrevious_ =
            docks_->contains(hiddenLast_) && window_->tabifiedDockWidgets(d).contains(docks_->value(hiddenLast_))
                ? hiddenLast_
                : QString();
        if (room_.layout.isEmpty()) {
            room_.layout = choiceBefore_;
            room_.around = onScreenAround(d);
        }
    }
    // Its share and its useful size as far as the views beside it keep theirs.
    QSize asked = now;
    if (want.width() > now.width()) asked.setWidth(resizeBeside(d, want.width(), Qt::Horizontal));
    if (want.height() > now.height()) asked.setHeight(resizeBeside(d, want.height(), Qt::Vertical));
    round_.asked = asked;
    // Judged by its key widget (isUseful) and by the share as far as the
    // others could give it, not by what the scaled estimate of its need asked.
    want = asked.boundedTo(share);
    // The size it got, once the layout applied it (after the layout's own
    // request, which is already queued). Short of its useful size while the
    // dock still grows: another round. Where the window is too small to give
    // that room, or the key widget its useful size, beside the other views,
    // the view fills the window (WhenCramped::FillWindow), and the maximise
    // key brings back the layout from before it was chosen.
    QTimer::singleShot(0, this, [this, id, d, want, now, attempt, cramped = p.cramped] {
        if (choosing_ == id) choosing_.clear(); // this round decides; a further one sets it again
        if (room_.id != id || !maximised_.isEmpty() || !onScreen(d)) return;
        room_.given = d->size();
        if (isUseful(id) && d->width() >= want.width() * 9 / 10 && d->height() >= want.height() * 9 / 10) return;
        const bool grew = d->width() > now.width() + 2 || d->height() > now.height() + 2;
        if (grew && attempt < 3 && !isUseful(id)) {
            choosing_ = id;
            giveRoom(id, attempt + 1);
            return;
        }
        if (cramped == WhenCramped::FillWindow) {
            const QString previous = choicePrevious_;
            maximise(id, nullptr, choiceBefore_);
            returnTo_ = previous;
        }
    });
}

int WindowLayout::tabBarExtent(const QDockWidget* dock, Qt::Orientation o) const {
    if (window_->tabifiedDockWidgets(const_cast<QDockWidget*>(dock)).isEmpty()) return 0;
    // The group's tab bar: the window's own, along the dock's edge where the tabs are.
    const QRect g = dock->geometry();
    for (const QTabBar* bar : window_->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        const QRect b = bar->geometry();
        if (!bar->isVisible()) continue;
        if (o == Qt::Vertical && b.left() < g.right() && g.left() < b.right() &&
            (std::abs(b.top() - g.bottom() - 1) <= 4 || std::abs(g.top() - b.bottom() - 1) <= 4))
            return b.height();
        if (o == Qt::Horizontal && b.top() < g.bottom() && g.top() < b.bottom() &&
            (std::abs(b.left() - g.right() - 1) <= 4 || std::abs(g.left() - b.right() - 1) <= 4))
            return b.width();
    }
    return 0;
}

void WindowLayout::returnRoom(const QString& id) {
    if (room_.id != id || busy_ || !maximised_.isEmpty()) return;
    const Room room = room_;
    room_ = {};
    QDockWidget* d = docks_->value(id);
    if (!d || onScreen(d)) return;
    // The dock now in front where the view was gets the sizes from before,
    // each unless the user changed it meanwhile.
    QDockWidget* shown = nullptr;
    for (QDockWidget* t : window_->tabifiedDockWidgets(d))
        if (onScreen(t) && !t->isFloating()) shown = t;
    if (!shown || !room.given.isValid()) return;
    // A tab that wants room itself takes it over (giveRoom, queued too):
    // shrinking it first would only make it grow again.
    const QString shownId = docks_->key(shown);
    if (const ViewRecord* r = registry_->find(shownId);
        r && (r->placement.roomWidthShare > 0 || r->placement.roomHeightShare > 0)) {
        room_ = room;
        room_.id = shownId;
        return;
    }
    const QSize now = shown->size();
    const bool keptWidth = std::abs(now.width() - room.given.width()) <= 4;
    const bool keptHeight = std::abs(now.height() - room.given.height()) <= 4;
    if (keptWidth && keptHeight && !room.layout.isEmpty() && onScreenAround(shown) == room.around) {
        // Nothing else changed since: the layout from before the choice, the
        // docks beside included (resizing this one alone would leave them
        // where the room put them), with this tab in front.
        const Quiet quiet(this);
        window_->restoreState(room.layout);
        shown->raise();
    } else {
        if (keptWidth && room.before.width() < now.width())
            resizeBeside(shown, room.before.width(), Qt::Horizontal);
        if (keptHeight && room.before.height() < now.height())
            resizeBeside(shown, room.before.height(), Qt::Vertical);
    }
    // Which may be too little for the tab now in front: its own rule, after.
    QTimer::singleShot(0, this, [this, shownId] { giveRoom(shownId); });
}

QStringList WindowLayout::onScreenAround(const QDockWidget* dock) const {
    const QList<QDockWidget*> tabs = window_->tabifiedDockWidgets(const_cast<QDockWidget*>(dock));
    QStringList ids;
    for (auto it = docks_->cbegin(); it != docks_->cend(); ++it)
        if (it.value() != dock && !tabs.contains(it.value()) && onScreen(it.value()))
            ids << it.key();
    ids.sort();
    return ids;
}

int WindowLayout::surplus(const QString& id, const QWidget* outer, Qt::Orientation o) const {
    const int extent = o == Qt::Horizontal ? outer->width() : outer->height();
    const UsefulSize u = useful(id);
    if (!u.widget) return std::max(0, extent - 60); // no needs: all but a sliver
    // A view that rearranges its panes to the room says how small it can go.
    if (const int least = o == Qt::Horizontal ? u.least.width() : u.least.height(); least > 0)
        return std::max(0, extent - least);
    const int have = o == Qt::Horizontal ? u.widget->width() : u.widget->height();
    const int need = o == Qt::Horizontal ? u.size.width() : u.size.height();
    // What the key widget has beyond its need, and no more: the rest of the
    // view (a toolbar, a status line) keeps its size as the dock shrinks.
    // (Scaled to the whole, the Tuning view chosen at 1920 x 1080 took the
    // schedule editor's dock down to its title: 0 lines of the script.) Nor
    // more than the dock can shrink: resizeDocks() keeps its minimum and
    // takes the rest from the docks beside (the messages kept theirs, and
    // Properties under the graph lost its rows).
    const int least = o == Qt::Horizontal ? outer->minimumSizeHint().width() : outer->minimumSizeHint().height();
    return std::max(0, std::min(have - need, extent - least));
}

int WindowLayout::resizeBeside(QDockWidget* dock, int size, Qt::Orientation o) {
    // resizeDocks() shares an area in proportion to the sizes it is given:
    // the docks in line with this one (same area, not its tabs) are given
    // what is left, so this one gets `size`.
    auto extent = [o](const QRect& r) { return o == Qt::Horizontal ? r.width() : r.height(); };
    const QRect g = dock->geometry();
    const QList<QDockWidget*> tabs = window_->tabifiedDockWidgets(dock);
    QList<QDockWidget*> list{dock}, beside;
    int others = 0;
    // In line: docks of its area across the same span, and docks of another
    // area stacked across it (a bottom area under a left column): growing a
    // left dock's height takes it from the bottom dock too.
    const Qt::DockWidgetArea area = window_->dockWidgetArea(dock);
    auto stacked = [o](Qt::DockWidgetArea a) {
        return o == Qt::Vertical ? a == Qt::TopDockWidgetArea || a == Qt::BottomDockWidgetArea
                                 : a == Qt::LeftDockWidgetArea || a == Qt::RightDockWidgetArea;
    };
    for (QDockWidget* d : *docks_) {
        if (d == dock || tabs.contains(d) || d->isFloating() || !onScreen(d)) continue;
        const Qt::DockWidgetArea other = window_->dockWidgetArea(d);
        if (other != area && !(stacked(other) && !stacked(area))) continue;
        const QRect h = d->geometry();
        const bool inLine = o == Qt::Vertical ? h.left() < g.right() && g.left() < h.right()
                                              : h.top() < g.bottom() && g.top() < h.bottom();
        if (!inLine) continue;
        // One per tab group: its docks share one place.
        bool tabbed = false;
        for (QDockWidget* b : std::as_const(beside)) tabbed = tabbed || window_->tabifiedDockWidgets(b).contains(d);
        if (tabbed) continue;
        beside << d;
        others += extent(h);
    }
    // The room others can give and stay useful: theirs beyond their own
    // useful size, and the central view's across a side dock's width. The
    // dock gets `size` as far as that goes.
    QList<int> spare;
    int spareTotal = 0;
    for (QDockWidget* d : std::as_const(beside)) {
        spare << std::min(extent(d->geometry()) - 40, surplus(docks_->key(d), d, o));
        spareTotal += std::max(0, spare.back());
    }
    const QString centralId = this->centralId();
    QWidget* central = window_->centralWidget();
    if (central && central->isVisible() && o == Qt::Horizontal && stacked(area))
        spareTotal += surplus(centralId, central, o);
    // A top or bottom dock's height comes from all that is above (below) it
    // across its width: the central view and each side column, which give up
    // the same height, so the one with the least to spare decides.
    if (o == Qt::Vertical && stacked(area)) {
        auto across = [&g](const QRect& r) { return r.left() < g.right() && g.left() < r.right(); };
        int fewest = INT_MAX;
        if (central && central->isVisible() && across(central->geometry()))
            fewest = surplus(centralId, central, o);
        QMap<QPair<int, int>, int> columns; // side area and left edge -> what its docks can spare
        QList<QDockWidget*> counted;
        for (QDockWidget* d : *docks_) {
            const Qt::DockWidgetArea a = window_->dockWidgetArea(d);
            if (stacked(a) || d->isFloating() || !onScreen(d) || !across(d->geometry())) continue;
            bool tabbed = false;
            for (QDockWidget* c : std::as_const(counted))
                tabbed = tabbed || window_->tabifiedDockWidgets(c).contains(d);
            if (tabbed) continue;
            counted << d;
            columns[{int(a), d->geometry().left()}] +=
                std::min(d->height() - 40, surplus(docks_->key(d), d, o));
        }
        for (int c : std::as_const(columns))
            fewest = std::min(fewest, c);
        if (fewest != INT_MAX) spareTotal += std::max(0, fewest);
    }
    // Even its useful size costs the others what they can spare and no more:
    // where that is not enough the chosen view fills the window (giveRoom).
    // (Taken whatever it cost them, the Tuning view chosen at 1920 x 1080
    // left the schedule editor beside the code its title bar.)
    const int asked = std::min(size, extent(g) + spareTotal);
    QList<int> sizes{asked};
    // What the others give: in proportion to their spare room. Shrinking
    // (room given back): the others grow in proportion to their sizes.
    const int give = asked - extent(g);
    const int fromSpare = give > 0 ? give : 0;
    const int rest = give > 0 ? 0 : give;
    for (int i = 0; i < beside.size(); ++i) {
        const int e = extent(beside[i]->geometry());
        int size_ = e;
        if (spareTotal > 0) size_ -= int(qint64(fromSpare) * std::max(0, spare[i]) / spareTotal);
        if (others > 0) size_ -= int(qint64(rest) * e / others);
        list << beside[i];
        sizes << std::max(1, size_);
    }
    // resizeDocks sizes a tab group's item, tab bar included: a tabbed dock
    // given its own height came out a tab bar shorter, and where the central
    // view is hidden the bottom area took what the column lost (the messages
    // grew 52 px and Properties kept four of its six rows).
    for (int i = 0; i < list.size(); ++i) sizes[i] += tabBarExtent(list[i], o);
    window_->resizeDocks(list, sizes, o);
    return asked;
}

} // namespace tessel::views
