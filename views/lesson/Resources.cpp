#include "lesson/Resources.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tessel::views {

namespace {

/// The source tree's resources: TESSEL_SOURCE_DIR when the build defines it,
/// else found from this file's own path (views/lesson/Resources.cpp).
QString sourceResources() {
#ifdef TESSEL_SOURCE_DIR
    return QStringLiteral(TESSEL_SOURCE_DIR "/resources");
#else
    QDir dir = QFileInfo(QStringLiteral(__FILE__)).absoluteDir(); // views/lesson
    dir.cdUp();
    dir.cdUp();
    return dir.filePath(QStringLiteral("resources"));
#endif
}

} // namespace

QString resourcesDir() {
    const QString env = qEnvironmentVariable("TESSEL_RESOURCES");
    if (!env.isEmpty() && QFileInfo(env).isDir()) return QDir(env).absolutePath();
    if (QCoreApplication::instance()) {
        const QString installed =
            QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/tessel/resources"));
        if (QFileInfo(installed).isDir()) return QDir(installed).absolutePath();
    }
    return QDir::cleanPath(sourceResources());
}

QString resourcePath(const QString& relative) { return QDir(resourcesDir()).filePath(relative); }

} // namespace tessel::views
