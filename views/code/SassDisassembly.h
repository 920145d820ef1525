/// \file
/// SASS, the machine code a GPU runs, for the code view: the PTX assembled by
/// `ptxas -arch=sm_XX` into a cubin in a temporary folder, then disassembled by
/// `nvdisasm -c` (or `cuobjdump -sass`). These are the CUDA toolkit's tools,
/// which a fresh Debian 12 does not have: they are looked up on PATH and in
/// /usr/local/cuda/bin ($CUDA_HOME/bin first), and without them the pane says
/// which one is missing. The tools run as processes on a worker (Jobs), never
/// on the GUI thread.
#pragma once

#include <QString>
#include <QStringList>

namespace tessel::views {

class CancelToken;

struct CudaTools {
    QString ptxas, nvdisasm, cuobjdump; ///< absolute paths; empty: not found
    /// ptxas and a disassembler were found.
    bool canDisassemble() const { return !ptxas.isEmpty() && (!nvdisasm.isEmpty() || !cuobjdump.isEmpty()); }
    /// Why SASS cannot be shown, naming the missing tools and where they were
    /// looked for; empty when it can.
    QString missing() const;
    QStringList searched; ///< the folders looked in, in order
};

/// The folders CUDA tools are looked for in: $CUDA_HOME/bin, PATH, /usr/local/cuda/bin.
QStringList cudaToolFolders();
/// The tools found in `folders` (the first folder that has each).
CudaTools findCudaTools(const QStringList& folders = cudaToolFolders());

/// SASS of `ptx` for `arch` ("sm_90"). Blocks while the tools run: call it on a
/// worker. Throws std::runtime_error with the tool's own message when one
/// fails (or was cancelled through `token`).
QString disassembleSass(const QString& ptx, const QString& arch, const CudaTools& tools, const CancelToken& token);

} // namespace tessel::views
