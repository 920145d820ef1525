/// \file
/// Long work off the GUI thread: every compile, layout and measurement runs
/// as a job on the IDE's own thread pool, and its result is delivered on the
/// GUI thread (or dropped, if the job was cancelled or superseded).
///
/// A job has a key ("relower", "compile-model", "layout" ...). Starting a job
/// with a key that is still running supersedes the older one: its result is
/// discarded when it arrives, so a fast typist never sees a stale result.
/// Work gets a CancelToken to poll; cancel() sets it and drops the result.
/// Exceptions thrown by the work become a failure message, never a crash.
#pragma once

#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>

namespace tessel::views {

/// Shared between a job and whoever may cancel it; work polls it.
class CancelToken {
public:
    bool cancelled() const { return flag_->load(std::memory_order_relaxed); }
    void cancel() const { flag_->store(true, std::memory_order_relaxed); }
    /// Progress in [0, 1] with a short text, read by the status bar.
    void setProgress(double fraction) const { progress_->store(fraction, std::memory_order_relaxed); }
    double progress() const { return progress_->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> flag_ = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<std::atomic<double>> progress_ = std::make_shared<std::atomic<double>>(-1.0);
};

class Jobs : public QObject {
    Q_OBJECT
public:
    explicit Jobs(QObject* parent = nullptr);
    ~Jobs() override;

    /// Runs `work(token)` on the pool. On the GUI thread, when it ends and was
    /// neither cancelled nor superseded and `context` still lives: `done(result)`,
    /// or `failed(message)` when the work threw.
    template <class R>
    void run(const QString& key, const QString& title, std::function<R(const CancelToken&)> work,
             QObject* context, std::function<void(R)> done, std::function<void(const QString&)> failed = {});

    /// Cancels the running job with `key` (its result will be dropped).
    void cancel(const QString& key);
    void cancelAll();
    bool isRunning(const QString& key) const { return running_.contains(key); }
    int runningCount() const { return running_.size(); }
    /// Titles of the running jobs, oldest first.
    QStringList runningTitles() const;
    /// The progress of the longest-running job in [0, 1], or -1 when unknown.
    double progress() const;

    QThreadPool* pool() { return &pool_; }
    /// Waits (processing events) until no job runs or `timeoutMs` passes; for tests.
    bool waitForIdle(int timeoutMs = 60000);

signals:
    void started(const QString& key, const QString& title);
    void finished(const QString& key, bool ok);
    void busyChanged(bool busy);

private:
    struct Entry {
        quint64 id;
        QString title;
        CancelToken token;
    };
    quint64 begin(const QString& key, const QString& title, const CancelToken& token);
    /// True when job `id` is still the current one for `key` (then it is removed).
    bool end(const QString& key, quint64 id, bool ok);

    QThreadPool pool_;
    QHash<QString, Entry> running_;
    QList<QString> order_;
    quint64 nextId_ = 1;
};

template <class R>
void Jobs::run(const QString& key, const QString& title, std::function<R(const CancelToken&)> work,
               QObject* context, std::function<void(R)> done, std::function<void(const QString&)> failed) {
    struct Outcome {
        std::optional<R> value;
        QString error;
    };
    CancelToken token;
    quint64 id = begin(key, title, token);
    auto* watcher = new QFutureWatcher<std::shared_ptr<Outcome>>(this);
    QPointer<QObject> ctx(context);
    connect(watcher, &QFutureWatcherBase::finished, this, [=, this] {
        auto outcome = watcher->result();
        watcher->deleteLater();
        bool ok = outcome->value.has_value();
        if (!end(key, id, ok) || token.cancelled() || !ctx) return;
        if (ok) {
            if (done) done(std::move(*outcome->value));
        } else if (failed) {
            failed(outcome->error);
        }
    });
    watcher->setFuture(QtConcurrent::run(&pool_, [work = std::move(work), token]() {
        auto outcome = std::make_shared<Outcome>();
        try {
            outcome->value.emplace(work(token));
        } catch (const std::exception& e) {
            outcome->error = QString::fromStdString(e.what());
        } catch (...) {
            outcome->error = QStringLiteral("unknown error");
        }
        return outcome;
    }));
}

} // namespace tessel::views
