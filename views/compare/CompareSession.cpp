#include "compare/CompareSession.h"

#include "codegen/Target.h"
#include "common/Session.h"
#include "driver/ModelCompare.h"
#include "driver/ApplyBest.h"
#include "ir/Diagnostic.h"
#include "tuning/TuningSession.h"

#include <QFileInfo>
#include <QSaveFile>

#include <chrono>
#include <cmath>

namespace tessel::views {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

/// What the worker needs of one side, copied on the GUI thread.
struct SidePlan {
    std::string label;
    std::string records; ///< a file or a folder; empty: none
    /// Configurations applied over the records' (the session's chosen ones).
    std::map<std::string, Session::KnobChoices> chosen;
    DeviceChoice device;
    int threads = 0;
};

/// Where the sides run, opened on the worker: a model runner per side, each
/// in a session of its own; a device chosen for both sides is one
/// DeviceRunners (a tracker's key: one server held for both, not two).
struct SideSessions {
    std::unique_ptr<DeviceRunners> devices[2];
    std::unique_ptr<runtime::ModelRunner> runner[2];
    DeviceRunners* device[2] = {nullptr, nullptr};

    explicit SideSessions(const SidePlan (&sides)[2]) {
        devices[0] = std::make_unique<DeviceRunners>(sides[0].device);
        device[0] = devices[0].get();
        if (sides[1].device == sides[0].device) {
            device[1] = device[0];
        } else {
            devices[1] = std::make_unique<DeviceRunners>(sides[1].device);
            device[1] = devices[1].get();
        }
        for (int i = 0; i < 2; ++i) runner[i] = device[i]->modelRunner();
    }
};

/// Apply-best of a side's records file or folder for `target`, with its
/// chosen configurations over them (as the session's compiles take them).
std::map<std::string, tune::Config> configsOf(const SidePlan& side, const Target& target) {
    std::map<std::string, tune::Config> configs;
    configs = driver::applyBest(side.records, target).configs;
    for (const auto& [key, config] : side.chosen) configs[key] = config;
    return configs;
}

QString ms(double v) { return std::isfinite(v) ? QString::number(v, 'g', 4) : QStringLiteral("–"); }

} // namespace

CompareSession::CompareSession(Session* session, QObject* parent) : QObject(parent), session_(session) {
    connect(session_, &Session::recordsChanged, this, &CompareSession::followSession);
    connect(session_, &Session::chosenConfigsChanged, this, &CompareSession::followSession);
    connect(session_, &Session::modelChanged, this, &CompareSession::followSession);
    followSession();
}

void CompareSession::followSession() {
    if (!defaultB_) return;
    const bool tuned = !session_->recordsPath().isEmpty() || !session_->chosenConfigs().empty();
    const auto schedules =
        tuned ? CompareSideChoice::Schedules::SessionRecords : CompareSideChoice::Schedules::TuningRecords;
    if (sides_[1].schedules == schedules) return;
    sides_[1].schedules = schedules;
    emit sidesChanged();
}

CompareSession::~CompareSession() {
    if (cancel_) cancel_->store(true);
    if (worker_.joinable()) worker_.join();
}

void CompareSession::setSide(int index, const CompareSideChoice& side) {
    if (index & 1) defaultB_ = false;
    if (sides_[index & 1] == side) return;
    sides_[index & 1] = side;
    emit sidesChanged();
}

QString CompareSession::tuningRecordsPath() const {
    if (tuningRecords_) return tuningRecords_();
    return TuningSession::defaultRecordsPath(session_->sourcePath());
}

QString CompareSession::recordsPath(int index) const {
    const CompareSideChoice& s = sides_[index & 1];
    switch (s.schedules) {
    case CompareSideChoice::Schedules::RecordsFile: return s.recordsPath;
    case CompareSideChoice::Schedules::SessionRecords: return session_->recordsPath();
    case CompareSideChoice::Schedules::TuningRecords: return tuningRecordsPath();
    case CompareSideChoice::Schedules::Untuned: break;
    }
    return {};
}

QString CompareSession::sideLabel(int index) const {
    const CompareSideChoice& s = sides_[index & 1];
    const QFileInfo records(recordsPath(index));
    QString label;
    if (s.schedules == CompareSideChoice::Schedules::Untuned)
        label = tr("untuned");
    else if (records.filePath().isEmpty())
        label = s.schedules == CompareSideChoice::Schedules::SessionRecords ? tr("tuned (chosen configurations)")
                                                                            : tr("(no records file)");
    else
        label = records.isDir() ? records.fileName() + QLatin1Char('/') : records.fileName();
    if (!s.device.isLocal()) label += tr(" on %1").arg(s.device.label());
    if (s.threads > 0) label += tr(", %n thread(s)", nullptr, s.threads);
    return label;
}

bool CompareSession::start() {
    if (running_) return false;
    if (session_->kind() != Session::Kind::Model || !session_->model() || session_->sourcePath().isEmpty()) {
        setStatus(tr("Open a model to compare it untuned and tuned."));
        return false;
    }
    SidePlan sides[2];
    for (int i = 0; i < 2; ++i) {
        const QString side = i == 0 ? QStringLiteral("A") : QStringLiteral("B");
        const QString records = recordsPath(i);
        const bool session = sides_[i].schedules == CompareSideChoice::Schedules::SessionRecords;
        if (session && records.isEmpty() && session_->chosenConfigs().empty()) {
            setStatus(tr("Side %1: the model compiles with the default schedules (Run > Tuned Configurations): "
                         "choose tuned configurations there, or a records file here.")
                          .arg(side));
            return false;
        }
        if (sides_[i].schedules != CompareSideChoice::Schedules::Untuned && !(session && records.isEmpty())) {
            if (records.isEmpty()) {
                setStatus(tr("Choose a records file for side %1.").arg(side));
                return false;
            }
            if (!QFileInfo::exists(records)) {
                setStatus(sides_[i].schedules == CompareSideChoice::Schedules::TuningRecords
                              ? tr("Side %1: the Tuning view's records file %2 does not exist yet: tune first, or "
                                   "choose a records file.")
                                    .arg(side, records)
                              : tr("Side %1: no records file %2.").arg(side, records));
                return false;
            }
        }
        sides[i].label = sideLabel(i).toStdString();
        sides[i].records = records.toStdString();
        if (session) sides[i].chosen = session_->chosenConfigs();
        sides[i].device = sides_[i].device;
        sides[i].threads = sides_[i].threads;
    }

    frontend::ImportOptions import;
    const QMap<QString, QString> shapes = session_->inputShapes();
    try {
        for (auto it = shapes.begin(); it != shapes.end(); ++it) {
            auto [name, dims] = frontend::parseInputShapeBinding((it.key() + QLatin1Char(':') + it.value()).toStdString());
            import.inputShapes[name] = dims;
        }
    } catch (const std::exception& e) {
        setStatus(tr("Cannot read the input shapes: %1").arg(q(e.what())));
        return false;
    }
    driver::CompareOptions options;
    options.compile.request = session_->request();
    options.rounds = rounds_;
    // This machine's side compiles for the session's target when that is this machine's.
    const Target local = codegen::isHostTarget(options.compile.request.target) ? options.compile.request.target
                                                                               : codegen::hostTarget();
    const std::string path = session_->sourcePath().toStdString();

    if (worker_.joinable()) worker_.join();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    running_ = true;
    progress_ = 0;
    emit runningChanged(true);
    setStatus(tr("Comparing %1 against %2…").arg(q(sides[0].label), q(sides[1].label)));

    worker_ = std::thread([this, sides, import, options, local, path, cancel = cancel_]() mutable {
        std::shared_ptr<const driver::CompareResult> result;
        QString error;
        try {
            driver::CompareSide s[2];
            SideSessions sessions(sides);
            for (int i = 0; i < 2; ++i) {
                s[i].label = sides[i].label;
                s[i].threads = sides[i].threads;
                s[i].runner = sessions.runner[i].get();
                s[i].target = sides[i].device.isLocal() ? local : sessions.device[i]->target();
                s[i].configs = configsOf(sides[i], s[i].target);
            }
            // At most ~20 updates a second: a long run of short rounds must not flood the GUI.
            auto shownAt = std::chrono::steady_clock::now() - std::chrono::seconds(1);
            options.progress = [&](double f, const std::string& stage) {
                const auto now = std::chrono::steady_clock::now();
                if (now - shownAt >= std::chrono::milliseconds(50) || f >= 1) {
                    shownAt = now;
                    QMetaObject::invokeMethod(
                        this, [this, f, stage = q(stage)] { onProgress(f, stage); }, Qt::QueuedConnection);
                }
                return !cancel->load();
            };
            result = std::make_shared<const driver::CompareResult>(driver::compareModels(path, import, s[0], s[1], options));
        } catch (const CompileError& e) {
            error = q(e.diagnostic().message);
        } catch (const std::exception& e) {
            error = q(e.what());
        }
        QMetaObject::invokeMethod(this, [this, result, error] { onDone(result, error); }, Qt::QueuedConnection);
    });
    return true;
}

void CompareSession::cancel() {
    if (!running_ || !cancel_) return;
    cancel_->store(true);
    setStatus(tr("Cancelling…"));
}

void CompareSession::onProgress(double fraction, const QString& stage) {
    if (!running_) return;
    progress_ = fraction;
    emit progressChanged(fraction, stage);
}

void CompareSession::onDone(std::shared_ptr<const driver::CompareResult> result, const QString& error) {
    if (worker_.joinable()) worker_.join();
    running_ = false;
    if (!result) {
        setStatus(tr("The comparison failed: %1").arg(error));
        session_->report(tr("Compare: %1").arg(error), true);
    } else {
        const driver::CompareResult& r = *result;
        if (r.rounds > 0) {
            result_ = result;
            emit resultChanged();
        }
        const QString figures = tr("end to end A %1 ms, B %2 ms, B/A %3 (median of %n round(s))", nullptr, r.rounds)
                                    .arg(ms(r.latencyA), ms(r.latencyB), ms(r.ratio));
        if (r.cancelled) {
            setStatus(r.rounds > 0 ? tr("Cancelled: %1").arg(figures) : tr("Cancelled before the first round."));
        } else if (!r.error.empty()) {
            setStatus(tr("%1 — %2").arg(q(r.error), figures));
            session_->report(tr("Compare: %1").arg(q(r.error)), true);
        } else {
            setStatus(tr("Done: %1; the outputs agree.").arg(figures));
        }
    }
    emit runningChanged(false);
    emit finished();
}

bool CompareSession::exportCsv(const QString& path) {
    if (!result_) {
        setStatus(tr("Nothing to export yet: run a comparison first."));
        return false;
    }
    QSaveFile f(path);
    const std::string csv = driver::compareCsv(*result_);
    if (!f.open(QIODevice::WriteOnly) || f.write(csv.data(), qint64(csv.size())) != qint64(csv.size()) || !f.commit()) {
        setStatus(tr("Cannot write %1: %2").arg(path, f.errorString()));
        return false;
    }
    setStatus(tr("Wrote %1.").arg(path));
    return true;
}

void CompareSession::setStatus(const QString& text) {
    if (text == status_) return;
    status_ = text;
    emit statusChanged(text);
}

} // namespace tessel::views
