#include "shell/Language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace tessel::views {

namespace {
QTranslator* appTranslator = nullptr;
QTranslator* qtTranslator = nullptr;
} // namespace

QStringList availableLanguages() { return {QStringLiteral("en"), QStringLiteral("ko"), QStringLiteral("zh_CN")}; }

QString languageName(const QString& code) {
    if (code == QLatin1String("ko")) return QStringLiteral("한국어");
    if (code == QLatin1String("zh_CN")) return QStringLiteral("简体中文");
    return QStringLiteral("English");
}

QString resolveLanguage(const QString& setting) {
    if (!setting.isEmpty()) return availableLanguages().contains(setting) ? setting : QStringLiteral("en");
    const QLocale system = QLocale::system();
    if (system.language() == QLocale::Korean) return QStringLiteral("ko");
    if (system.language() == QLocale::Chinese) return QStringLiteral("zh_CN");
    return QStringLiteral("en");
}

bool installLanguage(const QString& code) {
    auto* app = QCoreApplication::instance();
    for (QTranslator** t : {&appTranslator, &qtTranslator}) {
        if (*t) {
            app->removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
    if (code == QLatin1String("en") || code.isEmpty()) {
        // Still send LanguageChange so windows switch back to the source strings.
        QEvent ev(QEvent::LanguageChange);
        QCoreApplication::sendEvent(app, &ev);
        return true;
    }
    appTranslator = new QTranslator(app);
    if (!appTranslator->load(QStringLiteral(":/i18n/tessel_%1.qm").arg(code))) {
        delete appTranslator;
        appTranslator = nullptr;
        return false;
    }
    app->installTranslator(appTranslator);
    // Qt's own dialogs (file dialog, message box buttons), when Debian has them.
    qtTranslator = new QTranslator(app);
    if (qtTranslator->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app->installTranslator(qtTranslator);
    else {
        delete qtTranslator;
        qtTranslator = nullptr;
    }
    return true;
}

} // namespace tessel::views
