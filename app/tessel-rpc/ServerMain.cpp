// Placeholder until the server lands (the lead replaces this file).
#include "ServerMain.h"

#include <cstdio>

int serverMain(int, char**) {
    std::fprintf(stderr, "tessel-rpc server: not yet\n");
    return 2;
}
