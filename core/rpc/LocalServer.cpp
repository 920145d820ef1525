#include "rpc/LocalServer.h"

#include "rpc/Auth.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace tessel::rpc {

namespace fs = std::filesystem;

std::string LocalServer::findBinary() {
    if (const char* env = std::getenv("TESSEL_RPC_SERVER"); env && *env) return env;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path next = self.parent_path() / "tessel-rpc";
        if (fs::exists(next, ec)) return next.string();
    }
    if (const char* path = std::getenv("PATH")) {
        std::stringstream ss(path);
        std::string dir;
        while (std::getline(ss, dir, ':'))
            if (!dir.empty() && ::access((fs::path(dir) / "tessel-rpc").c_str(), X_OK) == 0)
                return (fs::path(dir) / "tessel-rpc").string();
    }
    return {};
}

LocalServer::LocalServer(std::string binary) : binary_(std::move(binary)) {}

std::shared_ptr<LocalServer> LocalServer::shared() {
    static std::shared_ptr<LocalServer> server = std::make_shared<LocalServer>();
    return server;
}

LocalServer::~LocalServer() {
    stopLocked();
    if (!dir_.empty()) {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
}

bool LocalServer::running() const {
    std::lock_guard lock(m_);
    if (pid_ <= 0) return false;
    int status = 0;
    return ::waitpid(pid_, &status, WNOHANG) == 0;
}

void LocalServer::stop() {
    std::lock_guard lock(m_);
    stopLocked();
}

void LocalServer::stopLocked() {
    if (lifeline_ >= 0) {
        ::close(lifeline_);
        lifeline_ = -1;
    }
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
        int status = 0;
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_ || (r < 0 && errno == ECHILD)) {
            pid_ = -1;
            return;
        }
        ::usleep(10000);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

std::string LocalServer::lastLog(int lines) const {
    if (dir_.empty()) return {};
    std::ifstream in(dir_ + "/server.log");
    std::vector<std::string> all;
    std::string line;
    while (std::getline(in, line)) all.push_back(line);
    std::string out;
    for (size_t i = all.size() > size_t(lines) ? all.size() - size_t(lines) : 0; i < all.size(); ++i)
        out += all[i] + "\n";
    return out;
}

void LocalServer::ensureRunning() {
    std::lock_guard lock(m_);
    if (pid_ > 0) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == 0) return; // running
        pid_ = -1; // it died (and is reaped now): start again
    }
    if (binary_.empty()) binary_ = findBinary();
    if (binary_.empty())
        throw std::runtime_error("cannot find tessel-rpc (next to this program or on PATH; TESSEL_RPC_SERVER names it)");
    if (dir_.empty()) {
        std::string tmpl = (fs::temp_directory_path() / "tessel-local-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error(std::string("cannot create a folder: ") + std::strerror(errno));
        dir_ = tmpl;
        const Nonce n = randomNonce();
        static const char hex[] = "0123456789abcdef";
        for (unsigned char b : n) {
            token_ += hex[b >> 4];
            token_ += hex[b & 15];
        }
        const std::string tokenPath = dir_ + "/token";
        const int fd = ::open(tokenPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0 || ::write(fd, token_.data(), token_.size()) != ssize_t(token_.size()))
            throw std::runtime_error("cannot write the local server's token file");
        ::close(fd);
    }

    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe");
    // The server's stdin: it stops when the write end closes, which the
    // kernel does when this process ends, however it ends.
    int life[2];
    if (::pipe2(life, O_CLOEXEC) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        throw std::runtime_error("cannot create a pipe");
    }
    const std::string logPath = dir_ + "/server.log";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&actions, life[0], 0);
    const std::string tokenPath = dir_ + "/token";
    std::vector<std::string> args = {binary_, "server", "--host", "127.0.0.1", "--port", "0", "--token-file", tokenPath,
                                     "--exit-on-eof"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, binary_.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    ::close(life[0]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(life[1]);
        throw std::runtime_error("cannot start '" + binary_ + "': " + std::strerror(rc));
    }
    pid_ = pid;
    lifeline_ = life[1];
    ++starts_;

    // It prints "listening on 127.0.0.1:PORT" once it accepts connections.
    std::string text;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (text.find('\n') == std::string::npos && std::chrono::steady_clock::now() < until) {
        pollfd p{out[0], POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        char buf[256];
        const ssize_t n = ::read(out[0], buf, sizeof buf);
        if (n <= 0) break;
        text.append(buf, size_t(n));
    }
    ::close(out[0]);
    const auto colon = text.rfind(':', text.find('\n'));
    if (text.rfind("listening on ", 0) != 0 || colon == std::string::npos) {
        stopLocked();
        throw std::runtime_error("the local tessel-rpc server did not start: " + lastLog(5));
    }
    port_ = static_cast<uint16_t>(std::atoi(text.c_str() + colon + 1));
}

} // namespace tessel::rpc
