/// \file
/// One look at a device endpoint, made on a worker by the driver
/// (driver::probeDevice: a tracker's status or a server's facts, with the
/// time it took); a failure becomes a message that says what to check.
#pragma once

#include "driver/DeviceProbe.h"

#include <QDateTime>
#include <QString>

#include <optional>
#include <string>

namespace tessel::views {

/// A tracker or a server the user added to the device panel.
struct Endpoint {
    enum class Kind { Tracker, Server };
    Kind kind = Kind::Server;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 0;
    /// The token's file (first line); empty: the endpoint wants none.
    QString tokenFile;

    /// "HOST:PORT".
    QString address() const { return QStringLiteral("%1:%2").arg(host).arg(port); }
    bool operator==(const Endpoint&) const = default;
};

struct ProbeResult {
    bool ok = false;
    /// What went wrong and what to check (empty when ok).
    QString message;
    /// The tracker's query or the server's get-device call, in ms.
    double roundTripMs = 0;
    /// A tracker's status.
    std::optional<rpc::TrackerStatus> tracker;
    /// A server's facts (DeviceInfo JSON).
    std::string deviceJson;
    QDateTime when;
};

/// Asks `endpoint` once, every step within `timeoutMs`; never throws.
ProbeResult probeEndpoint(const Endpoint& endpoint, int timeoutMs);

/// A failed step as a sentence for the panel: the reason and what to check.
QString explainRpcError(const rpc::RpcError& error, const Endpoint& endpoint, int timeoutMs);

} // namespace tessel::views
