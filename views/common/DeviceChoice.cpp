#include "common/DeviceChoice.h"

#include "codegen/Target.h"
#include "rpc/Auth.h"

#include <QCoreApplication>

namespace tessel::views {

QString DeviceChoice::label() const {
    const QString address = QStringLiteral("%1:%2").arg(host).arg(port);
    switch (kind) {
    case Kind::Server:
        return QCoreApplication::translate("tessel::views::DeviceChoice", "server %1").arg(address);
    case Kind::TrackerKey:
        return QCoreApplication::translate("tessel::views::DeviceChoice", "%1 via tracker %2").arg(key, address);
    case Kind::Local:
        break;
    }
    return QCoreApplication::translate("tessel::views::DeviceChoice", "this machine");
}

QString measureFailureName(runtime::MeasureError error) {
    using runtime::MeasureError;
    switch (error) {
    case MeasureError::None: return {};
    case MeasureError::Build: return QCoreApplication::translate("tessel::views::DeviceChoice", "did not build");
    case MeasureError::Load: return QCoreApplication::translate("tessel::views::DeviceChoice", "did not load");
    case MeasureError::Runtime: return QCoreApplication::translate("tessel::views::DeviceChoice", "runtime error");
    case MeasureError::Crash: return QCoreApplication::translate("tessel::views::DeviceChoice", "crashed");
    case MeasureError::Timeout: return QCoreApplication::translate("tessel::views::DeviceChoice", "timed out");
    case MeasureError::WrongResult: return QCoreApplication::translate("tessel::views::DeviceChoice", "wrong result");
    case MeasureError::Cancelled: return QCoreApplication::translate("tessel::views::DeviceChoice", "cancelled");
    case MeasureError::Device: return QCoreApplication::translate("tessel::views::DeviceChoice", "device unreachable");
    }
    return {};
}

QString explainMeasureFailure(const DeviceChoice& device, runtime::MeasureError error, const QString& message) {
    if (error != runtime::MeasureError::Device)
        return QStringLiteral("%1: %2").arg(measureFailureName(error), message);
    if (device.isLocal())
        return QCoreApplication::translate("tessel::views::DeviceChoice", "device unreachable: this machine's tessel-rpc server did not answer (%1). Check that "
                  "build/bin/tessel-rpc exists and runs; Run again starts it anew.")
            .arg(message);
    if (device.kind == DeviceChoice::Kind::TrackerKey)
        return QCoreApplication::translate("tessel::views::DeviceChoice", "device unreachable: %1 did not give a server of key %2 (%3). Check in the Devices panel that "
                  "the tracker runs and has a free server of that key, or choose Use This Machine.")
            .arg(device.label(), device.key, message);
    return QCoreApplication::translate("tessel::views::DeviceChoice", "device unreachable: nothing answered at %1 (%2). Check that tessel-rpc server runs there (the "
              "Devices panel shows its state), or choose Use This Machine.")
        .arg(QStringLiteral("%1:%2").arg(device.host).arg(device.port), message);
}

DeviceRunners::DeviceRunners(const DeviceChoice& device) {
    if (device.isLocal()) {
        // The IDE's warm tessel-rpc server: a kernel that crashes or hangs
        // ends that measurement, not the IDE.
        runner_ = std::make_unique<rpc::LocalRunner>(rpc::LocalServer::shared());
        return;
    }
    rpc::ClientOptions co;
    co.name = "tessel-ide";
    if (!device.tokenFile.isEmpty()) co.token = rpc::readTokenFile(device.tokenFile.toStdString());
    if (device.kind == DeviceChoice::Kind::Server)
        runner_ = std::make_unique<rpc::RpcRunner>(device.host.toStdString(), device.port, co);
    else
        runner_ = std::make_unique<rpc::TrackerRunner>(device.host.toStdString(), device.port,
                                                       device.key.toStdString(), co, co.token);
    referenceBuilder_ = std::make_unique<codegen::LocalBuilder>(codegen::hostTarget(), codegen::BuildOptions{});
    hostRunner_ = std::make_unique<runtime::InProcessRunner>();
}

void DeviceRunners::apply(driver::RunOptions& options) {
    options.runner = runner_.get();
    if (referenceBuilder_) {
        options.referenceBuilder = referenceBuilder_.get();
        options.referenceRunner = hostRunner_.get();
    }
}

} // namespace tessel::views
