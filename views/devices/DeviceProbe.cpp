#include "devices/DeviceProbe.h"

#include <QCoreApplication>

namespace tessel::views {

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
    const std::string host = endpoint.host.toStdString(), tokenFile = endpoint.tokenFile.toStdString();
    driver::DeviceSpec spec = endpoint.kind == Endpoint::Kind::Tracker
                                  ? driver::DeviceSpec::tracker(host, endpoint.port, {}, tokenFile)
                                  : driver::DeviceSpec::server(host, endpoint.port, tokenFile);
    spec.clientName = "tessel-ide devices";
    driver::DeviceProbe p = driver::probeDevice(spec, timeoutMs);
    ProbeResult r;
    r.ok = p.ok;
    r.roundTripMs = p.roundTripMs;
    r.tracker = std::move(p.tracker);
    r.deviceJson = std::move(p.deviceJson);
    if (p.rpcError) r.message = explainRpcError(*p.rpcError, endpoint, timeoutMs);
    else if (!p.ok) r.message = QString::fromStdString(p.error); // a token file that cannot be read names the file
    r.when = QDateTime::currentDateTime();
    return r;
}

} // namespace tessel::views
