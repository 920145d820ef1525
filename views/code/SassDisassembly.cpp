#include "code/SassDisassembly.h"

#include "common/Jobs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <stdexcept>

namespace tessel::views {

namespace {

/// Runs `program` to the end (polling `token`), returning its stdout; throws with its stderr.
QByteArray runTool(const QString& program, const QStringList& args, const CancelToken& token) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000))
        throw std::runtime_error(QStringLiteral("%1: %2").arg(program, p.errorString()).toStdString());
    while (!p.waitForFinished(100)) {
        if (token.cancelled()) {
            p.kill();
            p.waitForFinished(1000);
            throw std::runtime_error("cancelled");
        }
        if (p.state() == QProcess::NotRunning) break;
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        throw std::runtime_error(QStringLiteral("%1 %2 failed:\n%3")
                                     .arg(QFileInfo(program).fileName(), args.join(QLatin1Char(' ')),
                                          QString::fromLocal8Bit(p.readAllStandardError()).trimmed())
                                     .toStdString());
    return p.readAllStandardOutput();
}

} // namespace

QString CudaTools::missing() const {
    if (canDisassemble()) return {};
    QStringList names;
    if (ptxas.isEmpty()) names << QStringLiteral("ptxas");
    if (nvdisasm.isEmpty() && cuobjdump.isEmpty()) names << QStringLiteral("nvdisasm (or cuobjdump)");
    return QCoreApplication::translate("tessel::views::SassDisassembly", "SASS needs the CUDA toolkit's %1, not found in %2. Install the CUDA toolkit (or set CUDA_HOME) "
              "to see the GPU's machine code; the PTX does not need it.")
        .arg(names.join(QStringLiteral(", ")), searched.join(QStringLiteral(", ")));
}

QStringList cudaToolFolders() {
    QStringList out;
    if (const QString home = qEnvironmentVariable("CUDA_HOME"); !home.isEmpty()) out << QDir(home).filePath(QStringLiteral("bin"));
    for (const QString& d : qEnvironmentVariable("PATH").split(QLatin1Char(':'), Qt::SkipEmptyParts))
        if (!out.contains(d)) out << d;
    const QString standard = QStringLiteral("/usr/local/cuda/bin");
    if (!out.contains(standard)) out << standard;
    return out;
}

CudaTools findCudaTools(const QStringList& folders) {
    CudaTools t;
    t.searched = folders;
    auto find = [&](const QString& name) {
        for (const QString& d : folders) {
            const QFileInfo f(QDir(d).filePath(name));
            if (f.isFile() && f.isExecutable()) return f.absoluteFilePath();
        }
        return QString();
    };
    t.ptxas = find(QStringLiteral("ptxas"));
    t.nvdisasm = find(QStringLiteral("nvdisasm"));
    t.cuobjdump = find(QStringLiteral("cuobjdump"));
    return t;
}

QString disassembleSass(const QString& ptx, const QString& arch, const CudaTools& tools, const CancelToken& token) {
    if (!tools.canDisassemble()) throw std::runtime_error(tools.missing().toStdString());
    QTemporaryDir dir;
    if (!dir.isValid()) throw std::runtime_error("no temporary folder for ptxas: " + dir.errorString().toStdString());
    const QString ptxPath = dir.filePath(QStringLiteral("kernels.ptx")), cubin = dir.filePath(QStringLiteral("kernels.cubin"));
    QFile f(ptxPath);
    if (!f.open(QIODevice::WriteOnly) || f.write(ptx.toUtf8()) < 0)
        throw std::runtime_error("cannot write " + ptxPath.toStdString());
    f.close();
    runTool(tools.ptxas, {QStringLiteral("-arch=") + arch, ptxPath, QStringLiteral("-o"), cubin}, token);
    // nvdisasm -c: the code sections only, with its control-flow labels.
    const QByteArray out = !tools.nvdisasm.isEmpty()
                               ? runTool(tools.nvdisasm, {QStringLiteral("-c"), cubin}, token)
                               : runTool(tools.cuobjdump, {QStringLiteral("-sass"), cubin}, token);
    return QString::fromLocal8Bit(out);
}

} // namespace tessel::views
