/// \file
/// Where the IDE measures: this machine (a warm local tessel-rpc server), a
/// server given by address, or a server of a key that a tracker hands out.
/// The device panel sets it on the Session; the schedule editor and the GEMM
/// lesson build their runners from it (DeviceRunners), so a remote device's
/// kernels are built for its target and checked against this machine.
#pragma once

#include "codegen/Builder.h"
#include "driver/Measure.h"
#include "rpc/RpcRunner.h"
#include "runtime/InProcessRunner.h"

#include <QString>

#include <memory>

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

/// The runner (and, for a remote device, the host reference builder and
/// runner) that measure on a DeviceChoice; lives as long as the measurement.
class DeviceRunners {
public:
    /// Throws std::runtime_error when the token file cannot be read.
    explicit DeviceRunners(const DeviceChoice& device);
    /// Points `options` at the runners (and the references at this machine
    /// when the device is remote).
    void apply(driver::RunOptions& options);
    /// The runner (its session() is a Client on the device).
    rpc::RpcRunner& runner() { return *runner_; }

private:
    std::unique_ptr<rpc::RpcRunner> runner_;
    std::unique_ptr<codegen::LocalBuilder> referenceBuilder_;
    std::unique_ptr<runtime::InProcessRunner> hostRunner_;
};

} // namespace tessel::views
