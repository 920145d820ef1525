/// \file
/// The Tuning view: tunes the open model's tasks (or the open TE template)
/// on the device panel's device and shows it live.
///
/// Top: the tuner, the trial budget, early stopping, the template's workload,
/// the task order, and Start / Pause / Resume / Stop. Then the task table
/// (TaskTable) with the run's progress; for the selected task two
/// QCustomPlot charts, updated as each trial ends: every trial's GFLOP/s
/// (failed trials as crosses at 0) with the best so far, and the cost model's
/// predicted score against the measured GFLOP/s with their Spearman rank
/// correlation in the title; and the record explorer (RecordTable), filtered
/// by result. Double-clicking a record of a template opens that configuration
/// in the schedule editor as a script (the template run with the record's
/// knob choices, printed back as a plain TE script); for a model task it
/// selects the fused function and shows the configuration in the status line.
/// The status line says where the run is, with an ETA.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace tessel::tune {
struct Record;
}

namespace tessel::views {

class RecordTable;
class Session;
class TaskTable;
class TuningSession;
struct TrialPoint;

class TuningView : public QWidget {
    Q_OBJECT
public:
    explicit TuningView(Session* session, QWidget* parent = nullptr);

    TuningSession* tuning() const { return tuning_; }
    TaskTable* taskTable() const { return taskTable_; }
    RecordTable* records() const { return records_; }
    QTableView* recordView() const { return recordView_; }
    /// The curves of the selected task: [0] GFLOP/s against trial number,
    /// [1] predicted against measured.
    QCustomPlot* trialPlot() const { return trialPlot_; }
    QCustomPlot* modelPlot() const { return modelPlot_; }
    QString statusText() const;
    /// The selected task's row (-1: none).
    int currentTask() const;
    void selectTask(int row);
    /// Filters the record explorer: empty (all), "ok" or an error kind.
    void setRecordFilter(const QString& filter);
    /// What double-clicking record `row` of the explorer does (`row` of
    /// records(), the file's order; the explorer may show them sorted).
    void openRecord(int row);

signals:
    /// A record's configuration went to the schedule editor (a template's
    /// configuration as a script) or to the session's selected function.
    void recordOpened(const QString& configuration);

private:
    void buildControls();
    /// Keeps the settings that differ from the defaults in the session (Session::tuningSettings).
    void keepSettings();
    /// Shows (and uses) the session's tuning settings.
    void applySettings();
    void syncControls();
    void refreshPlots();
    void addPoint(int task, const TrialPoint& p);
    void refreshRecords();
    void openScriptRecord(const tune::Record& r);

    Session* session_;
    TuningSession* tuning_;
    TaskTable* taskTable_;
    RecordTable* records_;
    QComboBox* tuner_ = nullptr;
    QSpinBox* trials_ = nullptr;
    QSpinBox* earlyStopping_ = nullptr;
    QLineEdit* workload_ = nullptr;
    QLabel* workloadLabel_ = nullptr;
    QComboBox* order_ = nullptr;
    QPushButton* start_ = nullptr;
    QPushButton* pause_ = nullptr;
    QPushButton* resume_ = nullptr;
    QPushButton* stop_ = nullptr;
    QTableView* taskView_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QCustomPlot* trialPlot_ = nullptr;
    QCustomPlot* modelPlot_ = nullptr;
    QComboBox* filter_ = nullptr;
    QTableView* recordView_ = nullptr;
    QSortFilterProxyModel* recordSort_ = nullptr; ///< the explorer sorts by any column
    QLabel* status_ = nullptr;
    QString recordMessage_;
    struct Defaults {
        QString tuner;
        int trials = 0, earlyStopping = 0;
    } defaults_;
    bool applying_ = false; ///< applySettings() is setting the controls
};

} // namespace tessel::views
