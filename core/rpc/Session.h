/// \file
/// One client's session on a server, in the session's own process: the
/// handshake, then requests until Bye, an idle timeout, a malformed frame or
/// the client's close. Its files live in a private temporary folder (no
/// client-chosen paths: names only, checked), its tensors in a shared arena
/// (rpc/TensorArena.h). Modules load, and kernels and models run, in the
/// session's runner process (rpc/RunnerProcess.h), forked once and replaced
/// only when a run crashes or hangs; the session's tensors outlive it.
#pragma once

#include "rpc/Connection.h"
#include "rpc/Server.h"

namespace tessel::rpc {

/// Serves `c` until the session ends. Never throws: problems are logged
/// through options.log and end the session.
void serveSession(Connection c, const ServerOptions& options);

/// Whether `name` may name a file in a session folder: 1-64 characters of
/// [A-Za-z0-9._-], not starting with '.'.
bool isSessionFileName(const std::string& name);

} // namespace tessel::rpc
