// The Korean and Chinese translations are complete: every message of the
// .ts files has a finished, non-empty translation with the same %-placeholders
// as its source, and the embedded .qm translates the main menus.

#include "shell/Language.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QXmlStreamReader>
#include <QtTest>

using namespace tessel::views;

class TestTranslations : public QObject {
    Q_OBJECT
private slots:
    void complete_data();
    void complete();
    void embedded();
};

namespace {

QSet<QString> placeholders(const QString& s) {
    QSet<QString> out;
    static const QRegularExpression re(QStringLiteral("%L?\\d+|%n"));
    auto it = re.globalMatch(s);
    while (it.hasNext()) out.insert(it.next().captured());
    return out;
}

} // namespace

void TestTranslations::complete_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("ko") << QStringLiteral(TESSEL_SOURCE_DIR "/translations/tessel_ko.ts");
    QTest::newRow("zh_CN") << QStringLiteral(TESSEL_SOURCE_DIR "/translations/tessel_zh_CN.ts");
}

void TestTranslations::complete() {
    QFETCH(QString, file);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    int messages = 0;
    QString source, context;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("name")) context = xml.readElementText();
        else if (xml.name() == QLatin1String("source")) source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation")) {
            ++messages;
            QString type = xml.attributes().value(QStringLiteral("type")).toString();
            bool numerus = false;
            QString text;
            // Numerus messages keep their forms in <numerusform> children.
            while (!(xml.isEndElement() && xml.name() == QLatin1String("translation")) && !xml.atEnd()) {
                xml.readNext();
                if (xml.isCharacters()) text += xml.text();
                if (xml.isStartElement() && xml.name() == QLatin1String("numerusform")) numerus = true;
            }
            QString where = context + QStringLiteral(": ") + source;
            QVERIFY2(type != QLatin1String("unfinished") && type != QLatin1String("vanished") &&
                         type != QLatin1String("obsolete"),
                     qPrintable(QStringLiteral("unfinished: ") + where));
            QVERIFY2(!text.trimmed().isEmpty(), qPrintable(QStringLiteral("empty: ") + where));
            if (!numerus) QCOMPARE(placeholders(text), placeholders(source));
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(messages > 100);
}

void TestTranslations::embedded() {
    for (const QString& code : {QStringLiteral("ko"), QStringLiteral("zh_CN")}) {
        QVERIFY2(installLanguage(code), qPrintable(code));
        QString file = QCoreApplication::translate("tessel::views::MainWindow", "&File");
        QVERIFY2(file != QLatin1String("&File") && !file.isEmpty(), qPrintable(code + QStringLiteral(": ") + file));
    }
    QVERIFY(installLanguage(QStringLiteral("en")));
    QCOMPARE(QCoreApplication::translate("tessel::views::MainWindow", "&File"), QStringLiteral("&File"));
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
