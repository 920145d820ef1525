// bench_ide_graph: how long the IDE's graph view takes to show a model.
//
//   bench_ide_graph [MODEL.onnx] [--runs N] [--export DIR] [--no-limits]
//
// Imports the model (default: <build>/models/resnet50/model.onnx, made by
// scripts/export-models.py), runs the graph pipeline with its per-pass
// snapshots (driver::optimizeModel), and for the imported graph and the fused
// one times what the graph view does on a stage switch: build the document,
// measure the boxes, Graphviz dot layout (views/graph/GraphLayout), and build
// the QGraphicsScene; then the first paint of a 1280x900 view at 100%. Prints the
// median of N runs (default 7) of each. Runs offscreen. With --export, the
// drawings of both stages are also written to DIR as PNG, SVG and DOT;
// --no-limits lays out without the caps on dot's iterations (LayoutInput::fast).
//
// The goal: Graphviz layout + drawing of ResNet-50 under 1 s (median).

#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/ModelCompiler.h"
#include "graph/GraphDocument.h"
#include "graph/GraphExport.h"
#include "graph/GraphLayout.h"
#include "graph/GraphPanel.h"
#include "graph/GraphScene.h"
#include "graph/GraphView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace tessel;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

std::string defaultModel() {
    for (std::string dir :
         {std::string(TESSEL_BINARY_DIR), std::string(TESSEL_SOURCE_DIR) + "/build"}) {
        std::string p = dir + "/models/resnet50/model.onnx";
        if (QFileInfo::exists(QString::fromStdString(p))) return p;
    }
    return std::string(TESSEL_BINARY_DIR) + "/models/resnet50/model.onnx";
}

struct Times {
    std::vector<double> document, layout, scene, total, paint;
};

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    std::string path;
    int runs = 7;
    std::string exportDir;
    bool limits = true;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--no-limits")
            limits = false;
        else if (a == "--export" && i + 1 < argc)
            exportDir = argv[++i];
        else if (a == "-h" || a == "--help") {
            std::printf(
                "usage: bench_ide_graph [MODEL.onnx] [--runs N] [--export DIR] [--no-limits]\n");
            return 0;
        } else
            path = a;
    }
    if (path.empty()) path = defaultModel();
    if (!QFileInfo::exists(QString::fromStdString(path))) {
        std::fprintf(stderr,
                     "bench_ide_graph: %s not found (make it with scripts/export-models.py, or "
                     "pass a path)\n",
                     path.c_str());
        return 1;
    }

    auto model = std::make_shared<driver::CompiledModel>();
    QElapsedTimer importTimer;
    importTimer.start();
    try {
        driver::ModelTrace trace = driver::optimizeModel(path, {});
        model->graph = trace.optimized;
        model->fusion = trace.fusion;
        model->graphStages = trace.stages;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_ide_graph: %s\n", e.what());
        return 1;
    }
    std::printf("model       %s (import + graph pipeline %.0f ms)\n", path.c_str(),
                double(importTimer.elapsed()));
    std::printf("graphviz    %s, %d runs, medians\n\n", views::graphvizVersion().c_str(), runs);

    auto stages = views::graphStagesOf(model);
    std::vector<const views::GraphStageEntry*> picked;
    for (const auto& s : stages)
        if (s.pass == "import" || s.fused) picked.push_back(&s);

    views::GraphScene scene;
    views::GraphView view;
    view.resize(1280, 900);
    view.setScene(&scene);
    QImage canvas(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);

    std::printf("%-10s %6s %6s %8s | %9s %9s %9s %9s | %9s\n", "stage", "nodes", "edges",
                "clusters", "document", "layout", "scene", "total", "1st paint");
    bool underGoal = true;
    for (const auto* stage : picked) {
        Times t;
        size_t nodes = 0, edges = 0, clusters = 0;
        for (int r = 0; r < runs; ++r) {
            QElapsedTimer timer;
            timer.start();
            auto doc = views::GraphDocument::build(*stage, model);
            views::LayoutInput input = scene.layoutInput(*doc);
            input.fast = limits;
            double t0 = timer.nsecsElapsed() / 1e6;
            views::LayoutResult layout = views::computeLayout(input);
            double t1 = timer.nsecsElapsed() / 1e6;
            scene.setGraph(doc, std::move(input), std::move(layout));
            double t2 = timer.nsecsElapsed() / 1e6;
            // The first screenful at 100%, where text is drawn (a fitted
            // ResNet is too small for text and paints faster).
            view.resetTransform();
            view.centerOn(scene.sceneRect().center().x(), scene.sceneRect().top());
            canvas.fill(Qt::white);
            QPainter p(&canvas);
            view.render(&p);
            p.end();
            double t3 = timer.nsecsElapsed() / 1e6;
            t.document.push_back(t0);
            t.layout.push_back(t1 - t0);
            t.scene.push_back(t2 - t1);
            t.total.push_back(t2);
            t.paint.push_back(t3 - t2);
            nodes = doc->nodes.size();
            edges = doc->edges.size();
            clusters = doc->clusters.size();
        }
        if (!exportDir.empty()) {
            QString base = QString::fromStdString(exportDir) + QLatin1Char('/') + stage->pass;
            QString error;
            if (!views::writeGraphPng(scene, base + ".png", &error) ||
                !views::writeGraphSvg(scene, base + ".svg", &error) ||
                !views::writeGraphDot(scene, base + ".dot", &error))
                std::fprintf(stderr, "bench_ide_graph: %s\n", error.toStdString().c_str());
        }
        double total = median(t.total);
        underGoal = underGoal && total + median(t.paint) < 1000;
        std::printf("%-10s %6zu %6zu %8zu | %6.1f ms %6.1f ms %6.1f ms %6.1f ms | %6.1f ms\n",
                    stage->pass.toStdString().c_str(), nodes, edges, clusters, median(t.document),
                    median(t.layout), median(t.scene), total, median(t.paint));
    }

    // The whole view as the IDE uses it: a stage switch on the panel until
    // its layout job is applied (worker thread, result on the GUI thread).
    views::Session session;
    session.setModel(QString::fromStdString(path), model);
    views::GraphPanel panel(&session);
    panel.resize(1280, 900);
    session.jobs()->waitForIdle();
    std::vector<double> panelTimes;
    for (int r = 0; r < runs; ++r) {
        QSignalSpy spy(&panel, &views::GraphPanel::layoutFinished);
        QElapsedTimer timer;
        timer.start();
        panel.setStage(r % 2 ? 0 : int(panel.stages().size()) - 1);
        if (!spy.wait(30000)) {
            std::fprintf(stderr, "bench_ide_graph: the panel's layout did not finish\n");
            return 1;
        }
        panelTimes.push_back(timer.nsecsElapsed() / 1e6);
    }
    std::printf("\npanel stage switch (job + scene, alternating import/fused): %.1f ms\n",
                median(panelTimes));
    std::printf("goal: layout + drawing < 1000 ms: %s\n", underGoal ? "met" : "NOT met");
    return underGoal ? 0 : 2;
}
