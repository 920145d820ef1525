#include "shell/InputShapes.h"

#include "frontend/OnnxImporter.h"
#include "ir/Diagnostic.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace tessel::views {

namespace {

QString dimName(const ModelInput& in, int i) {
    return i < in.dimNames.size() ? in.dimNames[i] : QString();
}

/// A text line image: at most this high, and this wide when the width is free.
constexpr qint64 kTextLineHeight = 48;
constexpr qint64 kTextLineWidth = 320;

bool batchLike(const QString& name) {
    static const QRegularExpression re(QStringLiteral("^(n|b|bs|batch.*|.*_batch|.*batch_size)$"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re.match(name).hasMatch();
}

/// A dimension name that says what it is, and it is not the batch: a
/// sequence, a length, a size of an image.
bool notBatch(const QString& name) {
    static const QRegularExpression re(
        QStringLiteral("(seq|len|length|time|token|width|height|^w$|^h$|^t$|^l$|^s$|channel|^c$|dim_[1-9])"),
        QRegularExpression::CaseInsensitiveOption);
    return re.match(name).hasMatch();
}

} // namespace

QString ModelInput::describe() const {
    QStringList shown;
    for (int i = 0; i < dims.size(); ++i) {
        const QString n = dimName(*this, i);
        shown << (dims[i] >= 0 ? QString::number(dims[i]) : n.isEmpty() ? QStringLiteral("?") : n);
    }
    return QStringLiteral("%1  %2[%3]").arg(name, dtype, shown.join(QStringLiteral(", ")));
}

QString shapeText(const QVector<qint64>& dims) {
    QStringList parts;
    for (qint64 d : dims)
        parts << (d < 0 ? QStringLiteral("?") : QString::number(d));
    return parts.join(QLatin1Char(','));
}

QVector<qint64> parseShapeText(const QString& name, const QString& text) {
    const auto [parsed, dims] =
        frontend::parseInputShapeBinding((name + QLatin1Char(':') + text.trimmed()).toStdString());
    (void)parsed;
    return QVector<qint64>(dims.begin(), dims.end());
}

QString checkShapeText(const ModelInput& input, const QString& text) {
    if (text.trimmed().isEmpty())
        return QCoreApplication::translate("tessel::views::InputShapesDialog",
                                           "%1: give a shape such as %2")
            .arg(input.name, shapeText(input.dims));
    QVector<qint64> dims;
    try {
        dims = parseShapeText(input.name, text);
    } catch (const CompileError& e) {
        return QString::fromStdString(e.what());
    }
    if (dims.size() != input.dims.size())
        return QCoreApplication::translate("tessel::views::InputShapesDialog",
                                           "%1 has %2 dimensions, %3 given")
            .arg(input.name)
            .arg(input.dims.size())
            .arg(dims.size());
    for (int i = 0; i < dims.size(); ++i) {
        if (dims[i] < 0) {
            const QString n = dimName(input, i);
            return n.isEmpty() ? QCoreApplication::translate(
                                     "tessel::views::InputShapesDialog",
                                     "%1: dimension %2 is unknown (?): give its size")
                                     .arg(input.name)
                                     .arg(i)
                               : QCoreApplication::translate(
                                     "tessel::views::InputShapesDialog",
                                     "%1: dimension %2 (%3) is unknown (?): give its size")
                                     .arg(input.name)
                                     .arg(i)
                                     .arg(n);
        }
        if (dims[i] == 0)
            return QCoreApplication::translate("tessel::views::InputShapesDialog",
                                               "%1: dimension %2 is not a positive number")
                .arg(input.name)
                .arg(i);
        if (input.dims[i] >= 0 && input.dims[i] != dims[i])
            return QCoreApplication::translate("tessel::views::InputShapesDialog",
                                               "%1: dimension %2 is fixed to %3 by the model")
                .arg(input.name)
                .arg(i)
                .arg(input.dims[i]);
    }
    return {};
}

std::map<std::string, std::vector<int64_t>> importShapes(const QMap<QString, QString>& shapes) {
    std::map<std::string, std::vector<int64_t>> out;
    for (auto it = shapes.begin(); it != shapes.end(); ++it) {
        const QVector<qint64> dims = parseShapeText(it.key(), it.value());
        out[it.key().toStdString()] = std::vector<int64_t>(dims.begin(), dims.end());
    }
    return out;
}

QVector<QVector<qint64>> suggestShapes(const QVector<ModelInput>& inputs) {
    QVector<QVector<qint64>> out;
    for (const auto& in : inputs)
        out << in.dims;
    // The batch.
    for (int k = 0; k < inputs.size(); ++k)
        for (int i = 0; i < out[k].size(); ++i) {
            const QString n = dimName(inputs[k], i);
            // The first dimension is the batch unless its name says it is something
            // else; exporters name it anything ("p2o.DynamicDimension.0", "unk__0").
            if (out[k][i] < 0 && (batchLike(n) || (i == 0 && out[k].size() >= 2 && !notBatch(n))))
                out[k][i] = 1;
        }
    // Images are square; dimensions that share a name share their value.
    // 224 x 224, the common size, only for images nothing else says anything about.
    auto imageSides = [](const QVector<qint64>& dims) {
        auto channels = [](qint64 c) { return c == 1 || c == 3 || c == 4; };
        if (dims.size() != 4) return -1;
        return channels(dims[1]) ? 2 : channels(dims[3]) ? 1 : -1; // NCHW, NHWC
    };
    auto square = [&] {
        bool changed = false;
        for (auto& dims : out) {
            const int h = imageSides(dims);
            if (h < 0 || (dims[h] < 0) == (dims[h + 1] < 0)) continue;
            // A text line (a recogniser's input: a fixed height of at most 48
            // and a free width) is wide, 320 as PaddleOCR's 48 x 320; other
            // images with one side fixed are square.
            if (dims[h] > 0 && dims[h] <= kTextLineHeight && dims[h + 1] < 0)
                dims[h + 1] = kTextLineWidth;
            else
                dims[h] = dims[h + 1] = qMax(dims[h], dims[h + 1]);
            changed = true;
        }
        return changed;
    };
    auto shareNames = [&] {
        QMap<QString, qint64> named;
        for (int k = 0; k < inputs.size(); ++k)
            for (int i = 0; i < out[k].size(); ++i)
                if (const QString n = dimName(inputs[k], i); !n.isEmpty() && out[k][i] > 0)
                    named.insert(n, out[k][i]);
        bool changed = false;
        for (int k = 0; k < inputs.size(); ++k)
            for (int i = 0; i < out[k].size(); ++i)
                if (const QString n = dimName(inputs[k], i); out[k][i] < 0 && named.contains(n)) {
                    out[k][i] = named.value(n);
                    changed = true;
                }
        return changed;
    };
    auto commonSize = [&] {
        for (auto& dims : out)
            if (const int h = imageSides(dims); h >= 0 && dims[h] < 0 && dims[h + 1] < 0) {
                dims[h] = dims[h + 1] = 224;
                return true;
            }
        return false;
    };
    while (square() || shareNames() || commonSize()) {
    }
    return out;
}

} // namespace tessel::views
