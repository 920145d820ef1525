// tessel-rpc: the RPC server for devices (the tracker and query subcommands
// come with the tracker).
#include "ServerMain.h"

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "server") == 0) return serverMain(argc - 1, argv + 1);
    std::fprintf(stderr, "usage: tessel-rpc server [options]\n");
    return 2;
}
