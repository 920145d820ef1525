#include "ServerMain.h"

#include "rpc/Address.h"
#include "rpc/Auth.h"
#include "rpc/Connection.h"
#include "rpc/Server.h"
#include "rpc/TrackerClient.h"
#include "runtime/DeviceInfo.h"

#include <atomic>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <memory>
#include <string>
#include <thread>

namespace {

std::atomic<bool> gStop{false};
void onSignal(int) { gStop.store(true); }

int usage() {
    std::fprintf(stderr,
                 "usage: tessel-rpc server [--host 127.0.0.1] [--port 9090] [--tracker HOST:PORT --key KEY]\n"
                 "                         [--token-file F] [--tracker-token-file F] [--max-upload MB]\n"
                 "                         [--max-sessions N] [--advertise HOST] [--exit-on-eof]\n");
    return 2;
}

} // namespace

int serverMain(int argc, char** argv) {
    tessel::rpc::ServerOptions o;
    o.version = TESSEL_VERSION;
    std::string tracker, key, tokenFile, trackerTokenFile, advertise;
    bool exitOnEof = false;
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
        else if (a == "--port") {
            try {
                o.port = tessel::rpc::parsePort(value(), "--port");
            } catch (const std::exception& e) {
                std::fprintf(stderr, "tessel-rpc server: %s\n", e.what());
                return 2;
            }
        }
        else if (a == "--tracker") tracker = value();
        else if (a == "--key") key = value();
        else if (a == "--token-file") tokenFile = value();
        else if (a == "--tracker-token-file") trackerTokenFile = value();
        else if (a == "--max-upload") o.maxUploadBytes = std::strtoull(value().c_str(), nullptr, 10) << 20;
        else if (a == "--max-sessions") o.maxSessions = std::max(1, std::atoi(value().c_str()));
        else if (a == "--advertise") advertise = value();
        else if (a == "--exit-on-eof") exitOnEof = true;
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

    std::unique_ptr<tessel::rpc::TrackerLink> link;
    if (!tracker.empty()) {
        std::string th;
        uint16_t tp = 0;
        try {
            const tessel::rpc::HostPort hp = tessel::rpc::parseHostPort(tracker);
            th = hp.host;
            tp = hp.port;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "tessel-rpc server: --tracker: %s\n", e.what());
            return 2;
        }
        std::string trackerToken = o.token;
        try {
            if (!trackerTokenFile.empty()) trackerToken = tessel::rpc::readTokenFile(trackerTokenFile);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "tessel-rpc server: %s\n", e.what());
            return 2;
        }
        auto startLink = o.onListening;
        o.onListening = [&, startLink, th, tp, trackerToken](uint16_t port) {
            startLink(port);
            tessel::rpc::Registration reg;
            reg.key = key;
            reg.host = advertise.empty() && !tessel::rpc::isLoopback(o.host) && o.host != "0.0.0.0" ? o.host : advertise;
            if (reg.host.empty() && tessel::rpc::isLoopback(o.host)) reg.host = o.host;
            reg.port = port;
            reg.deviceJson = tessel::runtime::DeviceInfo::local().toJson(TESSEL_VERSION);
            link = std::make_unique<tessel::rpc::TrackerLink>(th, tp, trackerToken, reg);
            link->setLog([](const std::string& line) { std::fprintf(stderr, "tessel-rpc server: tracker: %s\n", line.c_str()); });
        };
        o.onTick = [&] {
            if (link) link->poll();
        };
        o.onFreeChanged = [&](bool free) {
            if (link) link->setFree(free);
        };
    }

    // Without SA_RESTART, so the loop's poll() returns at once.
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    if (exitOnEof) {
        // A local server (rpc::LocalServer) reads nothing from its stdin, a
        // pipe its owner holds: end of file means the owner is gone. The
        // watcher blocks every signal, so the SIGTERM it raises reaches the
        // main thread and wakes its poll().
        std::thread([] {
            sigset_t all;
            sigfillset(&all);
            pthread_sigmask(SIG_BLOCK, &all, nullptr);
            for (char c;;) {
                const ssize_t n = ::read(0, &c, 1);
                if (n > 0 || (n < 0 && errno == EINTR)) continue;
                break;
            }
            gStop.store(true);
            ::kill(::getpid(), SIGTERM);
        }).detach();
    }
    try {
        tessel::rpc::runServer(o, gStop);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tessel-rpc server: %s\n", e.what());
        return 1;
    }
    return 0;
}
