// tessel-rpc: Tessel's remote devices (docs/rpc.md). `server` runs kernels
// for clients on this machine, `tracker` pools servers by key and hands them
// to clients, `query` prints a tracker's servers and queues. Links the
// runtime and core/rpc only (no LLVM, no Qt), so it builds for a board.
#include "ServerMain.h"

#include "rpc/Address.h"
#include "rpc/Auth.h"
#include "rpc/Tracker.h"
#include "rpc/TrackerClient.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <string>

using namespace tessel;

namespace {

const char* kUsage =
    "usage: tessel-rpc COMMAND [OPTIONS]\n"
    "\n"
    "  server [--host H] [--port 9090] [--tracker HOST:PORT --key KEY] [--token-file F] "
    "[--max-upload MB]\n"
    "        serve this machine's CPU to RPC clients\n"
    "  tracker [--host 127.0.0.1] [--port 9190] [--token-file F] [--heartbeat-timeout MS]\n"
    "        pool servers by key and queue clients' requests; prints 'listening on HOST:PORT'\n"
    "  query HOST:PORT [--json] [--token-file F] [--timeout MS]\n"
    "        print a tracker's keys (total / free / pending), servers and queues\n"
    "\n"
    "A non-loopback --host needs --token-file (the first line of the file is the shared token).\n";

std::atomic<bool> gStop{false};

extern "C" void onStopSignal(int) {
    gStop.store(true);
}

/// SIGINT and SIGTERM set gStop; without SA_RESTART, so a waiting poll()
/// returns at once.
void catchStopSignals() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

/// "2026-11-24 16:40:01.123"
std::string timestamp() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const int ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d.%03d", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
    return buf;
}

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The value after option argv[i].
std::string valueOf(int argc, char** argv, int& i) {
    if (i + 1 >= argc) throw UsageError(std::string(argv[i]) + " needs a value");
    return argv[++i];
}

int positiveMs(const std::string& text, const char* option) {
    try {
        size_t used = 0;
        const long v = std::stol(text, &used);
        if (used == text.size() && v > 0 && v <= 24L * 3600 * 1000) return static_cast<int>(v);
    } catch (const std::exception&) {
    }
    throw UsageError(std::string(option) + " takes milliseconds (a positive number), not '" + text +
                     "'");
}

int trackerMain(int argc, char** argv) {
    rpc::TrackerOptions options;
    std::string tokenFile;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--host")
            options.host = valueOf(argc, argv, i);
        else if (a == "--port")
            options.port = rpc::parsePort(valueOf(argc, argv, i));
        else if (a == "--token-file")
            tokenFile = valueOf(argc, argv, i);
        else if (a == "--heartbeat-timeout")
            options.heartbeatTimeoutMs = positiveMs(valueOf(argc, argv, i), "--heartbeat-timeout");
        else
            throw UsageError("tracker: unknown option '" + a + "'");
    }
    if (!tokenFile.empty()) options.token = rpc::readTokenFile(tokenFile);
    std::mutex logMutex;
    options.log = [&](const std::string& line) {
        std::lock_guard lock(logMutex);
        std::fprintf(stderr, "%s tracker: %s\n", timestamp().c_str(), line.c_str());
        std::fflush(stderr);
    };
    options.onListening = [&](uint16_t port) {
        std::printf("listening on %s:%u\n", options.host.c_str(), static_cast<unsigned>(port));
        std::fflush(stdout);
    };
    catchStopSignals();
    rpc::runTracker(options, gStop);
    return 0;
}

int queryMain(int argc, char** argv) {
    std::string address, tokenFile;
    bool json = false;
    int timeoutMs = 5000;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json")
            json = true;
        else if (a == "--token-file")
            tokenFile = valueOf(argc, argv, i);
        else if (a == "--timeout")
            timeoutMs = positiveMs(valueOf(argc, argv, i), "--timeout");
        else if (!a.starts_with("--") && address.empty())
            address = a;
        else
            throw UsageError("query: unknown option '" + a + "'");
    }
    if (address.empty()) throw UsageError("query: which tracker? (HOST:PORT)");
    const rpc::HostPort hp = rpc::parseHostPort(address, 9190);
    const std::string token = tokenFile.empty() ? std::string() : rpc::readTokenFile(tokenFile);
    const rpc::TrackerStatus status = rpc::queryTracker(hp.host, hp.port, token, timeoutMs);
    if (json)
        std::printf("%s\n", status.json.c_str());
    else
        std::printf("%s", status.text().c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "--help" || command == "-h" || command == "help") {
        std::printf("%s", kUsage);
        return 0;
    }
    try {
        // ---- server: the lead's (app/tessel-rpc/ServerMain.cpp) ----
        if (command == "server") return serverMain(argc - 1, argv + 1);
        if (command == "tracker") return trackerMain(argc - 1, argv + 1);
        if (command == "query") return queryMain(argc - 1, argv + 1);
        throw UsageError(command.empty() ? "which command?" : "unknown command '" + command + "'");
    } catch (const UsageError& e) {
        std::fprintf(stderr, "tessel-rpc: %s\n\n%s", e.what(), kUsage);
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "tessel-rpc: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        // RpcError says the step and the reason; a token file that cannot be read names the file.
        std::fprintf(stderr, "tessel-rpc %s: error: %s\n", command.c_str(), e.what());
        return 1;
    }
}
