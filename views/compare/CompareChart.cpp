#include "compare/CompareChart.h"

#include "compare/CompareTable.h"
#include "driver/ModelCompare.h"

#include <algorithm>
#include <cmath>

namespace tessel::views {

namespace {

const QColor kColourA(70, 130, 200);
const QColor kColourB(235, 140, 40);
const QColor kFaster(20, 120, 40);
const QColor kSlower(170, 40, 30);

/// Pixels per category (a pair of bars) and around them.
constexpr int kRowPixels = 34;
constexpr int kFramePixels = 120;

} // namespace

CompareChart::CompareChart(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("CompareChart"));
    setMinimumSize(320, 220);
    setToolTip(tr("Milliseconds per run of the model, per fused function and end to end, for side A and "
                  "side B (log scale). Beside each pair: B's time divided by A's, green where B is faster."));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    QFont bold = small;
    bold.setBold(true);

    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(), bold);
    plotLayout()->addElement(0, 0, title_);

    barsA_ = new QCPBars(yAxis, xAxis);
    barsA_->setPen(QPen(kColourA.darker(130)));
    barsA_->setBrush(kColourA);
    barsB_ = new QCPBars(yAxis, xAxis);
    barsB_->setPen(QPen(kColourB.darker(130)));
    barsB_->setBrush(kColourB);
    auto* group = new QCPBarsGroup(this);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    for (QCPBars* bars : {barsA_, barsB_}) {
        bars->setWidth(0.36);
        bars->setBarsGroup(group);
    }

    // Categories top to bottom: the end-to-end pair, then the slowest function first.
    yAxis->setRangeReversed(true);
    yAxis->grid()->setVisible(false);
    yAxis->setTickLabelFont(small);
    yAxis->setSubTicks(false);
    yAxis->setTickLength(0, 4);
    xAxis->setLabel(tr("ms per run of the model (log scale)"));
    xAxis->setLabelFont(small);
    xAxis->setTickLabelFont(small);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    logTicker->setSubTickCount(8);
    xAxis->setTicker(logTicker);
    xAxis->setNumberFormat(QStringLiteral("gb"));
    xAxis->setNumberPrecision(3);
    xAxis2->setVisible(true); // the same scale above the top pair
    xAxis2->setScaleType(QCPAxis::stLogarithmic);
    xAxis2->setTicker(logTicker);
    xAxis2->setTickLabels(false);
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), xAxis2, qOverload<const QCPRange&>(&QCPAxis::setRange));

    // The legend in its own row under the axes, so it never covers a bar.
    legend->setVisible(true);
    legend->setFont(small);
    legend->setBorderPen(Qt::NoPen);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setColumnSpacing(16);
    axisRect()->insetLayout()->take(legend);
    auto* legendRow = new QCPLayoutGrid;
    plotLayout()->addElement(2, 0, legendRow);
    plotLayout()->setRowStretchFactor(2, 0.001);
    // Centred: empty cells either side take the width the legend does not need.
    legendRow->addElement(0, 0, new QCPLayoutElement(this));
    legendRow->addElement(0, 1, legend);
    legendRow->addElement(0, 2, new QCPLayoutElement(this));
    legendRow->setColumnStretchFactors({1, 0.001, 1});
    setInteractions({});
    setResult(nullptr);
}

void CompareChart::setResult(std::shared_ptr<const driver::CompareResult> result) {
    for (QCPItemText* label : labels_) removeItem(label);
    labels_.clear();
    categories_.clear();
    QVector<double> keysA, valuesA, keysB, valuesB, ticks;
    QVector<QString> names;
    double lo = 0, hi = 0;
    auto extend = [&](double v) {
        lo = lo > 0 ? std::min(lo, v) : v;
        hi = std::max(hi, v);
    };
    struct Pair {
        QString name;
        double a, b, ratio;
    };
    std::vector<Pair> pairs;
    if (result) {
        const driver::CompareResult& r = *result;
        pairs.push_back({tr("end to end"), r.latencyA, r.latencyB, r.ratio});
        for (int i : compareRowOrder(r)) {
            const driver::CompareRow& row = r.rows[size_t(i)];
            pairs.push_back({QString::fromStdString(row.function), row.inA() ? row.msA : NAN, row.inB() ? row.msB : NAN,
                             row.ratio});
        }
        barsA_->setName(tr("A: %1").arg(QString::fromStdString(r.labelA)));
        barsB_->setName(tr("B: %1").arg(QString::fromStdString(r.labelB)));
        title_->setText(tr("B / A per fused function and end to end: below 1, B is faster (median of %n round(s))",
                           nullptr, r.rounds));
    } else {
        barsA_->setName(tr("A"));
        barsB_->setName(tr("B"));
        title_->setText(tr("No comparison yet: choose sides A and B and press Run."));
    }
    for (size_t k = 0; k < pairs.size(); ++k) {
        const Pair& p = pairs[k];
        categories_ << p.name;
        ticks << double(k);
        names << p.name;
        const bool hasA = std::isfinite(p.a) && p.a > 0, hasB = std::isfinite(p.b) && p.b > 0;
        if (hasA) {
            keysA << double(k);
            valuesA << p.a;
            extend(p.a);
        }
        if (hasB) {
            keysB << double(k);
            valuesB << p.b;
            extend(p.b);
        }
        if (!hasA && !hasB) continue;
        auto* label = new QCPItemText(this);
        label->setClipToAxisRect(false);
        label->position->setAxes(xAxis, yAxis);
        label->position->setCoords(std::max(hasA ? p.a : 0.0, hasB ? p.b : 0.0) * 1.08, double(k));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        f.setBold(k == 0);
        label->setFont(f);
        if (hasA && hasB && std::isfinite(p.ratio)) {
            label->setText(QStringLiteral("%1×").arg(p.ratio, 0, 'f', 2));
            label->setColor(p.ratio < 1 ? kFaster : p.ratio > 1 ? kSlower : Qt::black);
        } else {
            label->setText(hasA ? tr("only on A") : tr("only on B"));
            label->setColor(Qt::darkGray);
        }
        labels_ << label;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->setTicks(ticks, names);
    yAxis->setTicker(ticker);
    yAxis->setRange(-0.6, std::max<double>(double(pairs.size()) - 0.4, 0.6));
    // Room left of the shortest bar and right of the longest for its label
    // (the bars rise from beyond the left edge: a log axis has no zero).
    if (hi > 0) {
        xAxis->setRange(lo / 2, hi * 6);
    } else {
        xAxis->setRange(0.01, 10);
    }
    barsA_->setData(keysA, valuesA, true);
    barsB_->setData(keysB, valuesB, true);
    replot();
}

int CompareChart::preferredHeight() const { return kFramePixels + kRowPixels * std::max<int>(1, categories_.size()); }

QSize CompareChart::exportSize() const { return {std::max(width(), 900), preferredHeight()}; }

bool CompareChart::exportPng(const QString& path) {
    const QSize s = exportSize();
    return savePng(path, s.width(), s.height());
}

bool CompareChart::exportPdf(const QString& path) {
    const QSize s = exportSize();
    return savePdf(path, s.width(), s.height(), QCP::epAllowCosmetic, QStringLiteral("Tessel"), title_->text());
}

} // namespace tessel::views
