/// \file
/// `tessel-rpc server`: options, the tracker link, logging; the work is rpc::runServer.
#pragma once

/// argv[0] is "server"; returns the process's exit status.
int serverMain(int argc, char** argv);
