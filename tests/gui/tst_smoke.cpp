// Smoke test: the real `tessel` under Xvfb on the bundled example. It waits
// until the example model compiled and the views settled, saves screenshots
// (tessel --screenshots), and this test checks that each picture exists, has
// a sensible size and is not one flat colour (an empty or unpainted view).
// Besides the default screen, it runs on the screens people have, 1366 x 768
// and 1920 x 1080: the first window fits each, and its pictures are kept per
// size (build/screenshots/1366x768/ ...) to look at.

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TestSmoke : public QObject {
    Q_OBJECT
private slots:
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

} // namespace

void TestSmoke::exampleUnderXvfb_data() {
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<QString>("folder");
    QTest::newRow("1600x1000") << QSize(1600, 1000) << QString();
    QTest::newRow("1366x768") << QSize(1366, 768) << QStringLiteral("/1366x768");
    QTest::newRow("1920x1080") << QSize(1920, 1080) << QStringLiteral("/1920x1080");
}

void TestSmoke::exampleUnderXvfb() {
    QFETCH(QSize, screen);
    QFETCH(QString, folder);
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
    p.start(xvfb, {QStringLiteral("-a"), QStringLiteral("-s"), geometry, tessel,
                   QStringLiteral("--example"), QStringLiteral("--screenshots"), out});
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

QTEST_GUILESS_MAIN(TestSmoke)
#include "tst_smoke.moc"
