// bench_ide_edit: how long the schedule editor takes from an edit of a schedule
// to updated TIR, LLVM IR and assembly in the session (the target: under
// 150 ms at the 95th percentile, for the GEMM and a ResNet conv2d).
//
// The editor shows the texts in two steps (ScheduleDocument): the TIR, the
// LLVM IR (before and after optimisation) and the C as soon as they are made,
// with the assembly pane saying the assembly is being made, then the same
// texts with the assembly. Both are timed: "edit->IR" to the first step (what
// the p95 target is checked against: every text but the assembly, up to date,
// nothing stale shown), "edit->asm" to the second (everything).
//
// Drives the real ScheduleEditor offscreen with its event loop running: opens
// the GEMM ladder's step 7 as a script and the first convolution of ResNet-18 as
// a model function, then applies N edits to each (a split factor changed back
// and forth, one undoable text edit each) and times every edit from the text
// change to the session's artifactsChanged. Each edit comes after a pause, so
// the editor lowers at once (its debounce only groups keys typed within
// debounceMs() of each other); "edit->texts" is what the user waits, and
// "from lowering start" starts when the lowering job starts.
//
//   bench_ide_edit [--edits N] [--gemm FILE.te] [--model MODEL.onnx] [--no-model]
//   bench_ide_edit --breakdown [--gemm FILE.te]   where one lowering's time goes
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "schedule/ScheduleEditor.h"
#include "common/CodeEditor.h"

#if __has_include("frontend/ModelZoo.h")
#include "frontend/ModelZoo.h"
#define TESSEL_HAVE_ZOO 1
#endif

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTextBlock>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

using namespace tessel;
using namespace tessel::views;

namespace {

struct Stats {
    double median = 0, p95 = 0;
};

/// Median and nearest-rank 95th percentile.
Stats stats(std::vector<double> v) {
    Stats s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    s.p95 = v[std::min(n - 1, size_t(std::ceil(0.95 * double(n))) - 1)];
    return s;
}

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

/// Runs the event loop until `done` or `timeoutMs`; false on timeout.
template <class F> bool waitFor(F done, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QThread::msleep(1);
    }
    return true;
}

struct Result {
    QString name;
    int edits = 0;
    Stats total, afterDebounce, compile, lower, codegen, withAssembly;
    QString error;
};

/// Applies `edits` edits to the editor's text: the number matched by `pattern`
/// (one capture) on the first line it matches goes to `a`, then `b`, and so on.
Result measureEdits(const QString& name, Session& session, ScheduleEditor& editor, const QRegularExpression& pattern,
                    int a, int b, int edits) {
    Result r;
    r.name = name;
    QElapsedTimer clock;
    clock.start();
    qint64 started = -1, done = -1, all = -1;
    bool failed = false;
    QString failure;
    auto c1 = QObject::connect(editor.document(), &ScheduleDocument::relowerStarted, [&] { started = clock.nsecsElapsed(); });
    auto c2 = QObject::connect(&session, &Session::artifactsChanged, [&] {
        // The first step (no assembly yet), then the texts with the assembly.
        const auto a = session.artifacts();
        if (!a) return;
        if (done < 0) done = clock.nsecsElapsed();
        if (a->hasAssembly) all = clock.nsecsElapsed();
    });
    auto c3 = QObject::connect(editor.document(), &ScheduleDocument::relowered, [&](bool ok) {
        if (!ok) {
            failed = true;
            failure = editor.document()->statusText();
        }
    });
    std::vector<double> totals, afters, compiles, lowers, codegens, alls;
    const int warmup = 2;
    for (int i = 0; i < edits + warmup && !failed; ++i) {
        QTextDocument* doc = editor.editor()->document();
        QTextBlock block = doc->begin();
        QRegularExpressionMatch m;
        for (; block.isValid(); block = block.next())
            if ((m = pattern.match(block.text())).hasMatch()) break;
        if (!block.isValid()) {
            r.error = QStringLiteral("no line matches %1").arg(pattern.pattern());
            break;
        }
        const int value = (i % 2 == 0) ? b : a;
        QString line = block.text();
        line.replace(m.capturedStart(1), m.capturedLength(1), QString::number(value));
        started = done = all = -1;
        const qint64 edited = clock.nsecsElapsed();
        QTextCursor c(block);
        c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        c.insertText(line); // one edit, as a keystroke or a paste is
        if (!waitFor([&] { return all >= 0 || failed; }, 120000)) {
            r.error = QStringLiteral("no artifacts after 120 s");
            break;
        }
        if (failed) break;
        if (i < warmup) continue;
        totals.push_back(double(done - edited) / 1e6);
        alls.push_back(double(all - edited) / 1e6);
        afters.push_back(double(done - started) / 1e6);
        auto art = session.artifacts();
        compiles.push_back(art ? art->lowerMs + art->codegenMs : 0);
        lowers.push_back(art ? art->lowerMs : 0);
        codegens.push_back(art ? art->codegenMs : 0);
        // Let the GUI settle (outline, status) before the next edit, as a user would.
        waitFor([&] { return !editor.document()->isRelowering() && !editor.document()->isMakingAssembly(); }, 10000);
    }
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    QObject::disconnect(c3);
    if (failed) r.error = QStringLiteral("lowering failed: ") + failure;
    r.edits = int(totals.size());
    r.total = stats(totals);
    r.withAssembly = stats(alls);
    r.afterDebounce = stats(afters);
    r.compile = stats(compiles);
    r.lower = stats(lowers);
    r.codegen = stats(codegens);
    return r;
}

/// The ResNet-18 model: the given path, a build's exported model, or the zoo.
QString findModel(const QString& given) {
    if (!given.isEmpty()) return given;
    for (const QString& p : {QStringLiteral(TESSEL_BINARY_DIR "/models/resnet18/model.onnx"),
                             QStringLiteral(TESSEL_SOURCE_DIR "/build/models/resnet18/model.onnx")})
        if (QFileInfo::exists(p)) return p;
#ifdef TESSEL_HAVE_ZOO
    const std::string path = TESSEL_BINARY_DIR "/bench_ide_edit_resnet18.onnx";
    frontend::writeZooModel("resnet18", path, 1);
    return QString::fromStdString(path);
#else
    return {};
#endif
}

/// Where the time of one lowering goes: compileScriptArtifacts with parts of
/// its work turned off (no GUI), median of `n` runs each.
void breakdown(const QString& script, const QString& name, int n) {
    struct Variant {
        const char* what;
        driver::ArtifactOptions options;
    };
    std::vector<Variant> variants(5);
    variants[0].what = "as the editor asks (O3, snapshots, C)";
    variants[1].what = "no per-pass TIR snapshots";
    variants[1].options.snapshots = false;
    variants[2].what = "no C";
    variants[2].options.emitC = false;
    variants[3].what = "LLVM at O2";
    variants[3].options.request.optLevel = 2;
    variants[4].what = "LLVM at O1";
    variants[4].options.request.optLevel = 1;
    const std::string text = script.toStdString(), file = name.toStdString();
    std::printf("\nbreakdown of one lowering of %s (median of %d, no GUI):\n", qPrintable(name), n);
    for (auto& v : variants) {
        std::vector<double> total, lower, codegen;
        for (int i = 0; i < n; ++i) {
            QElapsedTimer t;
            t.start();
            auto a = driver::compileScriptArtifacts(text, file, {}, v.options);
            total.push_back(double(t.nsecsElapsed()) / 1e6);
            lower.push_back(a.lowerMs);
            codegen.push_back(a.codegenMs);
        }
        std::printf("  %-40s total %7.1f ms  (script + TIR %6.1f, LLVM + C %6.1f)\n", v.what, stats(total).median,
                    stats(lower).median, stats(codegen).median);
    }
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int edits = 30;
    QString gemmPath = QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm/07_parallel.te");
    QString modelArg;
    bool withModel = true;
    int breakdownRuns = 0;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--edits") && i + 1 < args.size()) edits = args[++i].toInt();
        else if (args[i] == QLatin1String("--gemm") && i + 1 < args.size()) gemmPath = args[++i];
        else if (args[i] == QLatin1String("--model") && i + 1 < args.size()) modelArg = args[++i];
        else if (args[i] == QLatin1String("--no-model")) withModel = false;
        else if (args[i] == QLatin1String("--breakdown")) breakdownRuns = 10;
        else {
            std::fprintf(stderr, "usage: bench_ide_edit [--edits N] [--gemm FILE.te] [--model MODEL.onnx] [--no-model] [--breakdown]\n");
            return 2;
        }
    }

    if (breakdownRuns) {
        breakdown(readText(gemmPath), QFileInfo(gemmPath).fileName(), breakdownRuns);
        const QString model = withModel ? findModel(modelArg) : QString();
        if (!model.isEmpty() && QFileInfo::exists(model)) {
            driver::CompileOptions options;
            options.trace = true;
            const auto compiled = driver::compileModel(model.toStdString(), {}, options);
            for (auto& f : compiled.functions)
                if (f.name.find("conv") != std::string::npos) {
                    breakdown(QString::fromStdString(f.script), QString::fromStdString(f.name + ".te"), breakdownRuns);
                    break;
                }
        }
        return 0;
    }

    Session session;
    ScheduleEditor editor(&session);
    // Cold edits: the toggled factors would otherwise come from the artifact cache.
    editor.document()->setArtifactCache(nullptr);
    editor.resize(1400, 900);
    editor.show();
    std::vector<Result> results;

    // The GEMM: step 7 of the ladder, its k split factor 4 <-> 8.
    const QString gemm = readText(gemmPath);
    if (gemm.isEmpty()) {
        std::fprintf(stderr, "bench_ide_edit: cannot read %s\n", qPrintable(gemmPath));
        return 1;
    }
    session.setScript(gemmPath, gemm);
    if (!waitFor([&] { return !editor.document()->isRelowering() && session.artifacts(); }, 120000)) {
        std::fprintf(stderr, "bench_ide_edit: %s did not lower: %s\n", qPrintable(gemmPath), qPrintable(editor.document()->statusText()));
        return 1;
    }
    results.push_back(measureEdits(QStringLiteral("GEMM 1024^3, %1").arg(QFileInfo(gemmPath).fileName()), session, editor,
                                   QRegularExpression(QStringLiteral("^kfactor = (\\d+)")), 4, 8, edits));

    // A ResNet-18 convolution as a model function: its split factor F <-> F/2.
    if (withModel) {
        const QString model = findModel(modelArg);
        if (model.isEmpty() || !QFileInfo::exists(model)) {
            std::printf("ResNet-18: no model (run scripts/export-models.py, or pass --model); skipped\n");
        } else {
            QElapsedTimer t;
            t.start();
            driver::CompileOptions options;
            options.trace = true;
            auto compiled = std::make_shared<const driver::CompiledModel>(driver::compileModel(model.toStdString(), {}, options));
            std::printf("ResNet-18 compiled with its trace in %.1f s (%zu functions)\n", t.elapsed() / 1e3,
                        compiled->functions.size());
            const driver::FusedFunction* conv = nullptr;
            for (auto& f : compiled->functions)
                if (f.name.find("conv") != std::string::npos) {
                    conv = &f;
                    break;
                }
            if (!conv) {
                std::printf("ResNet-18: no convolution function; skipped\n");
            } else {
                session.setModel(model, compiled);
                session.selectFunction(QString::fromStdString(conv->name));
                if (!waitFor([&] { return !editor.document()->isRelowering() && session.artifacts(); }, 120000)) {
                    std::fprintf(stderr, "bench_ide_edit: %s did not lower\n", conv->name.c_str());
                    return 1;
                }
                const QRegularExpression split(QStringLiteral("\\.split\\(.*factor=(\\d+)\\)"));
                int f = 0;
                for (const auto& line : editor.document()->text().split(QLatin1Char('\n')))
                    if (auto m = split.match(line); m.hasMatch()) {
                        f = m.captured(1).toInt();
                        break;
                    }
                if (f == 0) {
                    std::printf("ResNet-18 %s: its script has no split factor to edit; skipped\n", conv->name.c_str());
                } else {
                    results.push_back(measureEdits(
                        QStringLiteral("ResNet-18 %1").arg(QString::fromStdString(conv->name)), session, editor, split, f,
                        f % 2 == 0 ? f / 2 : f * 2, edits));
                }
            }
        }
    }

    std::printf("\nschedule edit -> TIR + LLVM IR + assembly in the session (offscreen, event loop running)\n");
    std::printf("each edit after a pause: lowering starts at once (the %d ms debounce groups only keys typed "
                "closer together)\n",
                editor.document()->debounceMs());
    std::printf("machine: %u hardware threads, load average %s (other processes share the cores)\n\n",
                std::thread::hardware_concurrency(), qPrintable(readText(QStringLiteral("/proc/loadavg")).section(QLatin1Char(' '), 0, 2)));
    std::printf("%-34s %5s  %21s  %21s  %21s  %21s\n", "", "", "edit->IR (ms)", "edit->asm (ms)", "from lowering start",
                "lower+codegen (ms)");
    std::printf("%-34s %5s  %10s %10s  %10s %10s  %10s %10s  %10s %10s\n", "case", "edits", "median", "p95", "median", "p95",
                "median", "p95", "median", "p95");
    int rc = 0;
    for (const auto& r : results) {
        if (!r.error.isEmpty()) {
            std::printf("%-34s  error: %s\n", qPrintable(r.name), qPrintable(r.error));
            rc = 1;
            continue;
        }
        std::printf("%-34s %5d  %10.1f %10.1f  %10.1f %10.1f  %10.1f %10.1f  %10.1f %10.1f\n", qPrintable(r.name), r.edits,
                    r.total.median, r.total.p95, r.withAssembly.median, r.withAssembly.p95, r.afterDebounce.median,
                    r.afterDebounce.p95, r.compile.median, r.compile.p95);
        std::printf("%-34s        of which: script + TIR passes median %.1f ms (p95 %.1f), LLVM + C median %.1f ms (p95 %.1f)\n",
                    "", r.lower.median, r.lower.p95, r.codegen.median, r.codegen.p95);
    }
    std::printf("\nedit->IR: TIR, LLVM IR and C shown (the assembly pane says it is being made); edit->asm: the assembly too\n");
    std::printf("from lowering start and lower+codegen: the first step\n");
    std::printf("target: edit->IR p95 < 150 ms\n");
    return rc;
}
