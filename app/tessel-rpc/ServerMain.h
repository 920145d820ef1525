/// \file
/// `tessel-rpc server ...` (docs/rpc.md): main() hands the server its own
/// arguments, argv[0] being "server" and the rest its options.
#pragma once

/// Runs the server until SIGINT or SIGTERM; returns the process's exit code
/// (2: usage).
int serverMain(int argc, char** argv);
