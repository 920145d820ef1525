/// \file
/// One look at a device endpoint, as the IDE's device panel takes it: a
/// tracker's status (its servers, keys and queues) or a server's facts (a
/// get-device round trip), with the time the answer took. The panel runs it
/// on a worker and says in its own words what a failure means; the failed
/// step comes back as the rpc::RpcError it was.
#pragma once

#include "driver/Devices.h"
#include "rpc/Connection.h"
#include "rpc/TrackerClient.h"

#include <optional>
#include <string>

namespace tessel::driver {

struct DeviceProbe {
    bool ok = false;
    /// The tracker's query or the server's get-device call, in ms.
    double roundTripMs = 0;
    /// A tracker's status (DeviceSpec::Kind::Tracker).
    std::optional<rpc::TrackerStatus> tracker;
    /// A server's facts, as DeviceInfo JSON (DeviceSpec::Kind::Server).
    std::string deviceJson;
    /// The step that failed over RPC (what to check follows from it).
    std::optional<rpc::RpcError> rpcError;
    /// Any other failure (a token file that cannot be read names the file).
    std::string error;
};

/// Asks the tracker (Kind::Tracker: its status; the key is not used) or the
/// server (Kind::Server: its facts, as client `spec.clientName`) of `spec`
/// once, every step within `timeoutMs`. Never throws; a spec of this machine
/// or this process is an error (nothing to probe over RPC).
DeviceProbe probeDevice(const DeviceSpec& spec, int timeoutMs);

} // namespace tessel::driver
