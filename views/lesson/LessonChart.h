/// \file
/// The lesson's times as a bar chart (QCustomPlot, the Qt 6 build): per step,
/// this machine's measured time next to the figure the tutorial published,
/// on a logarithmic time axis (the GEMM ladder spans three orders of
/// magnitude, from seconds to milliseconds). It follows a LessonTimes model:
/// a measured step gets its bar as soon as the measurement lands. Clicking a
/// bar selects its step.
#pragma once

#include <qcustomplot.h>

namespace tessel::views {

class LessonTimes;

class LessonChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit LessonChart(LessonTimes* times, QWidget* parent = nullptr);

    /// One bar per measured step (key: the step's number, 1-based; value: ms).
    QCPBars* measuredBars() const { return measured_; }
    /// One bar per step with a tutorial figure.
    QCPBars* publishedBars() const { return published_; }
    /// What the chart says instead of bars when it has none; empty when it has bars.
    QString emptyText() const;

signals:
    /// A bar of step `index` (0-based) was clicked.
    void stepClicked(int index);

private:
    void refresh();

    LessonTimes* times_;
    QCPBars* measured_;
    QCPBars* published_;
    QCPItemText* empty_; ///< shown over an empty plot, so it is never a blank frame
};

} // namespace tessel::views
