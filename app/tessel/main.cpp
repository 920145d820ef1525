// tessel: the IDE. Thin on purpose: the window and views live in views/.
//
//   tessel [FILE.onnx | FILE.te | FILE.tessel] [--example] [--lang ko]
//          [--screenshots DIR] [--measure-startup]

#include "shell/Language.h"
#include "shell/MainWindow.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "code/CodeView.h"
#include "stages/StageView.h"
#include "common/CodeEditor.h"
#include "driver/FunctionArtifacts.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <string_view>
#include <ctime>

using namespace tessel::views;

namespace {

/// Nanoseconds since the launcher started us: the launcher's clock reading in
/// TESSEL_LAUNCH_NS (what bench_ide_startup passes), else our own start time
/// from /proc/self/stat (10 ms resolution).
double msSinceLaunch() {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    double nowNs = double(now.tv_sec) * 1e9 + double(now.tv_nsec);
    QByteArray env = qgetenv("TESSEL_LAUNCH_NS");
    if (!env.isEmpty()) return (nowNs - env.toDouble()) / 1e6;
    QFile stat(QStringLiteral("/proc/self/stat")), uptime(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly)) return -1;
    QByteArray s = stat.readAll();
    QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
    double startTicks = fields.value(19).toDouble();  // field 22: starttime
    double up = uptime.readAll().split(' ').value(0).toDouble();
    return (up - startTicks / double(sysconf(_SC_CLK_TCK))) * 1e3;
}

void describeOptions(QCommandLineParser& p) {
    p.setApplicationDescription(QStringLiteral("Tessel: see and tune deep-learning compilation"));
    p.addHelpOption();
    p.addVersionOption();
    p.addPositionalArgument(QStringLiteral("file"), QStringLiteral("an ONNX model, a .te script or a .tessel project"));
    p.addOptions({{QStringLiteral("example"), QStringLiteral("open the bundled example (ResNet-18 and the GEMM lesson)")},
                  {QStringLiteral("lang"), QStringLiteral("language: en, ko or zh_CN (default: the system's)"),
                   QStringLiteral("code")},
                  {QStringLiteral("screenshots"), QStringLiteral("when everything is loaded, save screenshots into DIR and quit"),
                   QStringLiteral("dir")},
                  {QStringLiteral("measure-startup"), QStringLiteral("print milliseconds from launch to the first paint, and quit")}});
}

} // namespace

int main(int argc, char** argv) {
    // --help and --version print and exit: they need no display.
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a == "--help" || a == "-h" || a == "--version" || a == "-v") {
            QCoreApplication core(argc, argv);
            QCoreApplication::setApplicationVersion(QStringLiteral(TESSEL_VERSION));
            QCommandLineParser p;
            describeOptions(p);
            p.process(core);  // exits
        }
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tessel"));
    QApplication::setApplicationName(QStringLiteral("tessel"));
    QApplication::setApplicationVersion(QStringLiteral(TESSEL_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.tessel.Tessel"));

    QCommandLineParser parser;
    describeOptions(parser);
    const QString example = QStringLiteral("example"), lang = QStringLiteral("lang"),
                  shots = QStringLiteral("screenshots"), startup = QStringLiteral("measure-startup");
    parser.process(app);

    QString language = parser.isSet(lang) ? parser.value(lang) : QSettings().value(QStringLiteral("language")).toString();
    installLanguage(resolveLanguage(language));

    MainWindow window;
    if (parser.isSet(lang)) window.setLanguage(parser.value(lang));

    const QStringList files = parser.positionalArguments();
    if (parser.isSet(startup)) {
        // As a user starts it: the window shown, then the file given opened
        // (its views filled, its lowering started) before the first paint.
        // No example, no recovery bar: they depend on this home's history.
        QObject::connect(&window, &MainWindow::firstPaint, &app, [] {
            std::printf("first paint: %.1f ms\n", msSinceLaunch());
            std::fflush(stdout);
            QCoreApplication::exit(0);
        });
        window.show();
        if (!files.isEmpty()) window.openFile(files.first());
        return app.exec();
    }

    window.show();
    bool firstStart = !QSettings().value(QStringLiteral("started")).toBool();
    QSettings().setValue(QStringLiteral("started"), true);
    if (!files.isEmpty())
        window.openFile(files.first());
    else if (parser.isSet(example) || firstStart)
        window.openExample();
    // Work that an IDE which crashed or was killed left unsaved (autosave):
    // a bar at the top offers it back.
    window.offerRecovery();

    if (parser.isSet(shots)) {
        // Wait until the model compiled and every job (layout, re-lowering)
        // has been quiet for a second, then take the pictures.
        QString dir = parser.value(shots);
        auto* poll = new QTimer(&app);
        auto* quiet = new QElapsedTimer;
        auto* total = new QElapsedTimer;
        total->start();
        bool* ready = new bool(files.isEmpty() ? false : true);
        QObject::connect(&window, &MainWindow::modelReady, &app, [ready] { *ready = true; });
        QObject::connect(&window, &MainWindow::openFailed, &app, [](const QString& e) {
            std::fprintf(stderr, "tessel: %s\n", qPrintable(e));
            QCoreApplication::exit(1);
        });
        QObject::connect(poll, &QTimer::timeout, &app, [&window, dir, poll, quiet, total, ready] {
            if (total->elapsed() > 240000) {
                std::fprintf(stderr, "tessel: the example did not load within 240 s\n");
                QCoreApplication::exit(2);
                return;
            }
            if (!*ready || window.session()->jobs()->runningCount() > 0) {
                quiet->invalidate();
                return;
            }
            if (!quiet->isValid()) quiet->start();
            if (quiet->elapsed() < 1000) return;
            poll->stop();
            // Show the line links in the pictures: click the TIR line that
            // became the most assembly.
            if (auto a = window.session()->artifacts()) {
                const auto& map = a->build.assemblyLines;
                int best = 0;
                for (int l = 1; l < int(map.fromTir.size()); ++l)
                    if (map.linesOf(l).size() > map.linesOf(best).size()) best = l;
                if (auto* code = window.view<CodeView>(); best > 0 && code) {
                    code->activateLine(CodeView::Tir, best);
                    code->pane(CodeView::Tir)->revealLine(best);
                }
            }
            // And a graph pass that changed something, as a diff.
            if (auto* stages = window.view<StageView>())
                stages->selectPass(StageView::GraphPasses, QStringLiteral("fold-scale-shift"));
            QElapsedTimer settle;
            settle.start();
            while (settle.elapsed() < 500) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            for (const QString& f : window.saveScreenshots(dir)) std::printf("%s\n", qPrintable(f));
            std::fflush(stdout);
            QCoreApplication::exit(0);
        });
        poll->start(100);
    }
    return app.exec();
}
