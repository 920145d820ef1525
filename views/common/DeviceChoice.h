/// \file
/// Where the IDE measures: this machine (a warm local tessel-rpc server), a
/// server given by address, or a server of a key that a tracker hands out.
/// The device panel sets it on the Session; the schedule editor, the GEMM
/// lesson, the tuner, model runs and the compare view build their runners
/// from it (DeviceRunners: driver::DeviceRunners of its DeviceSpec), so a
/// remote device's kernels are built for its target and checked against
/// this machine.
#pragma once

#include "driver/Devices.h"

#include <QString>


namespace tessel::views {

struct DeviceChoice {
    enum class Kind { Local, Server, TrackerKey };
    Kind kind = Kind::Local;
    /// The server's (Server) or the tracker's (TrackerKey) address.
    QString host;
    quint16 port = 0;
    /// The tracker's key (TrackerKey).
    QString key;
    /// A file whose first line is the token (servers' and tracker's); empty: none.
    QString tokenFile;

    bool isLocal() const { return kind == Kind::Local; }
    /// "this machine", "server HOST:PORT", "KEY via tracker HOST:PORT".
    QString label() const;
    /// The driver's description of it (this machine: its local tessel-rpc server).
    driver::DeviceSpec spec() const;
    bool operator==(const DeviceChoice&) const = default;
};

/// What a failed measurement was, in words for the run history and status
/// lines: "device unreachable", "crashed", "timed out", "did not build", …
/// (runtime::MeasureError); "wrong result" for outputs that differ.
QString measureFailureName(runtime::MeasureError error);

/// A measurement on `device` that failed with kind `error` and message
/// `message` (the runner's, e.g. "connect: Connection refused"), as a
/// sentence that says what to check: for an unreachable device, that
/// tessel-rpc runs there and the Devices panel, or Use This Machine.
QString explainMeasureFailure(const DeviceChoice& device, runtime::MeasureError error, const QString& message);

/// The runners that measure and run on a DeviceChoice; live as long as the
/// measurement. Throws std::runtime_error when the token file cannot be read.
class DeviceRunners : public driver::DeviceRunners {
public:
    explicit DeviceRunners(const DeviceChoice& device) : driver::DeviceRunners(device.spec()) {}
};

} // namespace tessel::views
