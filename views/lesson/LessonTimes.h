/// \file
/// The lesson's steps with their times as a table model: the step's title,
/// this machine's measured time (or "…" while it is measured, "wrong" when
/// the result was not correct) and the figure the tutorial published. The
/// lesson's step list and its chart (LessonChart) both show it.
#pragma once

#include "lesson/LessonSteps.h"

#include <QAbstractTableModel>
#include <QHash>

#include <optional>

namespace tessel::views {

/// "3.37 s", "295.8 ms", "4.21 ms".
QString formatMs(double ms);

class LessonTimes : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Step, Measured, Tutorial, ColumnCount };

    /// One measurement of a step on this machine.
    struct Measurement {
        double latencyMs = 0, gflops = 0;
        bool correct = false;
        QString error;
        QString device; ///< where it ran (DeviceChoice::label); empty: this machine
    };

    explicit LessonTimes(QObject* parent = nullptr);

    /// Shows `lesson`'s steps, none measured (resets the model).
    void setLesson(const Lesson& lesson);
    const Lesson& lesson() const { return lesson_; }
    int stepCount() const { return int(lesson_.steps.size()); }

    /// The step being measured (-1: none), shown as "…" until its result.
    void setMeasuring(int step);
    int measuring() const { return measuring_; }
    void setMeasurement(int step, const Measurement& m);
    std::optional<Measurement> measurement(int step) const;

    /// Why no step can be timed here (the lesson's steps are for a GPU this
    /// machine does not have); empty: they can. Shown in the time column.
    void setCannotTime(const QString& why);
    QString cannotTime() const { return cannotTime_; }

    /// The tutorial's time of `step` in milliseconds, if it published one.
    std::optional<double> publishedMs(int step) const;
    /// This machine's time of `step` in milliseconds, if it was measured correct.
    std::optional<double> measuredMs(int step) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void rowChanged(int step);

    Lesson lesson_;
    QHash<int, Measurement> measured_;
    int measuring_ = -1;
    QString cannotTime_;
};

} // namespace tessel::views
