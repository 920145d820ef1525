#include "graph/GraphExport.h"

#include "graph/GraphScene.h"

#include <QCoreApplication>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <cmath>

namespace tessel::views {

namespace {

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

bool checkScene(const GraphScene& scene, QString* error) {
    if (scene.sceneRect().isEmpty())
        return fail(error, QCoreApplication::translate("tessel::views::GraphExport",
                                                       "There is no graph to export."));
    return true;
}

} // namespace

bool writeGraphSvg(GraphScene& scene, const QString& path, QString* error) {
    if (!checkScene(scene, error)) return false;
    QRectF source = scene.sceneRect();
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(source.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
    svg.setResolution(96);
    auto doc = scene.document();
    svg.setTitle(doc ? QString::fromStdString(doc->graph ? doc->graph->name() : std::string())
                     : QString());
    svg.setDescription(doc ? doc->stage.title : QString());
    QPainter painter;
    if (!painter.begin(&svg))
        return fail(error,
                    QCoreApplication::translate("tessel::views::GraphExport", "Cannot write %1.")
                        .arg(path));
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    painter.end();
    if (!QFile::exists(path) || QFile(path).size() == 0)
        return fail(error,
                    QCoreApplication::translate("tessel::views::GraphExport", "Cannot write %1.")
                        .arg(path));
    return true;
}

bool writeGraphPng(GraphScene& scene, const QString& path, QString* error) {
    if (!checkScene(scene, error)) return false;
    QRectF source = scene.sceneRect();
    // 2x for sharp text; big graphs get less so the image stays under 64 MP
    // and every side under QPainter's 32k limit.
    double scale = 2.0;
    double area = source.width() * source.height();
    scale = std::min(scale, std::sqrt(64e6 / std::max(area, 1.0)));
    scale = std::min({scale, 32000.0 / source.width(), 32000.0 / source.height()});
    QSize size(std::max(1, int(std::ceil(source.width() * scale))),
               std::max(1, int(std::ceil(source.height() * scale))));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return fail(error, QCoreApplication::translate("tessel::views::GraphExport",
                                                       "The graph is too large for an image."));
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing |
                           QPainter::SmoothPixmapTransform);
    scene.render(&painter, QRectF(image.rect()), source);
    painter.end();
    if (!image.save(path, "PNG"))
        return fail(error,
                    QCoreApplication::translate("tessel::views::GraphExport", "Cannot write %1.")
                        .arg(path));
    return true;
}

bool writeGraphDot(const GraphScene& scene, const QString& path, QString* error) {
    if (!scene.document() || !scene.document()->graph)
        return fail(error, QCoreApplication::translate("tessel::views::GraphExport",
                                                       "There is no graph to export."));
    std::string text = toDot(scene.layoutInputUsed(), &scene.layout());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return fail(error,
                    QCoreApplication::translate("tessel::views::GraphExport", "Cannot write %1: %2")
                        .arg(path, file.errorString()));
    file.write(text.data(), qint64(text.size()));
    if (!file.commit())
        return fail(error,
                    QCoreApplication::translate("tessel::views::GraphExport", "Cannot write %1: %2")
                        .arg(path, file.errorString()));
    return true;
}

} // namespace tessel::views
