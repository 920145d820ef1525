#include "shell/Recovery.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace tessel::views {

namespace {

constexpr int kRecoveryVersion = 1;

QString tr(const char* s) { return QCoreApplication::translate("tessel::views::Recovery", s); }

/// Field 22 of /proc/PID/stat (the start time in clock ticks after boot); 0 when unknown.
quint64 startTicksOf(const QString& pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return 0;
    const QByteArray s = stat.readAll();
    // After the command name, which may hold spaces, in parentheses.
    const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
    return fields.value(19).toULongLong();
}

} // namespace

Recovery::Recovery(const QString& dir) : dir_(dir) {}

QString Recovery::defaultDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recovery");
}

quint64 Recovery::ownStartTicks() {
    static const quint64 ticks = startTicksOf(QStringLiteral("self"));
    return ticks;
}

bool Recovery::processRuns(qint64 pid, quint64 startTicks) {
    if (pid <= 0 || !QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid))) return false;
    return startTicks == 0 || startTicksOf(QString::number(pid)) == startTicks;
}

QString Recovery::path() const {
    return QStringLiteral("%1/%2-%3.tessel").arg(dir_).arg(QCoreApplication::applicationPid()).arg(ownStartTicks());
}

bool Recovery::exists() const { return QFileInfo::exists(path()); }

QString Recovery::write(const Project& session, const QString& projectPath, const QStringList& unsaved) const {
    if (!QDir().mkpath(dir_)) return tr("cannot create %1").arg(dir_);
    QJsonObject o;
    o.insert(QStringLiteral("tessel-recovery"), kRecoveryVersion);
    o.insert(QStringLiteral("written"), QDateTime::currentDateTime().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("projectPath"), projectPath);
    o.insert(QStringLiteral("unsaved"), QJsonArray::fromStringList(unsaved));
    // Paths stay absolute: the recovery folder is no project's folder.
    o.insert(QStringLiteral("project"), QJsonDocument::fromJson(session.toJson(QStringLiteral("/nonexistent"))).object());
    QSaveFile f(path());
    if (!f.open(QIODevice::WriteOnly)) return tr("cannot write %1: %2").arg(path(), f.errorString());
    f.write(QJsonDocument(o).toJson(QJsonDocument::Indented));
    if (!f.commit()) return tr("cannot write %1: %2").arg(path(), f.errorString());
    return {};
}

void Recovery::remove() const { QFile::remove(path()); }

bool Recovery::read(const QString& file, RecoveredWork* work, QString* error) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = f.errorString();
        return false;
    }
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    if (o.value(QStringLiteral("tessel-recovery")).toInt() != kRecoveryVersion) {
        if (error) *error = tr("not a recovery file of this Tessel");
        return false;
    }
    RecoveredWork w;
    w.file = file;
    w.written = QDateTime::fromString(o.value(QStringLiteral("written")).toString(), Qt::ISODateWithMs);
    w.projectPath = o.value(QStringLiteral("projectPath")).toString();
    for (const QJsonValue& v : o.value(QStringLiteral("unsaved")).toArray()) w.unsaved << v.toString();
    const QByteArray project = QJsonDocument(o.value(QStringLiteral("project")).toObject()).toJson();
    if (!w.project.fromJson(project, QStringLiteral("/nonexistent"), error)) return false;
    *work = w;
    return true;
}

QList<RecoveredWork> Recovery::leftOver() const {
    QList<RecoveredWork> found;
    const QDir d(dir_);
    for (const QFileInfo& fi : d.entryInfoList({QStringLiteral("*.tessel")}, QDir::Files)) {
        // <pid>-<start ticks>.tessel
        const QStringList parts = fi.completeBaseName().split(QLatin1Char('-'));
        if (parts.size() != 2) continue;
        bool pidOk = false, ticksOk = false;
        const qint64 pid = parts[0].toLongLong(&pidOk);
        const quint64 ticks = parts[1].toULongLong(&ticksOk);
        if (!pidOk || !ticksOk || processRuns(pid, ticks)) continue; // still running: its own
        RecoveredWork w;
        if (read(fi.absoluteFilePath(), &w)) found << w;
    }
    std::sort(found.begin(), found.end(),
              [](const RecoveredWork& a, const RecoveredWork& b) { return a.written > b.written; });
    return found;
}

} // namespace tessel::views
