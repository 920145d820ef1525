#include "common/TargetChoice.h"

#include "common/Session.h"
#include "ir/Diagnostic.h"
#include "codegen/Target.h"

#include <QCoreApplication>
#include <QSignalBlocker>

namespace tessel::views {

QList<TargetPreset> cudaPresets() {
    return {{QCoreApplication::translate("tessel::views::TargetChoice", "CUDA (sm_80)"), QStringLiteral("cuda -mcpu=sm_80")},
            {QCoreApplication::translate("tessel::views::TargetChoice", "CUDA (sm_90)"), QStringLiteral("cuda -mcpu=sm_90")}};
}

QList<TargetPreset> targetPresets() {
    return QList<TargetPreset>{{QCoreApplication::translate("tessel::views::TargetChoice", "This machine"), QStringLiteral("host")}} + cudaPresets();
}

bool isGpuTarget(const QString& target) {
    if (target.trimmed().isEmpty() || target == QLatin1String("host")) return false;
    try {
        return codegen::resolveTarget(target.toStdString()).isGPU();
    } catch (const CompileError&) {
        return false;
    }
}

QString gpuArch(const QString& target) {
    if (!isGpuTarget(target)) return {};
    const QString cpu = QString::fromStdString(codegen::resolveTarget(target.toStdString()).cpu);
    return cpu.isEmpty() ? QStringLiteral("sm_80") : cpu; // resolveTarget's default for `cuda`
}

QString targetText(const Target& target) {
    std::string s = target.str();
    if (const size_t at = s.find(" -host={"); at != std::string::npos) {
        size_t end = at + 8;
        for (int depth = 1; end < s.size() && depth > 0; ++end) depth += s[end] == '{' ? 1 : s[end] == '}' ? -1 : 0;
        s.erase(at, end - at);
    }
    return QString::fromStdString(s);
}

TargetSelector::TargetSelector(Session* session, QWidget* parent) : QComboBox(parent), session_(session) {
    setObjectName(QStringLiteral("TargetSelector"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setToolTip(QCoreApplication::translate("tessel::views::TargetChoice", "Generate code for this machine, the Devices panel's device, or an NVIDIA GPU (PTX)"));
    refill();
    connect(session_, &Session::targetChanged, this, &TargetSelector::refill);
    connect(session_, &Session::deviceChanged, this, &TargetSelector::refill);
    connect(this, &QComboBox::activated, this, [this](int index) {
        if (!session_->setTarget(itemData(index).toString())) refill(); // refused: show the one in use
    });
}

void TargetSelector::refill() {
    const QSignalBlocker block(this);
    clear();
    for (const TargetPreset& p : targetPresets()) addItem(p.label, p.target);
    const QString current = session_->target();
    int at = findData(current);
    if (at < 0) {
        // A device's target (the panel chose it) or one typed in Tools > Target.
        const QString label = session_->device().isLocal()
                                  ? current
                                  : QStringLiteral("%1 (%2)").arg(session_->device().label(), current);
        insertItem(1, label, current);
        at = 1;
    }
    setCurrentIndex(at);
}

} // namespace tessel::views
