#include "common/Jobs.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

namespace tessel::views {

Jobs::Jobs(QObject* parent) : QObject(parent) {
    // Compiles are CPU-bound and the runtime has its own pool for kernels:
    // two workers keep a layout from waiting behind a long compile.
    pool_.setMaxThreadCount(2);
}

Jobs::~Jobs() {
    cancelAll();
    pool_.waitForDone();
}

quint64 Jobs::begin(const QString& key, const QString& title, const CancelToken& token) {
    bool wasBusy = !running_.isEmpty();
    if (auto it = running_.find(key); it != running_.end()) it->token.cancel();  // superseded
    order_.removeAll(key);
    order_.append(key);
    quint64 id = nextId_++;
    running_.insert(key, Entry{id, title, token});
    emit started(key, title);
    if (!wasBusy) emit busyChanged(true);
    return id;
}

bool Jobs::end(const QString& key, quint64 id, bool ok) {
    auto it = running_.find(key);
    if (it == running_.end() || it->id != id) return false;
    running_.erase(it);
    order_.removeAll(key);
    emit finished(key, ok);
    if (running_.isEmpty()) emit busyChanged(false);
    return true;
}

void Jobs::cancel(const QString& key) {
    auto it = running_.find(key);
    if (it == running_.end()) return;
    it->token.cancel();
    running_.erase(it);
    order_.removeAll(key);
    emit finished(key, false);
    if (running_.isEmpty()) emit busyChanged(false);
}

void Jobs::cancelAll() {
    const auto keys = running_.keys();
    for (const auto& k : keys) cancel(k);
}

QStringList Jobs::runningTitles() const {
    QStringList out;
    for (const auto& k : order_) out << running_.value(k).title;
    return out;
}

double Jobs::progress() const {
    if (order_.isEmpty()) return -1;
    return running_.value(order_.first()).token.progress();
}

bool Jobs::waitForIdle(int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!running_.isEmpty() && t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    QCoreApplication::processEvents();
    return running_.isEmpty();
}

} // namespace tessel::views
