#include "common/Resources.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tessel::views {

QString resourcesDir() {
    const QByteArray env = qgetenv("TESSEL_RESOURCES");
    if (!env.isEmpty()) return QDir::cleanPath(QString::fromLocal8Bit(env));
    if (QCoreApplication::instance()) {
        QString installed =
            QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../share/tessel/resources"));
        if (QFileInfo(installed).isDir()) return installed;
    }
#ifdef TESSEL_SOURCE_DIR
    return QDir::cleanPath(QStringLiteral(TESSEL_SOURCE_DIR "/resources"));
#else
    return QStringLiteral("resources");
#endif
}

QString resourcePath(const QString& relative) { return resourcesDir() + QLatin1Char('/') + relative; }

} // namespace tessel::views
