/// \file
/// A `tessel-rpc` child for tests (a tracker or a server, on this machine or
/// under qemu) and the port it printed: "listening on HOST:PORT" is the first
/// line either writes on stdout once it accepts connections.
#pragma once

#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <memory>

namespace tessel::test {

/// The port of `p`'s "listening on HOST:PORT" line; 0 when it did not start
/// or said nothing of the kind within `timeoutMs`.
inline quint16 listeningPort(QProcess& p, int timeoutMs = 30000) {
    if (!p.waitForStarted(10000)) return 0;
    while (!p.canReadLine())
        if (!p.waitForReadyRead(timeoutMs)) return 0;
    const auto m = QRegularExpression(QStringLiteral(R"(^listening on [^ ]+:(\d+)$)"))
                       .match(QString::fromUtf8(p.readLine()).trimmed());
    return m.hasMatch() ? static_cast<quint16>(m.captured(1).toUInt()) : 0;
}

/// Stops a child the test started: SIGTERM, then SIGKILL.
inline void stopProcess(QProcess& p) {
    if (p.state() == QProcess::NotRunning) return;
    p.terminate();
    if (!p.waitForFinished(5000)) {
        p.kill();
        p.waitForFinished(3000);
    }
}

/// A child started with `program args`, stopped when it goes out of scope.
struct RpcProcess {
    std::unique_ptr<QProcess> process = std::make_unique<QProcess>();
    quint16 port = 0;
    RpcProcess() = default;
    RpcProcess(const QString& program, const QStringList& args) { start(program, args); }
    bool start(const QString& program, const QStringList& args) {
        process->setProcessChannelMode(QProcess::SeparateChannels);
        process->start(program, args);
        port = listeningPort(*process);
        return port != 0;
    }
    ~RpcProcess() { stopProcess(*process); }
};

} // namespace tessel::test
