#include "common/DeviceChoice.h"

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

driver::DeviceSpec DeviceChoice::spec() const {
    driver::DeviceSpec s;
    switch (kind) {
    case Kind::Server: s = driver::DeviceSpec::server(host.toStdString(), port, tokenFile.toStdString()); break;
    case Kind::TrackerKey:
        s = driver::DeviceSpec::tracker(host.toStdString(), port, key.toStdString(), tokenFile.toStdString());
        break;
    case Kind::Local: break; // the IDE's warm tessel-rpc server: a crash ends a measurement, not the IDE
    }
    s.clientName = "tessel-ide";
    return s;
}

} // namespace tessel::views
