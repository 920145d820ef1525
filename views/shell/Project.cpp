#include "shell/Project.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace tessel::views {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("Project", s); }

QString relativeTo(const QString& dir, const QString& path) {
    if (path.isEmpty()) return path;
    QString rel = QDir(dir).relativeFilePath(path);
    return rel.startsWith(QLatin1String("..")) ? path : rel;
}

QString resolve(const QString& dir, const QString& path) {
    if (path.isEmpty() || QDir::isAbsolutePath(path)) return path;
    return QDir::cleanPath(QDir(dir).absoluteFilePath(path));
}

QJsonObject mapToJson(const QMap<QString, QString>& m) {
    QJsonObject o;
    for (auto it = m.begin(); it != m.end(); ++it) o.insert(it.key(), it.value());
    return o;
}

QMap<QString, QString> mapFromJson(const QJsonValue& v) {
    QMap<QString, QString> m;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) m.insert(it.key(), it.value().toString());
    return m;
}

} // namespace

QByteArray Project::toJson(const QString& projectDir) const {
    QJsonObject o;
    o.insert(QStringLiteral("tessel-project"), kVersion);
    if (!modelPath.isEmpty()) {
        QJsonObject m;
        m.insert(QStringLiteral("path"), relativeTo(projectDir, modelPath));
        m.insert(QStringLiteral("inputShapes"), mapToJson(inputShapes));
        o.insert(QStringLiteral("model"), m);
    }
    if (!scriptPath.isEmpty() || !scriptText.isEmpty()) {
        QJsonObject s;
        s.insert(QStringLiteral("path"), relativeTo(projectDir, scriptPath));
        s.insert(QStringLiteral("text"), scriptText);
        o.insert(QStringLiteral("script"), s);
    }
    o.insert(QStringLiteral("target"), target);
    if (!records.isEmpty()) o.insert(QStringLiteral("records"), relativeTo(projectDir, records));
    o.insert(QStringLiteral("schedules"), mapToJson(schedules));
    if (!currentFunction.isEmpty()) o.insert(QStringLiteral("currentFunction"), currentFunction);
    if (!tuning.isEmpty()) o.insert(QStringLiteral("tuning"), QJsonObject::fromVariantMap(tuning));
    QJsonObject w;
    w.insert(QStringLiteral("geometry"), QString::fromLatin1(windowGeometry.toBase64()));
    w.insert(QStringLiteral("state"), QString::fromLatin1(windowState.toBase64()));
    o.insert(QStringLiteral("window"), w);
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

bool Project::fromJson(const QByteArray& json, const QString& projectDir, QString* error) {
    QJsonParseError pe;
    QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (doc.isNull() || !doc.isObject()) {
        if (error) *error = tr("not a project file: %1 at offset %2").arg(pe.errorString()).arg(pe.offset);
        return false;
    }
    QJsonObject o = doc.object();
    if (!o.contains(QStringLiteral("tessel-project"))) {
        if (error) *error = tr("not a Tessel project (no \"tessel-project\" version)");
        return false;
    }
    int version = o.value(QStringLiteral("tessel-project")).toInt();
    if (version < 1 || version > kVersion) {
        if (error) *error = tr("project version %1 is not supported (this Tessel reads version %2)").arg(version).arg(kVersion);
        return false;
    }
    Project p;
    QJsonObject m = o.value(QStringLiteral("model")).toObject();
    p.modelPath = resolve(projectDir, m.value(QStringLiteral("path")).toString());
    p.inputShapes = mapFromJson(m.value(QStringLiteral("inputShapes")));
    QJsonObject s = o.value(QStringLiteral("script")).toObject();
    p.scriptPath = resolve(projectDir, s.value(QStringLiteral("path")).toString());
    p.scriptText = s.value(QStringLiteral("text")).toString();
    p.target = o.value(QStringLiteral("target")).toString(QStringLiteral("host"));
    p.records = resolve(projectDir, o.value(QStringLiteral("records")).toString());
    p.schedules = mapFromJson(o.value(QStringLiteral("schedules")));
    p.currentFunction = o.value(QStringLiteral("currentFunction")).toString();
    p.tuning = o.value(QStringLiteral("tuning")).toObject().toVariantMap();
    QJsonObject w = o.value(QStringLiteral("window")).toObject();
    p.windowGeometry = QByteArray::fromBase64(w.value(QStringLiteral("geometry")).toString().toLatin1());
    p.windowState = QByteArray::fromBase64(w.value(QStringLiteral("state")).toString().toLatin1());
    if (!p.modelPath.isEmpty() && !p.scriptPath.isEmpty()) {
        if (error) *error = tr("a project opens a model or a script, not both");
        return false;
    }
    *this = p;
    return true;
}

QString Project::save(const QString& path) const {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return tr("cannot write %1: %2").arg(path, f.errorString());
    f.write(toJson(QFileInfo(path).absolutePath()));
    if (!f.commit()) return tr("cannot write %1: %2").arg(path, f.errorString());
    return {};
}

bool Project::load(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = tr("cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    return fromJson(f.readAll(), QFileInfo(path).absolutePath(), error);
}

} // namespace tessel::views
