#include "devices/DeviceProbe.h"

#include "rpc/Auth.h"
#include "rpc/Client.h"

#include <QCoreApplication>

#include <chrono>

namespace tessel::views {

namespace {

double msSince(rpc::Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(rpc::Clock::now() - start).count();
}

} // namespace

QString explainRpcError(const rpc::RpcError& error, const Endpoint& endpoint, int timeoutMs) {
    const QString why = QString::fromStdString(error.why());
    const QString what = endpoint.kind == Endpoint::Kind::Tracker ? QStringLiteral("tessel-rpc tracker")
                                                                  : QStringLiteral("tessel-rpc server");
    switch (error.failure()) {
    case rpc::Failure::Connect:
        return QCoreApplication::translate("tessel::views::DeviceProbe", "Nothing listens at %1 (%2): is %3 running there?").arg(endpoint.address(), why, what);
    case rpc::Failure::Timeout:
        return QCoreApplication::translate("tessel::views::DeviceProbe", "No answer within %1 s: check the address and the firewall.").arg(timeoutMs / 1000.0);
    case rpc::Failure::Closed:
        return QCoreApplication::translate("tessel::views::DeviceProbe", "%1 closed the connection (%2): check that it is a %3 and its log.")
            .arg(endpoint.address(), why, what);
    case rpc::Failure::Protocol:
        return QCoreApplication::translate("tessel::views::DeviceProbe", "Not a Tessel RPC endpoint (%1): check the port.").arg(why);
    case rpc::Failure::Remote:
        break;
    }
    switch (error.remote()) {
    case rpc::ErrorCode::Auth:
        return endpoint.tokenFile.isEmpty()
                   ? QCoreApplication::translate("tessel::views::DeviceProbe", "Missing token: this endpoint wants one; give its token file.")
                   : QCoreApplication::translate("tessel::views::DeviceProbe", "Wrong token: check the token file %1.").arg(endpoint.tokenFile);
    case rpc::ErrorCode::Version:
        return QCoreApplication::translate("tessel::views::DeviceProbe", "Protocol versions differ (%1): update tessel-rpc on one side.").arg(why);
    case rpc::ErrorCode::Protocol:
        return QCoreApplication::translate("tessel::views::DeviceProbe", "Not a Tessel RPC endpoint (%1): check the port.").arg(why);
    case rpc::ErrorCode::Busy:
        return QCoreApplication::translate("tessel::views::DeviceProbe", "The server is busy (%1): try again when its sessions end.").arg(why);
    default:
        return QCoreApplication::translate("tessel::views::DeviceProbe", "%1 failed: %2").arg(QString::fromStdString(error.step()), why);
    }
}

ProbeResult probeEndpoint(const Endpoint& endpoint, int timeoutMs) {
    ProbeResult r;
    try {
        const std::string token =
            endpoint.tokenFile.isEmpty() ? std::string() : rpc::readTokenFile(endpoint.tokenFile.toStdString());
        const std::string host = endpoint.host.toStdString();
        if (endpoint.kind == Endpoint::Kind::Tracker) {
            const auto start = rpc::Clock::now();
            r.tracker = rpc::queryTracker(host, endpoint.port, token, timeoutMs);
            r.roundTripMs = msSince(start);
        } else {
            rpc::ClientOptions co;
            co.token = token;
            co.name = "tessel-ide devices";
            co.connectTimeoutMs = timeoutMs;
            co.stepTimeoutMs = timeoutMs;
            rpc::Client client = rpc::Client::connect(host, endpoint.port, co);
            const auto start = rpc::Clock::now();
            r.deviceJson = client.deviceJson();
            r.roundTripMs = msSince(start);
            client.bye();
        }
        r.ok = true;
    } catch (const rpc::RpcError& e) {
        r.message = explainRpcError(e, endpoint, timeoutMs);
    } catch (const std::exception& e) {
        // A token file that cannot be read names the file.
        r.message = QString::fromStdString(e.what());
    }
    r.when = QDateTime::currentDateTime();
    return r;
}

} // namespace tessel::views
