#include "lesson/LessonChart.h"

#include "lesson/LessonTimes.h"

#include <algorithm>
#include <cmath>

namespace tessel::views {

LessonChart::LessonChart(LessonTimes* times, QWidget* parent) : QCustomPlot(parent), times_(times) {
    setObjectName(QStringLiteral("LessonChart"));
    setMinimumSize(220, 160);
    setToolTip(tr(
        "Each step's time: this machine's measurement next to the tutorial's figure (log scale). "
        "Click a bar to open its step."));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);

    published_ = new QCPBars(xAxis, yAxis);
    published_->setName(tr("Tutorial"));
    published_->setPen(QPen(QColor(120, 120, 120)));
    published_->setBrush(QColor(190, 190, 190));
    measured_ = new QCPBars(xAxis, yAxis);
    measured_->setName(tr("This machine"));
    measured_->setPen(QPen(QColor(31, 90, 160)));
    measured_->setBrush(QColor(70, 130, 200));
    auto* group = new QCPBarsGroup(this);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    for (QCPBars* bars : {measured_, published_}) {
        bars->setWidth(0.38);
        bars->setBarsGroup(group);
    }

    xAxis->setLabel(tr("Step"));
    xAxis->setTickLabelFont(small);
    xAxis->setLabelFont(small);
    xAxis->grid()->setVisible(false);
    yAxis->setLabel(tr("Time (ms)"));
    yAxis->setTickLabelFont(small);
    yAxis->setLabelFont(small);
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    logTicker->setSubTickCount(0);
    yAxis->setTicker(logTicker);
    yAxis->setNumberFormat(QStringLiteral("gb"));
    yAxis->setNumberPrecision(3);
    // The legend on one line at the top, in the headroom above the bars.
    legend->setVisible(true);
    legend->setFont(small);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(QColor(255, 255, 255, 200));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setColumnSpacing(10);
    legend->setMargins(QMargins(4, 1, 4, 1));
    legend->setIconSize(12, 10);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    empty_ = new QCPItemText(this);
    empty_->position->setType(QCPItemPosition::ptAxisRectRatio);
    empty_->position->setCoords(0.5, 0.5);
    empty_->setPositionAlignment(Qt::AlignCenter);
    empty_->setTextAlignment(Qt::AlignCenter);
    empty_->setColor(QColor(110, 110, 110));
    setInteraction(QCP::iSelectPlottables, false);

    connect(this, &QCustomPlot::plottableClick, this,
            [this](QCPAbstractPlottable* p, int dataIndex, QMouseEvent*) {
                auto* bars = qobject_cast<QCPBars*>(p);
                if (!bars || dataIndex < 0 || dataIndex >= bars->data()->size()) return;
                emit stepClicked(int(std::lround((bars->data()->constBegin() + dataIndex)->key)) -
                                 1);
            });
    connect(times_, &QAbstractItemModel::modelReset, this, &LessonChart::refresh);
    connect(times_, &QAbstractItemModel::dataChanged, this, &LessonChart::refresh);
    refresh();
}

QString LessonChart::emptyText() const {
    return empty_->visible() ? empty_->text() : QString();
}

void LessonChart::refresh() {
    QVector<double> keys, measured, measuredKeys, published, publishedKeys;
    QVector<QString> labels;
    double lo = 0, hi = 0;
    auto extend = [&](double v) {
        lo = lo > 0 ? std::min(lo, v) : v;
        hi = std::max(hi, v);
    };
    const int n = times_->stepCount();
    for (int i = 0; i < n; ++i) {
        keys << i + 1;
        labels << QString::number(i + 1);
        if (auto ms = times_->measuredMs(i)) {
            measuredKeys << i + 1;
            measured << *ms;
            extend(*ms);
        }
        if (auto ms = times_->publishedMs(i)) {
            publishedKeys << i + 1;
            published << *ms;
            extend(*ms);
        }
    }
    measured_->setData(measuredKeys, measured, true);
    published_->setData(publishedKeys, published, true);
    QSharedPointer<QCPAxisTickerText> steps(new QCPAxisTickerText);
    steps->setTicks(keys, labels);
    xAxis->setTicker(steps);
    xAxis->setRange(0.4, std::max(n, 1) + 0.6);
    // Room below the shortest bar, and above the tallest for the legend.
    if (hi > 0)
        yAxis->setRange(lo / 2, hi * 6);
    else
        yAxis->setRange(1, 1000);
    if (hi > 0)
        empty_->setText({});
    else if (!times_->cannotTime().isEmpty())
        empty_->setText(tr("No times to draw: the steps need a GPU\nto be timed, and the tutorial printed\nnone per step."));
    else
        empty_->setText(tr("No times yet: Measure a step\nto draw its bar."));
    empty_->setVisible(hi <= 0);
    replot();
}

} // namespace tessel::views
