#include "common/Session.h"

#include "driver/ModelRunner.h"
#include "ir/Diagnostic.h"

#include "common/Jobs.h"
#include "common/MessageLog.h"

namespace tessel::views {

Session::Session(QObject* parent) : QObject(parent), jobs_(new Jobs(this)), messages_(new MessageLog(this)) {}

Session::~Session() = default;

void Session::setModel(const QString& path, std::shared_ptr<const driver::CompiledModel> model,
                       const QMap<QString, QString>& inputShapes) {
    kind_ = Kind::Model;
    if (path != sourcePath_) chosenConfigs_.clear(); // another model's workloads
    sourcePath_ = path;
    model_ = std::move(model);
    inputShapes_ = inputShapes;
    scriptText_.clear();
    currentFunction_.clear();
    artifacts_.reset();
    profile_.clear(); // times of another compile
    profileTotalMs_ = 0;
    emit modelChanged();
    emit currentFunctionChanged(currentFunction_);
    emit artifactsChanged();
}

void Session::setScript(const QString& path, const QString& text) {
    kind_ = Kind::Script;
    sourcePath_ = path;
    model_.reset();
    inputShapes_.clear();
    scriptText_ = text;
    currentFunction_.clear();
    artifacts_.reset();
    emit scriptChanged();
    emit currentFunctionChanged(currentFunction_);
    emit artifactsChanged();
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
    profile_.clear();
    profileTotalMs_ = 0;
    emit cleared();
    emit currentFunctionChanged(currentFunction_);
    emit artifactsChanged();
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
    emit editedSchedulesChanged();
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
