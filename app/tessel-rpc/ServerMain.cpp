#include "ServerMain.h"

#include "rpc/Auth.h"
#include "rpc/Connection.h"
#include "rpc/Server.h"
#include "runtime/DeviceInfo.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace {

std::atomic<bool> gStop{false};
void onSignal(int) { gStop.store(true); }

int usage() {
    std::fprintf(stderr,
                 "usage: tessel-rpc server [--host 127.0.0.1] [--port 9090] [--tracker HOST:PORT --key KEY]\n"
                 "                         [--token-file F] [--tracker-token-file F] [--max-upload MB]\n"
                 "                         [--max-sessions N] [--advertise HOST]\n");
    return 2;
}

bool splitHostPort(const std::string& text, std::string& host, uint16_t& port) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) return false;
    host = text.substr(0, colon);
    char* end = nullptr;
    const long p = std::strtol(text.c_str() + colon + 1, &end, 10);
    if (*end || p <= 0 || p > 65535) return false;
    port = static_cast<uint16_t>(p);
    return true;
}

} // namespace

int serverMain(int argc, char** argv) {
    tessel::rpc::ServerOptions o;
    o.version = TESSEL_VERSION;
    std::string tracker, key, tokenFile, trackerTokenFile, advertise;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "tessel-rpc server: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--host") o.host = value();
        else if (a == "--port") o.port = static_cast<uint16_t>(std::atoi(value().c_str()));
        else if (a == "--tracker") tracker = value();
        else if (a == "--key") key = value();
        else if (a == "--token-file") tokenFile = value();
        else if (a == "--tracker-token-file") trackerTokenFile = value();
        else if (a == "--max-upload") o.maxUploadBytes = std::strtoull(value().c_str(), nullptr, 10) << 20;
        else if (a == "--max-sessions") o.maxSessions = std::max(1, std::atoi(value().c_str()));
        else if (a == "--advertise") advertise = value();
        else if (a == "-h" || a == "--help") return usage(), 0;
        else {
            std::fprintf(stderr, "tessel-rpc server: unknown option '%s'\n", a.c_str());
            return usage();
        }
    }
    if (tracker.empty() != key.empty()) {
        std::fprintf(stderr, "tessel-rpc server: --tracker and --key go together\n");
        return 2;
    }
    try {
        if (!tokenFile.empty()) o.token = tessel::rpc::readTokenFile(tokenFile);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tessel-rpc server: %s\n", e.what());
        return 2;
    }
    o.log = [](const std::string& line) { std::fprintf(stderr, "tessel-rpc server: %s\n", line.c_str()); };
    o.onListening = [&](uint16_t port) {
        std::printf("listening on %s:%u\n", o.host.c_str(), port);
        std::fflush(stdout);
    };

    if (!tracker.empty()) {
        std::fprintf(stderr, "tessel-rpc server: --tracker: this build has no tracker link yet\n");
        return 2;
    }

    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    try {
        tessel::rpc::runServer(o, gStop);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tessel-rpc server: %s\n", e.what());
        return 1;
    }
    return 0;
}
