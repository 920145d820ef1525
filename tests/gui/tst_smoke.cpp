// Smoke test: the real `tessel` under Xvfb on the bundled example. It waits
// until the example model compiled and the views settled, saves screenshots
// (tessel --screenshots), and this test checks that each picture exists, has
// a sensible size and is not one flat colour (an empty or unpainted view).
// Besides the default screen, it runs on the screens people have, 1366 x 768
// and 1920 x 1080: the first window fits each, and its pictures are kept per
// size (build/screenshots/1366x768/ ...) to look at. The Korean window at
// 1366 x 768 and the Chinese one at 1920 x 1080 go to screenshots/ko-1366x768
// and zh_CN-1920x1080; before them, every translated string of
// translations/*.ts is laid out in the IDE's font and no glyph may be missing
// (a box, as on a machine without CJK fonts: scripts/install-deps.sh brings them).

#include <QApplication>
#include <QDir>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QGlyphRun>
#include <QImage>
#include <QRawFont>
#include <QTextLayout>
#include <QXmlStreamReader>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TestSmoke : public QObject {
    Q_OBJECT
private slots:
    void everyTranslationHasItsGlyphs_data();
    void everyTranslationHasItsGlyphs();
    void exampleUnderXvfb_data();
    void exampleUnderXvfb();
};

namespace {

/// Distinct colours among a grid of samples: a blank view has one or two.
int distinctColours(const QImage& img) {
    QSet<QRgb> seen;
    for (int y = 0; y < img.height(); y += qMax(1, img.height() / 60))
        for (int x = 0; x < img.width(); x += qMax(1, img.width() / 60)) seen.insert(img.pixel(x, y));
    return seen.size();
}

/// Every translation (numerus forms included) of a .ts file.
QStringList translationsOf(const QString& tsFile) {
    QFile f(tsFile);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QStringList out;
    QXmlStreamReader xml(&f);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("translation")) {
            // Numerus forms are child elements: their texts run together, which is fine for glyphs.
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (!text.trimmed().isEmpty()) out << text;
        }
    }
    return out;
}

/// The characters of `text` that `font` has no glyph for, with Qt's font
/// fallback (as a label draws them): glyph 0 of a run is the ".notdef" box a
/// missing character draws; the characters no font of the runs supports are
/// the culprits.
QString missingGlyphs(QString text, const QFont& font) {
    text.replace(QLatin1Char('\n'), QChar::LineSeparator).replace(QLatin1Char('\t'), QLatin1Char(' '));
    QTextLayout layout(text, font);
    layout.beginLayout();
    while (layout.createLine().isValid()) {
    }
    layout.endLayout();
    const QList<QGlyphRun> runs = layout.glyphRuns();
    bool box = false;
    for (const QGlyphRun& run : runs) box = box || run.glyphIndexes().contains(0);
    if (!box) return {};
    QString missing;
    for (QChar c : std::as_const(text)) {
        if (c.isSpace() || !c.isPrint() || missing.contains(c)) continue;
        bool found = false;
        for (const QGlyphRun& run : runs) found = found || run.rawFont().supportsCharacter(c);
        if (!found) missing += c;
    }
    return missing.isEmpty() ? QStringLiteral("?") : missing;
}

} // namespace

void TestSmoke::everyTranslationHasItsGlyphs_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("ko") << QStringLiteral("ko");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

void TestSmoke::everyTranslationHasItsGlyphs() {
    QFETCH(QString, language);
    const QString ts = QStringLiteral(TESSEL_SOURCE_DIR "/translations/tessel_%1.ts").arg(language);
    const QStringList texts = translationsOf(ts);
    QVERIFY2(texts.size() > 500, qPrintable(QStringLiteral("%1 translations in %2").arg(texts.size()).arg(ts)));
    // The IDE's widgets draw with the application font; the code panes with
    // the fixed one (messages and file names in them may be translated too).
    QStringList problems;
    for (const QFont& font : {QApplication::font(), QFontDatabase::systemFont(QFontDatabase::FixedFont)}) {
        QFont f = font;
        for (const QString& text : texts) {
            const QString missing = missingGlyphs(text, f);
            if (!missing.isEmpty())
                problems << QStringLiteral("[%1] %2: %3").arg(f.family(), missing, text.left(60));
            if (problems.size() > 10) break;
        }
    }
    QVERIFY2(problems.isEmpty(),
             qPrintable(QStringLiteral("glyphs missing (install fonts-wqy-microhei and fonts-nanum, "
                                       "scripts/install-deps.sh):\n") +
                        problems.join(QLatin1Char('\n'))));
}

void TestSmoke::exampleUnderXvfb_data() {
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("language");
    QTest::newRow("1600x1000") << QSize(1600, 1000) << QString() << QString();
    QTest::newRow("1366x768") << QSize(1366, 768) << QStringLiteral("/1366x768") << QString();
    QTest::newRow("1920x1080") << QSize(1920, 1080) << QStringLiteral("/1920x1080") << QString();
    // The translated windows, each at one of the sizes people have.
    QTest::newRow("ko 1366x768") << QSize(1366, 768) << QStringLiteral("/ko-1366x768") << QStringLiteral("ko");
    QTest::newRow("zh_CN 1920x1080") << QSize(1920, 1080) << QStringLiteral("/zh_CN-1920x1080") << QStringLiteral("zh_CN");
}

void TestSmoke::exampleUnderXvfb() {
    QFETCH(QSize, screen);
    QFETCH(QString, folder);
    QFETCH(QString, language);
    QString xvfb = QStandardPaths::findExecutable(QStringLiteral("xvfb-run"));
    if (xvfb.isEmpty()) QSKIP("xvfb-run is not installed (apt-get install xvfb xauth)");
    QString tessel = QStringLiteral(TESSEL_BINARY_DIR "/bin/tessel");
    QVERIFY2(QFileInfo::exists(tessel), qPrintable(tessel + " was not built"));

    // Screenshots stay in the build folder so a person can look at them.
    QString out = QStringLiteral(TESSEL_BINARY_DIR "/screenshots") + folder;
    for (const QString& f : QDir(out).entryList({QStringLiteral("*.png")}, QDir::Files)) QFile::remove(out + QLatin1Char('/') + f);
    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));  // the real X server, not offscreen
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home.path() + QStringLiteral("/cache"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    const QString geometry = QStringLiteral("-screen 0 %1x%2x24").arg(screen.width()).arg(screen.height());
    QStringList args{QStringLiteral("-a"), QStringLiteral("-s"), geometry, tessel,
                     QStringLiteral("--example"), QStringLiteral("--screenshots"), out};
    if (!language.isEmpty()) args << QStringLiteral("--lang") << language;
    p.start(xvfb, args);
    QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
    QVERIFY2(p.waitForFinished(280000), "tessel did not finish within 280 s");
    QByteArray log = p.readAll();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, log.constData());

    for (const char* name : {"window", "graph", "code", "schedule", "stages", "lesson", "tuning", "compare"}) {
        QString f = out + QLatin1Char('/') + QString::fromLatin1(name) + QStringLiteral(".png");
        QImage img(f);
        QVERIFY2(!img.isNull(), qPrintable(f + " missing or unreadable\n" + QString::fromUtf8(log)));
        QVERIFY2(img.width() >= 200 && img.height() >= 150, qPrintable(f + " is too small"));
        QVERIFY2(distinctColours(img) > 8, qPrintable(f + " looks blank"));
    }
    QImage window(out + QStringLiteral("/window.png"));
    QVERIFY2(window.width() >= 1000, "the main window is narrower than 1000 px");
    QVERIFY2(window.width() <= screen.width() && window.height() <= screen.height(),
             qPrintable(QStringLiteral("a %1x%2 window on a %3x%4 screen")
                            .arg(window.width())
                            .arg(window.height())
                            .arg(screen.width())
                            .arg(screen.height())));
}

QTEST_MAIN(TestSmoke)
#include "tst_smoke.moc"
