/// \file
/// The open project as the views see it: a model (compiled with its trace) or
/// a TE script, the fused function selected in every view, that function's
/// texts, and the schedules the user edited.
///
/// Views never talk to each other: they observe and change the session. A
/// graph click selects a function here; the code view, stage view and schedule
/// editor follow its signals. Compiler results are computed on workers (Jobs)
/// and set here on the GUI thread only.
#pragma once

#include "common/DeviceChoice.h"
#include "driver/CompileRequest.h"

#include <QMap>
#include <QObject>
#include <QString>
#include <QVariantMap>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {
struct CompiledModel;
struct FunctionArtifacts;
struct KernelProfile;
} // namespace tessel::driver

namespace tessel::views {

class Jobs;
class MessageLog;

/// One fused function's time in a profiled run of the model.
struct KernelTime {
    double ms = 0;
    double gflops = 0;
    /// Share of the kernel's roofline (runtime/Roofline.h) where it ran; 0: unknown.
    double roofline = 0;
    bool memoryBound = false;
};

class Session : public QObject {
    Q_OBJECT
public:
    enum class Kind { Empty, Model, Script };

    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    Kind kind() const { return kind_; }
    Jobs* jobs() const { return jobs_; }
    /// Every message reported so far (report() appends to it); the Messages view shows it.
    MessageLog* messages() const { return messages_; }

    /// The model file (for Kind::Model) or script file (Kind::Script); may be
    /// empty for an unsaved script.
    QString sourcePath() const { return sourcePath_; }

    /// The compiled model with its trace (null unless Kind::Model).
    std::shared_ptr<const driver::CompiledModel> model() const { return model_; }
    /// Input shape bindings used to compile it: input name -> its dimensions in
    /// the compiler's format ("1,3,224,224"; shell/InputShapes).
    QMap<QString, QString> inputShapes() const { return inputShapes_; }
    void setModel(const QString& path, std::shared_ptr<const driver::CompiledModel> model,
                  const QMap<QString, QString>& inputShapes = {});

    /// The text of the open TE script (Kind::Script).
    QString scriptText() const { return scriptText_; }
    /// Opens a script: `text` is what the editor shows, `savedText` what its
    /// file holds (by default `text`; a recovered or generated script differs,
    /// and counts as modified until saved).
    void setScript(const QString& path, const QString& text, const std::optional<QString>& savedText = {});
    /// Keeps the script's text as edited, without reloading anyone (no
    /// signal but modifiedChanged): the schedule editor calls it as the user
    /// types, so a rebuild of the views or a saved project starts from the
    /// edited text.
    void updateScriptText(const QString& text);

    // ---- what is saved (the title's modified marker, Save, the prompt on close, autosave)
    /// The script's text as its file holds it (last opened, saved or reverted).
    QString savedScriptText() const { return savedScriptText_; }
    /// The script was written to `path` with its current text (Save, Save As).
    void markScriptSaved(const QString& path);
    /// The edited schedules as the project file holds them (a project opened
    /// or saved); none for a model opened without a project.
    void setSavedSchedules(const QMap<QString, QString>& schedules);
    QMap<QString, QString> savedSchedules() const { return savedSchedules_; }
    /// The tuning settings as the project file holds them (without a project: the defaults, none).
    void setSavedTuningSettings(const QVariantMap& tuning);
    /// The project was written with the session's schedules and tuning settings.
    void markProjectSaved();
    bool isScriptModified() const { return kind_ == Kind::Script && scriptText_ != savedScriptText_; }
    bool areSchedulesModified() const { return kind_ == Kind::Model && editedSchedules_ != savedSchedules_; }
    bool areTuningSettingsModified() const { return tuningSettings_ != savedTuningSettings_; }
    /// Anything above: the window title's marker, the prompt on close.
    bool isModified() const { return isScriptModified() || areSchedulesModified() || areTuningSettingsModified(); }
    /// What is unsaved, one line each, for the prompt on close ("the script
    /// gemm.te", "2 edited schedules", "the tuning settings"); empty: nothing.
    QStringList unsavedChanges() const;
    /// Counts every change an autosave keeps (script text, schedules, tuning
    /// settings): autosave writes only when it moved.
    quint64 changeCount() const { return changeCount_; }

    /// The Tuning view's settings (tuner, trials, early stopping, workload,
    /// order, records file) as NAME -> value: kept here so they survive a
    /// rebuild of the views and are saved with the project.
    QVariantMap tuningSettings() const { return tuningSettings_; }
    void setTuningSettings(const QVariantMap& settings);

    /// Closes whatever is open.
    void clear();

    /// The selected fused function (model) or script function; empty when none.
    QString currentFunction() const { return currentFunction_; }
    void selectFunction(const QString& name);

    /// Texts of the selected function as the code view shows them; null until computed.
    std::shared_ptr<const driver::FunctionArtifacts> artifacts() const { return artifacts_; }
    void setArtifacts(std::shared_ptr<const driver::FunctionArtifacts> artifacts);

    /// Hand-edited schedules (TE scripts) per fused function; used when the
    /// whole model is compiled and run (driver::CompileOptions::schedules).
    QMap<QString, QString> editedSchedules() const { return editedSchedules_; }
    QString editedSchedule(const QString& function) const { return editedSchedules_.value(function); }
    /// An empty script removes the edit (back to the default schedule).
    void setEditedSchedule(const QString& function, const QString& script);

    /// The code generation target as the user gave it: "host", an alias
    /// ("aarch64") or a Target::str().
    QString target() const { return target_; }
    /// Sets the target every compile of this session uses; false (and a
    /// message) when Tessel knows no such target, and the old one stays.
    bool setTarget(const QString& target);
    /// What every compile of this session asks for: its resolved target in `mode`.
    driver::CompileRequest request(driver::CompileMode mode = driver::CompileMode::Batch) const;

    /// Where Run and Measure run (the device panel picks it; this machine by
    /// default). The panel sets the target to the device's along with it.
    DeviceChoice device() const { return device_; }
    void setDevice(const DeviceChoice& device);

    /// Tuned configurations every compile of the model applies (apply-best,
    /// driver/ApplyBest.h): a records file, or a folder of them such as the
    /// bundled resources/records; empty: the default schedules (untuned).
    QString recordsPath() const { return recordsPath_; }
    void setRecordsPath(const QString& path);

    /// Configurations chosen for single workloads (a record opened in the
    /// Tuning view): workload key (FusedFunction::workload) -> knob choices,
    /// applied over the records' by every compile of the model. Cleared
    /// when another model opens.
    using KnobChoices = std::map<std::string, int64_t>;
    const std::map<std::string, KnobChoices>& chosenConfigs() const { return chosenConfigs_; }
    /// Chooses `config` for `workload` (an empty one removes the choice).
    void setChosenConfig(const std::string& workload, const KnobChoices& config);

    /// The per-kernel times of the last profiled run of the open model
    /// (Compile and Run Model), by fused function; empty until one ran. A
    /// function called several times has its calls added.
    QMap<QString, KernelTime> profile() const { return profile_; }
    /// The sum of every kernel's time in that run.
    double profileTotalMs() const { return profileTotalMs_; }
    /// Where the profile was measured ("this machine", a device's name).
    QString profileDevice() const { return profileDevice_; }
    void setProfile(const QMap<QString, KernelTime>& profile, const QString& device);
    /// A run's per-step profile of `model` by function (calls added up).
    static QMap<QString, KernelTime> kernelTimes(const driver::CompiledModel& model,
                                                 const std::vector<driver::KernelProfile>& steps);

signals:
    void modelChanged();
    void scriptChanged();
    /// The open script was saved under another path (Save As): same text, new name.
    void scriptRenamed(const QString& oldPath);
    void cleared();
    void currentFunctionChanged(const QString& name);
    void artifactsChanged();
    void editedSchedulesChanged();
    void targetChanged();
    void deviceChanged();
    void profileChanged();
    void recordsChanged();
    void chosenConfigsChanged();
    /// isModified() changed.
    void modifiedChanged(bool modified);
    /// setTuningSettings() changed them (a project opened, the Tuning view).
    void tuningSettingsChanged();
    /// A message for the user (errors from workers, finished measurements).
    void message(const QString& text, bool error);

public:
    /// Logs a message for the user and emits message().
    void report(const QString& text, bool error = false);

private:
    /// Emits modifiedChanged when isModified() differs from the last emitted.
    void updateModified();

    Kind kind_ = Kind::Empty;
    Jobs* jobs_;
    MessageLog* messages_;
    QString sourcePath_;
    std::shared_ptr<const driver::CompiledModel> model_;
    QMap<QString, QString> inputShapes_;
    QString scriptText_, savedScriptText_;
    QString currentFunction_;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts_;
    QMap<QString, QString> editedSchedules_, savedSchedules_;
    QVariantMap tuningSettings_, savedTuningSettings_;
    bool modified_ = false;
    quint64 changeCount_ = 0;
    QString target_ = QStringLiteral("host");
    Target resolvedTarget_;
    DeviceChoice device_;
    QString recordsPath_;
    std::map<std::string, KnobChoices> chosenConfigs_;
    QMap<QString, KernelTime> profile_;
    double profileTotalMs_ = 0;
    QString profileDevice_;
};

} // namespace tessel::views
