#include "driver/DeviceProbe.h"

#include "rpc/Auth.h"
#include "rpc/Client.h"

#include <chrono>

namespace tessel::driver {

namespace {

double msSince(rpc::Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(rpc::Clock::now() - start).count();
}

} // namespace

DeviceProbe probeDevice(const DeviceSpec& spec, int timeoutMs) {
    DeviceProbe r;
    try {
        if (!spec.remote()) throw std::invalid_argument(spec.label() + " is not reached over RPC: nothing to probe");
        const std::string token = spec.tokenFile.empty() ? std::string() : rpc::readTokenFile(spec.tokenFile);
        if (spec.kind == DeviceSpec::Kind::Tracker) {
            const auto start = rpc::Clock::now();
            r.tracker = rpc::queryTracker(spec.host, spec.port, token, timeoutMs);
            r.roundTripMs = msSince(start);
        } else {
            rpc::ClientOptions co;
            co.token = token;
            co.name = spec.clientName;
            co.connectTimeoutMs = timeoutMs;
            co.stepTimeoutMs = timeoutMs;
            rpc::Client client = rpc::Client::connect(spec.host, spec.port, co);
            const auto start = rpc::Clock::now();
            r.deviceJson = client.deviceJson();
            r.roundTripMs = msSince(start);
            client.bye();
        }
        r.ok = true;
    } catch (const rpc::RpcError& e) {
        r.rpcError = e;
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

} // namespace tessel::driver
