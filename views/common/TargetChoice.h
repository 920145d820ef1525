/// \file
/// The code-generation targets the IDE offers in one list: this machine
/// (host), the Devices panel's device when it is another machine (its target,
/// as the panel sets it), and NVIDIA GPUs through CUDA (sm_80, sm_90).
/// TargetSelector is that list as a combo box over the session's target:
/// choosing sets it, and it follows every other change (the Devices panel,
/// Tools > Target, a GPU lesson step). With CUDA chosen the schedule editor
/// lowers through the GPU pipeline and the code view shows PTX.
#pragma once

#include "ir/Target.h"

#include <QComboBox>
#include <QList>
#include <QString>

namespace tessel::views {

class Session;

struct TargetPreset {
    QString label;  ///< "This machine", "CUDA (sm_90)"
    QString target; ///< what Session::setTarget takes: "host", "cuda -mcpu=sm_90"
};

/// The CUDA targets offered (Ampere and Hopper).
QList<TargetPreset> cudaPresets();
/// This machine, then the CUDA targets.
QList<TargetPreset> targetPresets();
/// Whether a target text names a GPU (a `cuda` or `nvptx` target).
bool isGpuTarget(const QString& target);
/// The GPU architecture of a GPU target ("sm_90"); empty for a CPU's.
QString gpuArch(const QString& target);
/// `target`'s full text for messages, without a GPU target's `-host={…}`
/// (this CPU's long feature list says nothing about the kernels).
QString targetText(const Target& target);

class TargetSelector : public QComboBox {
    Q_OBJECT
public:
    explicit TargetSelector(Session* session, QWidget* parent = nullptr);

private:
    /// The presets, plus the session's target when it is none of them (a
    /// device's or one typed in Tools > Target), with the current one chosen.
    void refill();
    Session* session_;
};

} // namespace tessel::views
