#include "lesson/LessonTimes.h"

namespace tessel::views {

QString formatMs(double ms) {
    if (ms >= 1000) return LessonTimes::tr("%1 s").arg(ms / 1000, 0, 'f', 2);
    if (ms >= 10) return LessonTimes::tr("%1 ms").arg(ms, 0, 'f', 1);
    return LessonTimes::tr("%1 ms").arg(ms, 0, 'f', 2);
}

LessonTimes::LessonTimes(QObject* parent) : QAbstractTableModel(parent) {}

void LessonTimes::setLesson(const Lesson& lesson) {
    beginResetModel();
    lesson_ = lesson;
    measured_.clear();
    measuring_ = -1;
    endResetModel();
}

void LessonTimes::setCannotTime(const QString& why) {
    if (why == cannotTime_) return;
    cannotTime_ = why;
    if (stepCount() > 0) emit dataChanged(index(0, Measured), index(stepCount() - 1, Measured));
}

void LessonTimes::setMeasuring(int step) {
    const int was = measuring_;
    measuring_ = step;
    rowChanged(was);
    rowChanged(step);
}

void LessonTimes::setMeasurement(int step, const Measurement& m) {
    if (step < 0 || step >= stepCount()) return;
    measured_.insert(step, m);
    if (measuring_ == step) measuring_ = -1;
    rowChanged(step);
}

std::optional<LessonTimes::Measurement> LessonTimes::measurement(int step) const {
    if (!measured_.contains(step)) return std::nullopt;
    return measured_.value(step);
}

std::optional<double> LessonTimes::publishedMs(int step) const {
    if (step < 0 || step >= stepCount() || !lesson_.steps[step].publishedSeconds)
        return std::nullopt;
    return *lesson_.steps[step].publishedSeconds * 1e3;
}

std::optional<double> LessonTimes::measuredMs(int step) const {
    const auto it = measured_.constFind(step);
    if (it == measured_.constEnd() || !it->correct || it->latencyMs <= 0) return std::nullopt;
    return it->latencyMs;
}

void LessonTimes::rowChanged(int step) {
    if (step >= 0 && step < stepCount())
        emit dataChanged(index(step, 0), index(step, ColumnCount - 1));
}

int LessonTimes::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : stepCount();
}

int LessonTimes::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LessonTimes::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= stepCount()) return {};
    const int row = index.row();
    const LessonStep& step = lesson_.steps[row];
    if (role == Qt::TextAlignmentRole)
        return index.column() == Step ? QVariant()
                                      : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole) {
        if (index.column() == Step) return step.fileName;
        if (index.column() == Measured)
            if (auto m = measurement(row); m && !m->correct) return m->error;
            else if (!m && !cannotTime_.isEmpty()) return cannotTime_;
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Step:
        return step.title;
    case Measured:
        if (auto m = measurement(row)) return m->correct ? formatMs(m->latencyMs) : tr("wrong");
        if (row == measuring_) return tr("…");
        return cannotTime_.isEmpty() ? QString() : tr("no GPU");
    case Tutorial:
        return step.publishedSeconds ? formatMs(*step.publishedSeconds * 1e3) : QStringLiteral("—");
    default:
        return {};
    }
}

QVariant LessonTimes::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Step:
        return tr("Step");
    case Measured:
        return tr("This machine");
    case Tutorial:
        return tr("Tutorial");
    default:
        return {};
    }
}

} // namespace tessel::views
