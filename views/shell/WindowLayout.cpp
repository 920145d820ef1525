#include "shell/WindowLayout.h"

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QTimer>

#include <algorithm>
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
    return window_->restoreState(state);
}

QByteArray WindowLayout::state() const { return maximised_.isEmpty() ? window_->saveState() : beforeMaximise_; }

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
        if (QWidget* central = window_->centralWidget()) central->setVisible(!keep);
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
        if (QWidget* central = window_->centralWidget()) central->show();
        if (record && record->restore) record->restore(views_->value(maximised_));
        window_->restoreState(beforeMaximise_);
    }
    maximised_.clear();
    beforeMaximise_.clear();
    if (focus && focus->isVisible()) focus->setFocus();
    emit maximisedChanged(QString());
}

// ---------------------------------------------------------------- choices and room

void WindowLayout::onVisibility(const QString& id, bool visible) {
    // Only a user's choice counts: not the window's first show, a layout
    // being restored, or a maximised view hiding the others.
    if (busy_ || !following_) return;
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

void WindowLayout::giveRoom(const QString& id) {
    const ViewRecord* record = registry_->find(id);
    QDockWidget* d = docks_->value(id);
    if (!record || !d || busy_ || !maximised_.isEmpty() || d->isFloating() || !onScreen(d)) return;
    const ViewPlacement& p = record->placement;
    if (p.roomWidthShare <= 0 && p.roomHeightShare <= 0) return;
    const QSize now = d->size();
    const QSize want(std::max(now.width(), int(window_->width() * p.roomWidthShare)),
                     std::max(now.height(), int(window_->height() * p.roomHeightShare)));
    if (want == now) return;
    const QByteArray before = window_->saveState();
    if (room_.id != id) room_ = {id, now, QSize()};
    if (want.width() > now.width()) resizeBeside(d, want.width(), Qt::Horizontal);
    if (want.height() > now.height()) resizeBeside(d, want.height(), Qt::Vertical);
    // The size it got, once the layout applied it (after the layout's own
    // request, which is already queued). Where the window is too small to
    // give that room beside the other views, the view fills the window, and
    // the maximise key brings back the layout from before.
    QTimer::singleShot(0, this, [this, id, d, want, before] {
        if (room_.id != id || !maximised_.isEmpty()) return;
        room_.given = d->size();
        if (d->width() < want.width() * 9 / 10 || d->height() < want.height() * 9 / 10) maximise(id, nullptr, before);
    });
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
    const QSize now = shown->size();
    if (std::abs(now.width() - room.given.width()) <= 4 && room.before.width() < now.width())
        resizeBeside(shown, room.before.width(), Qt::Horizontal);
    if (std::abs(now.height() - room.given.height()) <= 4 && room.before.height() < now.height())
        resizeBeside(shown, room.before.height(), Qt::Vertical);
}

void WindowLayout::resizeBeside(QDockWidget* dock, int size, Qt::Orientation o) {
    // resizeDocks() shares an area in proportion to the sizes it is given:
    // the docks in line with this one (same area, not its tabs) are given
    // what is left, so this one gets `size`.
    auto extent = [o](const QRect& r) { return o == Qt::Horizontal ? r.width() : r.height(); };
    const QRect g = dock->geometry();
    const QList<QDockWidget*> tabs = window_->tabifiedDockWidgets(dock);
    QList<QDockWidget*> list{dock}, beside;
    QList<int> sizes{size};
    int others = 0;
    for (QDockWidget* d : *docks_) {
        if (d == dock || tabs.contains(d) || d->isFloating() || !onScreen(d) ||
            window_->dockWidgetArea(d) != window_->dockWidgetArea(dock))
            continue;
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
    const int left = std::max(int(beside.size()) * 60, extent(g) + others - size);
    for (QDockWidget* d : std::as_const(beside)) {
        list << d;
        sizes << std::max(1, int(qint64(left) * extent(d->geometry()) / std::max(1, others)));
    }
    window_->resizeDocks(list, sizes, o);
}

} // namespace tessel::views
