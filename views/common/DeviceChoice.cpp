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
