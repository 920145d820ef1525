/// \file
/// Input shapes as the IDE handles them, in the compiler's one format: the
/// dimensions of `tesselc --input-shape NAME:D0,D1,...` ("1,3,224,224"), read
/// by frontend::parseInputShapeBinding. The shape dialog, the Session, project
/// files and every compile the IDE starts use this text; nothing else parses
/// shapes.
///
/// A model's dynamic dimensions get suggestions from the model itself where it
/// says enough (suggestShapes): the batch, a dimension sharing its `dim_param`
/// with one that has a value, the other side of a square image. Where it does
/// not, the dimension stays unknown ("?") for the user to give.
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessel::views {

/// One model input as the dialog shows it.
struct ModelInput {
    QString name;
    QString dtype;
    QVector<qint64> dims; ///< -1 for a dynamic dimension
    QStringList dimNames; ///< the model's `dim_param` per dimension ("" or absent: none)
    bool dynamic() const { return dims.contains(-1); }
    /// "x  float32[1, 3, 48, W]": dynamic dimensions by their name, or "?".
    QString describe() const;
};

/// "1,3,224,224": `dims` in the compiler's format, -1 written as "?".
QString shapeText(const QVector<qint64>& dims);

/// The dimensions `text` gives input `name`, read by the compiler's parser
/// ("?" is -1). Throws CompileError with the parser's message.
QVector<qint64> parseShapeText(const QString& name, const QString& text);

/// Checks `text` for `input`: the compiler's format, the input's rank, every
/// dimension known and positive, and equal to the model's where it is fixed.
/// Returns an error message, or "" when the shape can be compiled.
QString checkShapeText(const ModelInput& input, const QString& text);

/// `shapes` (input name -> shapeText) as frontend::ImportOptions::inputShapes.
/// Throws CompileError naming the input whose text does not parse.
std::map<std::string, std::vector<int64_t>> importShapes(const QMap<QString, QString>& shapes);

/// Per input, its dimensions with the dynamic ones filled where the model
/// hints at a value, and -1 where it does not:
/// - a batch dimension (the first of an input of rank 2 or more, unless its
///   name says it is something else — a sequence, a length, a width —, or
///   any dimension named like "batch" or "N") is 1;
/// - an image (rank 4 with 1, 3 or 4 channels, NCHW or NHWC) whose height or
///   width is fixed is square, except a text line (a fixed height of at most
///   48 and a free width: a recogniser's input), which is 320 wide; with
///   neither fixed it is 224 x 224;
/// - dimensions that share a `dim_param` share the value one of them gets.
QVector<QVector<qint64>> suggestShapes(const QVector<ModelInput>& inputs);

} // namespace tessel::views
