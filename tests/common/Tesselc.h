/// \file
/// Running the build's tesselc from a test: exit code, stdout and stderr.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace tessel::test {

struct TesselcResult {
    int exitCode = -1; ///< -1: it did not finish in time; -2: it crashed
    QString out, err;
};

/// Runs `tesselc args` (with `env` when given) and waits up to 5 minutes.
inline TesselcResult runTesselc(const QStringList& args,
                                const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(TESSEL_BINARY_DIR "/bin/tesselc", args);
    TesselcResult r;
    if (!p.waitForFinished(300000)) return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace tessel::test
