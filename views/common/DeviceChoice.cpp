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
