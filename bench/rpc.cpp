// bench_rpc: the tracker and servers under load, and what measuring in a
// child process costs.
//
// 1. One tracker, 2 local servers (key "bench"), 32 client processes x 50
//    requests. Each request: ask the tracker for a server, open a session,
//    upload and load the kernel, run a 1 ms kernel that echoes the request's
//    tag, fetch it, end the session, release the server. Every request must
//    come back with its own tag exactly once. Prints requests per second and
//    the p50/p99 latency of a request.
// 2. The same tiny kernel measured by the in-process runner and by the local
//    runner (a tessel-rpc server child): ms per measurement, and the
//    difference (what isolation costs).
//
//   build/bin/bench_rpc [--clients 32] [--requests 50]
#include "rpc/Client.h"
#include "rpc/RpcRunner.h"
#include "rpc/TrackerClient.h"
#include "runtime/InProcessRunner.h"
#include "runtime/TimeEvaluator.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

extern char** environ;
using namespace tessel;
using Clock = std::chrono::steady_clock;

namespace {

/// A tessel-rpc child; its port from "listening on HOST:PORT".
struct Child {
    pid_t pid = -1;
    uint16_t port = 0;
    explicit Child(std::vector<std::string> args) {
        int out[2];
        if (::pipe(out) != 0) std::exit(1);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        if (posix_spawn(&pid, args[0].c_str(), &fa, nullptr, argv.data(), environ) != 0) std::exit(1);
        ::close(out[1]);
        std::string line;
        char c;
        while (::read(out[0], &c, 1) == 1 && c != '\n') line += c;
        ::close(out[0]);
        port = static_cast<uint16_t>(std::atoi(line.c_str() + line.rfind(':') + 1));
    }
    ~Child() {
        ::kill(pid, SIGTERM);
        ::waitpid(pid, nullptr, 0);
    }
};

std::vector<char> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

/// One client process: `requests` requests; writes "ok tag ms" or "lost tag why" lines to `fd`.
[[noreturn]] void clientMain(int id, int requests, uint16_t trackerPort, const std::vector<char>& lib, int fd) {
    std::string out;
    try {
        rpc::TrackerClient tracker("127.0.0.1", trackerPort, "", 10000, "bench-client-" + std::to_string(id));
        for (int r = 0; r < requests; ++r) {
            const int64_t tag = int64_t(id) * 100000 + r;
            const auto t0 = Clock::now();
            try {
                const rpc::Assignment a = tracker.request("bench", 0, rpc::deadlineIn(120000));
                rpc::Client c = rpc::Client::connect(a.host, a.port, rpc::ClientOptions{});
                c.upload("busy.so", lib.data(), lib.size());
                c.loadModule("busy.so", {"busy_1ms"});
                runtime::NDArray in({1}, DataType::int64()), got;
                in.data<int64_t>()[0] = tag;
                const uint64_t x = c.alloc(DataType::int64(), {1}), y = c.alloc(DataType::int64(), {1});
                c.copyTo(x, in);
                rpc::RunSpec once;
                once.repeat = 0;
                c.run("busy_1ms", {x, y}, once, {false, true});
                got = c.copyFrom(y, {1}, DataType::int64());
                c.bye();
                tracker.release();
                const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
                if (got.data<int64_t>()[0] == tag) out += "ok " + std::to_string(tag) + " " + std::to_string(ms) + "\n";
                else out += "lost " + std::to_string(tag) + " wrong-tag\n";
            } catch (const std::exception& e) {
                out += "lost " + std::to_string(tag) + " " + e.what() + "\n";
                tracker.release();
            }
        }
    } catch (const std::exception& e) {
        out += std::string("lost client ") + e.what() + "\n";
    }
    if (::write(fd, out.data(), out.size()) < 0) {}
    ::_exit(0);
}

} // namespace

int main(int argc, char** argv) {
    int clients = 32, requests = 50;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--clients")) clients = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--requests")) requests = std::atoi(argv[i + 1]);
    }
    const std::string bin = TESSEL_BINARY_DIR "/bin/tessel-rpc";
    const std::vector<char> lib = readFile(RPC_KERNELS);
    std::printf("RPC under load: 1 tracker, 2 local servers, %d client processes x %d requests\n", clients, requests);
    std::printf("(a request: tracker request, session, upload + load, 1 ms kernel, fetch, bye, release)\n");
    Child tracker({bin, "tracker", "--port", "0"});
    const std::string at = "127.0.0.1:" + std::to_string(tracker.port);
    Child s1({bin, "server", "--port", "0", "--tracker", at, "--key", "bench"});
    Child s2({bin, "server", "--port", "0", "--tracker", at, "--key", "bench"});
    for (int i = 0; i < 50; ++i) { // both registered
        try {
            if (rpc::queryTracker("127.0.0.1", tracker.port, "").servers.size() == 2) break;
        } catch (...) {
        }
        ::usleep(100000);
    }
    int fds[2];
    if (::pipe(fds) != 0) return 1;
    const auto t0 = Clock::now();
    std::vector<pid_t> pids;
    for (int c = 0; c < clients; ++c) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::close(fds[0]);
            clientMain(c, requests, tracker.port, lib, fds[1]);
        }
        pids.push_back(pid);
    }
    ::close(fds[1]);
    std::string all;
    char buf[65536];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) all.append(buf, size_t(n));
    for (pid_t p : pids) ::waitpid(p, nullptr, 0);
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    std::vector<double> ms;
    std::multiset<long long> tags;
    int lost = 0;
    size_t pos = 0;
    while (pos < all.size()) {
        const size_t end = all.find('\n', pos);
        const std::string line = all.substr(pos, end - pos);
        pos = end + 1;
        if (line.rfind("ok ", 0) == 0) {
            long long tag = 0;
            double m = 0;
            std::sscanf(line.c_str() + 3, "%lld %lf", &tag, &m);
            tags.insert(tag);
            ms.push_back(m);
        } else {
            ++lost;
            std::printf("  %s\n", line.c_str());
        }
    }
    int twice = 0;
    for (auto it = tags.begin(); it != tags.end(); it = tags.upper_bound(*it)) twice += int(tags.count(*it) > 1);
    std::printf("  served %zu of %d, lost %d, served twice %d\n", ms.size(), clients * requests, lost, twice);
    if (!ms.empty())
        std::printf("  %.0f requests/s; latency p50 %.2f ms, p99 %.2f ms (%.1f s in all)\n", double(ms.size()) / seconds,
                    percentile(ms, 0.5), percentile(ms, 0.99), seconds);

    // 2. The cost of isolation, per measurement.
    runtime::BuildArtifact art;
    art.library = lib;
    art.signature.name = "nothing";
    art.signature.args = {{"in", DataType::int64(), {1}, false}, {"out", DataType::int64(), {1}, true}};
    runtime::RunRequest req;
    req.evaluator = {1, 1, 0, 0};
    req.fetchOutputs = false;
    auto perRun = [&](runtime::Runner& r) {
        std::vector<double> times;
        for (int round = 0; round < 5; ++round) {
            const auto a = Clock::now();
            for (int i = 0; i < 20; ++i)
                if (!r.run(art, req).ok) std::printf("  %s: a run failed\n", r.name().c_str());
            times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count() / 20);
        }
        return runtime::median(times);
    };
    runtime::InProcessRunner here;
    rpc::LocalRunner local;
    local.run(art, req); // start its server
    const double hereMs = perRun(here), localMs = perRun(local);
    std::printf("\nOne measurement of an empty kernel (load the library, allocate, run once untimed and once timed):\n");
    std::printf("  in process %.3f ms, in a tessel-rpc server child %.3f ms: isolation costs %.3f ms per measurement\n",
                hereMs, localMs, localMs - hereMs);
    return lost == 0 && twice == 0 ? 0 : 1;
}
