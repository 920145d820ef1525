#include "common/Session.h"

#include "driver/ModelRunner.h"
#include "ir/Diagnostic.h"

#include "common/Jobs.h"
#include "common/MessageLog.h"

#include <QFileInfo>

namespace tessel::views {

Session::Session(QObject* parent) : QObject(parent), jobs_(new Jobs(this)), messages_(new MessageLog(this)) {}

Session::~Session() = default;

void Session::setModel(const QString& path, std::shared_ptr<const driver::CompiledModel> model,
                       const QMap<QString, QString>& inputShapes) {
    kind_ = Kind::Model;
    if (path != sourcePath_) {
        // Another model's workloads and functions.
        chosenConfigs_.clear();
        editedSchedules_.clear();
        savedSchedules_.clear();
    }
    sourcePath_ = path;
    model_ = std::move(model);
    inputShapes_ = inputShapes;
    scriptText_.clear();
    currentFunction_.clear();
    artifacts_.reset();
    profile_.clear(); // times of another compile
    profileTotalMs_ = 0;
    savedScriptText_.clear();
    emit modelChanged();
    emit currentFunctionChanged(currentFunction_);
    emit artifactsChanged();
    updateModified();
}

void Session::setScript(const QString& path, const QString& text, const std::optional<QString>& savedText) {
    kind_ = Kind::Script;
    sourcePath_ = path;
    model_.reset();
    inputShapes_.clear();
    scriptText_ = text;
    savedScriptText_ = savedText.value_or(text);
    editedSchedules_.clear();
    savedSchedules_.clear();
    currentFunction_.clear();
    artifacts_.reset();
    ++changeCount_;
    emit scriptChanged();
    emit currentFunctionChanged(currentFunction_);
    emit artifactsChanged();
    updateModified();
}

void Session::updateScriptText(const QString& text) {
    if (text == scriptText_) return;
    scriptText_ = text;
    ++changeCount_;
    updateModified();
}

void Session::markScriptSaved(const QString& path) {
    const QString old = sourcePath_;
    sourcePath_ = path;
    savedScriptText_ = scriptText_;
    updateModified();
    // The title and anything else that names the file.
    if (old != path) emit scriptRenamed(old);
}

void Session::setSavedSchedules(const QMap<QString, QString>& schedules) {
    savedSchedules_ = schedules;
    updateModified();
}

void Session::setSavedTuningSettings(const QVariantMap& tuning) {
    savedTuningSettings_ = tuning;
    updateModified();
}

void Session::markProjectSaved() {
    savedSchedules_ = editedSchedules_;
    savedTuningSettings_ = tuningSettings_;
    updateModified();
}

void Session::setTuningSettings(const QVariantMap& settings) {
    if (settings == tuningSettings_) return;
    tuningSettings_ = settings;
    ++changeCount_;
    emit tuningSettingsChanged();
    updateModified();
}

QStringList Session::unsavedChanges() const {
    QStringList what;
    if (isScriptModified())
        what << (sourcePath_.isEmpty() ? tr("the new script") : tr("the script %1").arg(QFileInfo(sourcePath_).fileName()));
    if (areSchedulesModified()) {
        int changed = 0;
        for (auto it = editedSchedules_.begin(); it != editedSchedules_.end(); ++it)
            changed += savedSchedules_.value(it.key()) != it.value();
        for (auto it = savedSchedules_.begin(); it != savedSchedules_.end(); ++it)
            changed += !editedSchedules_.contains(it.key());
        what << tr("%n edited schedule(s) of %1", nullptr, changed).arg(QFileInfo(sourcePath_).fileName());
    }
    if (areTuningSettingsModified()) what << tr("the tuning settings");
    return what;
}

void Session::updateModified() {
    const bool m = isModified();
    if (m == modified_) return;
    modified_ = m;
    emit modifiedChanged(m);
}

void Session::clear() {
    kind_ = Kind::Empty;
    sourcePath_.clear();
    model_.reset();
    inputShapes_.clear();
    scriptText_.clear();
    currentFunction_.clear();
    artifacts_.reset();
    editedSchedules_.clear();
    savedSchedules_.clear();
    savedScriptText_.clear();
    profile_.clear();
    profileTotalMs_ = 0;
    emit cleared();
    emit currentFunctionChanged(currentFunction_);
    emit artifactsChanged();
    updateModified();
}

void Session::selectFunction(const QString& name) {
    if (name == currentFunction_) return;
    currentFunction_ = name;
    emit currentFunctionChanged(name);
}

void Session::setArtifacts(std::shared_ptr<const driver::FunctionArtifacts> artifacts) {
    artifacts_ = std::move(artifacts);
    emit artifactsChanged();
}

void Session::setEditedSchedule(const QString& function, const QString& script) {
    if (script.isEmpty()) {
        if (!editedSchedules_.remove(function)) return;
    } else {
        if (editedSchedules_.value(function) == script) return;
        editedSchedules_[function] = script;
    }
    ++changeCount_;
    emit editedSchedulesChanged();
    updateModified();
}

void Session::report(const QString& text, bool error) {
    messages_->append(text, error);
    emit message(text, error);
}

bool Session::setTarget(const QString& target) {
    const QString text = target.trimmed().isEmpty() ? QStringLiteral("host") : target.trimmed();
    if (text == target_) return true;
    try {
        resolvedTarget_ = codegen::resolveTarget(text.toStdString());
    } catch (const CompileError& e) {
        report(tr("Unknown target '%1': %2").arg(text, QString::fromStdString(e.diagnostic().message)), true);
        return false;
    }
    target_ = text;
    emit targetChanged();
    return true;
}

driver::CompileRequest Session::request(driver::CompileMode mode) const {
    driver::CompileRequest r;
    if (target_ != QLatin1String("host")) r.target = resolvedTarget_;
    r.mode = mode;
    return r;
}

void Session::setDevice(const DeviceChoice& device) {
    if (device == device_) return;
    device_ = device;
    emit deviceChanged();
}

void Session::setRecordsPath(const QString& path) {
    if (path == recordsPath_) return;
    recordsPath_ = path;
    emit recordsChanged();
}

void Session::setChosenConfig(const std::string& workload, const KnobChoices& config) {
    auto it = chosenConfigs_.find(workload);
    if (config.empty() ? it == chosenConfigs_.end() : (it != chosenConfigs_.end() && it->second == config)) return;
    if (config.empty())
        chosenConfigs_.erase(it);
    else
        chosenConfigs_[workload] = config;
    emit chosenConfigsChanged();
}

QMap<QString, KernelTime> Session::kernelTimes(const driver::CompiledModel& model,
                                               const std::vector<driver::KernelProfile>& steps) {
    QMap<QString, KernelTime> times;
    QMap<QString, double> flops, roofTime;
    for (const auto& k : steps) {
        const QString name = QString::fromStdString(k.function);
        times[name].ms += k.ms;
        if (auto* f = model.findFunction(k.function)) flops[name] += f->flops;
        // A function called several times: its roofline share weighted by time.
        if (k.roofline > 0) {
            roofTime[name] += k.roofline * k.ms;
            times[name].memoryBound = k.memoryBound;
        }
    }
    for (auto it = times.begin(); it != times.end(); ++it) {
        if (it->ms > 0) it->gflops = flops.value(it.key()) / (it->ms * 1e-3) * 1e-9;
        if (it->ms > 0) it->roofline = roofTime.value(it.key()) / it->ms;
    }
    return times;
}

void Session::setProfile(const QMap<QString, KernelTime>& profile, const QString& device) {
    profile_ = profile;
    profileDevice_ = device;
    profileTotalMs_ = 0;
    for (const KernelTime& k : profile) profileTotalMs_ += k.ms;
    emit profileChanged();
}

} // namespace tessel::views
