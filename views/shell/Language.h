/// \file
/// The IDE's languages: English in the source, Korean and Simplified Chinese
/// built in as `:/i18n/tessel_<code>.qm` (qt_add_translations). The language
/// follows the system locale unless the user picked one in Settings.
#pragma once

#include <QString>
#include <QStringList>

namespace tessel::views {

/// The language codes with a built-in translation, plus "en".
QStringList availableLanguages();
/// The language's own name ("한국어", "简体中文", "English").
QString languageName(const QString& code);
/// The code a setting resolves to: "" means the system locale's language if
/// it is available, else "en".
QString resolveLanguage(const QString& setting);
/// Installs the translators for `code` (removing earlier ones) and returns
/// whether a translation was loaded ("en" needs none and returns true).
bool installLanguage(const QString& code);

} // namespace tessel::views
