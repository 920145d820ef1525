// The RPC server over loopback: a session's round trip, kernels that crash,
// hang and fail (an error naming the signal or the limit, then the next
// request served), runs in one runner process replaced only after a crash or
// a hang, a kernel that writes an argument the run reads (a crash, the
// session's tensor intact), devices in requests (one that is not there is a
// clear error), malformed and truncated frames, a client that leaves
// mid-upload, tokens, the busy limit, and the refusal to serve a
// non-loopback address without a token. The server runs in a forked child of
// the test, as `tessel-rpc server` would.
#include "runtime/CudaDeviceAPI.h"
#include "rpc/Client.h"
#include "rpc/Handshake.h"
#include "rpc/Server.h"

#include <QtTest>

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

using namespace tessel;
using namespace tessel::rpc;

namespace {

std::atomic<bool> gStop{false};

/// A server in a child process; its log goes to a file the test reads.
struct ForkedServer {
    pid_t pid = -1;
    uint16_t port = 0;
    std::string logPath;

    explicit ForkedServer(ServerOptions o) {
        char tmpl[] = "/tmp/tessel-rpc-test-log-XXXXXX";
        const int logFd = ::mkstemp(tmpl);
        logPath = tmpl;
        int fds[2];
        if (::pipe(fds) != 0) qFatal("pipe");
        pid = ::fork();
        if (pid == 0) {
            ::close(fds[0]);
            ::signal(SIGTERM, [](int) { gStop.store(true); });
            o.onListening = [&](uint16_t p) {
                if (::write(fds[1], &p, sizeof p) != sizeof p) ::_exit(3);
                ::close(fds[1]);
            };
            o.log = [logFd](const std::string& line) {
                const std::string l = line + "\n";
                if (::write(logFd, l.data(), l.size()) < 0) {}
            };
            try {
                runServer(o, gStop);
            } catch (...) {
                ::_exit(4);
            }
            ::_exit(0);
        }
        ::close(logFd);
        ::close(fds[1]);
        if (::read(fds[0], &port, sizeof port) != sizeof port) qFatal("the server did not start");
        ::close(fds[0]);
    }
    ~ForkedServer() {
        ::kill(pid, SIGTERM);
        int status = 0;
        ::waitpid(pid, &status, 0);
        ::unlink(logPath.c_str());
    }
    bool alive() const { return ::kill(pid, 0) == 0; }
    std::string log() const {
        std::ifstream in(logPath);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    /// Waits until the log mentions `text` (sessions log from their own process).
    bool logSays(const std::string& text, int ms = 3000) const {
        for (int waited = 0; waited < ms; waited += 20) {
            if (log().find(text) != std::string::npos) return true;
            QThread::msleep(20);
        }
        return false;
    }
};

std::vector<char> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Loaded {
    Client client;
    uint64_t in = 0, out = 0;
    runtime::NDArray input;
};

Loaded openWithKernels(uint16_t port, const std::string& token = {}) {
    ClientOptions co;
    co.token = token;
    co.name = "tst_server";
    Loaded l;
    l.client = Client::connect("127.0.0.1", port, co);
    const auto lib = readFile(TEST_KERNELS);
    l.client.upload("kernels.so", lib.data(), lib.size());
    l.client.loadModule("kernels.so", {"add_one", "crash", "spin", "fail", "scribble"});
    l.input = runtime::NDArray({1024}, DataType::float32());
    l.input.fillRandom(7, 0.0, 1.0);
    l.in = l.client.alloc(DataType::float32(), {1024});
    l.out = l.client.alloc(DataType::float32(), {1024});
    l.client.copyTo(l.in, l.input);
    return l;
}

void checkAddOne(Loaded& l) {
    RunSpec spec;
    spec.repeat = 3;
    spec.minRepeatMs = 1;
    const Timing t = l.client.run("add_one", {l.in, l.out}, spec);
    QCOMPARE(t.repeatsMs.size(), size_t(3));
    for (double ms : t.repeatsMs) QVERIFY(ms > 0 && ms < 100);
    const runtime::NDArray out = l.client.copyFrom(l.out, {1024}, DataType::float32());
    for (int i = 0; i < 1024; ++i) QCOMPARE(out.data<float>()[i], l.input.data<float>()[i] + 1.0f);
}

/// Expects `f` to throw an RpcError from the server with `code` whose text contains `text`.
template <class F> void expectRemote(F&& f, ErrorCode code, const std::string& text) {
    try {
        f();
    } catch (const RpcError& e) {
        QCOMPARE(int(e.failure()), int(Failure::Remote));
        QCOMPARE(errorCodeName(e.remote()), errorCodeName(code));
        QVERIFY2(e.why().find(text) != std::string::npos, e.what());
        return;
    }
    QFAIL("no error");
}

/// A raw connection past the handshake, for sending malformed frames.
Connection rawSession(uint16_t port) {
    Connection c = Connection::connect("127.0.0.1", port, deadlineIn(5000));
    clientHandshake(c, Role::Client, "raw", "", deadlineIn(5000));
    return c;
}

/// Whether the server closed `c` (reading gives end of stream or an error frame then end).
bool closedByServer(Connection& c) {
    try {
        for (int i = 0; i < 3; ++i) c.receive(1 << 20, deadlineIn(3000), "read");
    } catch (const RpcError& e) {
        return e.failure() == Failure::Closed;
    }
    return false;
}

} // namespace

class TestServer : public QObject {
    Q_OBJECT
private slots:
    void aSessionRoundTrip() {
        ForkedServer s(ServerOptions{.host = "127.0.0.1", .port = 0});
        Loaded l = openWithKernels(s.port);
        QVERIFY(l.client.welcome().find("tessel-rpc server") == 0);
        const runtime::DeviceInfo d = l.client.device();
        QCOMPARE(d.triple, runtime::DeviceInfo::local().triple);
        QVERIFY(d.cores >= 1);
        checkAddOne(l);
        // Untimed single call.
        RunSpec once;
        once.repeat = 0;
        QCOMPARE(l.client.run("add_one", {l.in, l.out}, once).repeatsMs.size(), size_t(1));
        l.client.free(l.in);
        expectRemote([&] { l.client.free(l.in); }, ErrorCode::NotFound, "no tensor");
        expectRemote([&] { l.client.run("nope", {l.out}, once); }, ErrorCode::NotFound, "no function 'nope'");
        expectRemote([&] { l.client.upload("garbage.so", "not an ELF", 10); l.client.loadModule("garbage.so", {}); },
                     ErrorCode::Load, "garbage.so");
        expectRemote([&] { l.client.upload("../evil.so", "x", 1); }, ErrorCode::Protocol, "not a plain file name");
        expectRemote([&] { l.client.loadModule("missing.so", {}); }, ErrorCode::NotFound, "no file");
        expectRemote([&] { l.client.loadModule("kernels.so", {"add_one", "nope"}); }, ErrorCode::NotFound,
                     "has no function 'nope'");
        expectRemote([&] { l.client.alloc(DataType::float32(), {1 << 30, 1 << 30}); }, ErrorCode::Limit, "limit");
        l.client.bye();
        QVERIFY(s.logSays("ended (bye)"));
    }

    void aCrashingKernelIsAnErrorThatNamesTheSignal() {
        ForkedServer s(ServerOptions{.host = "127.0.0.1", .port = 0});
        Loaded l = openWithKernels(s.port);
        RunSpec spec;
        spec.repeat = 0;
        expectRemote([&] { l.client.run("crash", {l.in}, spec); }, ErrorCode::Crash, "SIGSEGV");
        // The same session goes on, its tensors intact.
        checkAddOne(l);
        expectRemote([&] { l.client.run("fail", {l.in}, spec); }, ErrorCode::Runtime, "error code 7");
        checkAddOne(l);
        QVERIFY(s.alive());
        QVERIFY(s.logSays("SIGSEGV"));
    }

    void runsShareOneRunnerProcessUntilACrash() {
        ForkedServer s(ServerOptions{.host = "127.0.0.1", .port = 0});
        Loaded l = openWithKernels(s.port);
        for (int i = 0; i < 10; ++i) checkAddOne(l);
        auto starts = [&] {
            const std::string log = s.log();
            int n = 0;
            for (size_t at = log.find("runner process"); at != std::string::npos; at = log.find("runner process", at + 1)) ++n;
            return n;
        };
        QCOMPARE(starts(), 1); // forked once, when the module loaded
        RunSpec once;
        once.repeat = 0;
        expectRemote([&] { l.client.run("crash", {l.in}, once); }, ErrorCode::Crash, "SIGSEGV");
        checkAddOne(l); // a new runner, with the module loaded again
        checkAddOne(l);
        QCOMPARE(starts(), 2);
    }

    void aKernelCannotChangeAnArgumentItOnlyReads() {
        ForkedServer s(ServerOptions{.host = "127.0.0.1", .port = 0});
        Loaded l = openWithKernels(s.port);
        RunSpec once;
        once.repeat = 0;
        expectRemote([&] { l.client.run("scribble", {l.in}, once, {false}); }, ErrorCode::Crash, "SIGSEGV");
        const runtime::NDArray in = l.client.copyFrom(l.in, {1024}, DataType::float32());
        QCOMPARE(in.data<float>()[0], l.input.data<float>()[0]);
        // Written, the change reaches the session.
        l.client.run("scribble", {l.in}, once, {true});
        QCOMPARE(l.client.copyFrom(l.in, {1024}, DataType::float32()).data<float>()[0], -1.0f);
        l.client.copyTo(l.in, l.input);
        checkAddOne(l);
    }

    void devicesThatAreNotThereAreClearErrors() {
        if (runtime::CudaDeviceAPI().count() > 0) QSKIP("this machine has a CUDA device");
        ForkedServer s(ServerOptions{.host = "127.0.0.1", .port = 0});
        Loaded l = openWithKernels(s.port);
        QVERIFY(l.client.deviceJson().find("\"devices\":[\"cpu:0\"") != std::string::npos);
        // The CUDA API is in every process; without a driver or a GPU it says so.
        expectRemote([&] { l.client.alloc(DataType::float32(), {4}, runtime::Device::cuda(0)); }, ErrorCode::NotFound,
                     "NVIDIA");
        expectRemote([&] { l.client.alloc(DataType::float32(), {4}, runtime::Device::cpu(1)); }, ErrorCode::NotFound,
                     "cpu:1 does not exist");
        expectRemote([&] { l.client.loadModule("kernels.so", {"add_one"}, runtime::Device::cuda(0)); },
                     ErrorCode::NotFound, "NVIDIA");
        RunSpec onGpu;
        onGpu.device = runtime::Device::cuda(0);
        expectRemote([&] { l.client.run("add_one", {l.in, l.out}, onGpu); }, ErrorCode::Protocol,
                     "loaded for cpu:0, not for cuda:0");
        checkAddOne(l);
    }

    void aHangingKernelIsKilledAtItsTimeLimit() {
        ForkedServer s(ServerOptions{.host = "127.0.0.1", .port = 0});
        Loaded l = openWithKernels(s.port);
        RunSpec spec;
        spec.repeat = 0;
        spec.timeoutMs = 500;
        QElapsedTimer t;
        t.start();
        expectRemote([&] { l.client.run("spin", {l.in}, spec); }, ErrorCode::Timeout, "time limit");
        QVERIFY(t.elapsed() < 5000);
        checkAddOne(l);
        // And a new client is served too.
        Loaded other = openWithKernels(s.port);
        checkAddOne(other);
    }

    void malformedFramesCloseThatConnectionOnly() {
        ForkedServer s(ServerOptions{.host = "127.0.0.1", .port = 0});
        {   // Random bytes instead of a hello.
            Connection c = Connection::connect("127.0.0.1", s.port, deadlineIn(5000));
            std::vector<char> junk(64);
            for (size_t i = 0; i < junk.size(); ++i) junk[i] = char(i * 37 + 11);
            // A header with code 0, then a hello of junk, in one write: the server may close
            // the connection after the first header, so a second send could meet EPIPE.
            std::vector<char> bytes(kHeaderBytes);
            writeHeader(bytes.data(), uint16_t(0), 0);
            std::vector<char> hello(kHeaderBytes);
            writeHeader(hello.data(), uint16_t(Code::Hello), junk.size());
            bytes.insert(bytes.end(), hello.begin(), hello.end());
            bytes.insert(bytes.end(), junk.begin(), junk.end());
            sendRaw(c, bytes);
            QVERIFY(closedByServer(c));
        }
        QVERIFY(s.logSays("refused"));
        {   // An upload whose fields are missing (a truncated field).
            Connection c = rawSession(s.port);
            c.send(uint16_t(Code::Upload), {}, deadlineIn(1000), "x");
            QVERIFY(closedByServer(c));
        }
        QVERIFY(s.logSays("truncated field"));
        {   // A length of 2^62 after the handshake.
            Connection c = rawSession(s.port);
            std::vector<char> frame(h2(uint64_t(1) << 62));
            sendRaw(c, frame);
            QVERIFY(closedByServer(c));
        }
        QVERIFY(s.logSays("over the limit"));
        {   // A count larger than the frame: a run with 1000 arguments and 8 bytes of them.
            Connection c = rawSession(s.port);
            Writer w;
            w.str("add_one").u32(1000).u64(1).u8(1);
            c.send(Code::Run, w.take(), deadlineIn(1000), "run");
            QVERIFY(closedByServer(c));
        }
        QVERIFY(s.logSays("larger than the frame"));
        {   // A truncated frame, then the client leaves.
            Connection c = rawSession(s.port);
            std::vector<char> frame(kHeaderBytes);
            writeHeader(frame.data(), uint16_t(Code::Alloc), 100);
            frame.resize(kHeaderBytes + 10);
            sendRaw(c, frame);
            c.close();
        }
        Loaded l = openWithKernels(s.port);
        checkAddOne(l);
        QVERIFY(s.alive());
    }

    void aClientThatLeavesMidUploadCostsNothing() {
        ForkedServer s(ServerOptions{.host = "127.0.0.1", .port = 0});
        {
            Connection c = rawSession(s.port);
            Writer w;
            w.str("big.so").u64(10 << 20);
            std::vector<char> head(kHeaderBytes);
            auto payload = w.take();
            writeHeader(head.data(), uint16_t(Code::Upload), payload.size() + (10 << 20));
            head.insert(head.end(), payload.begin(), payload.end());
            head.resize(head.size() + (1 << 20));
            sendRaw(c, head);
            c.close();
        }
        QVERIFY(s.logSays("closed by the client"));
        Loaded l = openWithKernels(s.port);
        checkAddOne(l);
    }

    void tokens() {
        ServerOptions o{.host = "127.0.0.1", .port = 0};
        o.token = "sesame";
        ForkedServer s(o);
        try {
            Client::connect("127.0.0.1", s.port, ClientOptions{});
            QFAIL("a client without a token was welcomed");
        } catch (const RpcError& e) {
            QCOMPARE(int(e.remote()), int(ErrorCode::Auth));
        }
        try {
            Client::connect("127.0.0.1", s.port, ClientOptions{.token = "open"});
            QFAIL("a wrong token was welcomed");
        } catch (const RpcError& e) {
            QCOMPARE(int(e.remote()), int(ErrorCode::Auth));
        }
        QVERIFY(s.logSays("wrong token"));
        Loaded l = openWithKernels(s.port, "sesame");
        checkAddOne(l);
    }

    void busyWhenEverySessionIsTaken() {
        ServerOptions o{.host = "127.0.0.1", .port = 0};
        o.maxSessions = 1;
        ForkedServer s(o);
        Loaded first = openWithKernels(s.port);
        try {
            Client::connect("127.0.0.1", s.port, ClientOptions{});
            QFAIL("a second session was served");
        } catch (const RpcError& e) {
            QCOMPARE(int(e.remote()), int(ErrorCode::Busy));
        }
        first.client.bye();
        QVERIFY(s.logSays("ended (bye)"));
        QThread::msleep(300); // the server reaps the session on its next turn
        Loaded again = openWithKernels(s.port);
        checkAddOne(again);
    }

    void noTokenNoOpenAddress() {
        std::atomic<bool> stop{true};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runServer(ServerOptions{.host = "0.0.0.0", .port = 0}, stop));
    }

private:
    static std::vector<char> h2(uint64_t length) {
        std::vector<char> h(kHeaderBytes);
        writeHeader(h.data(), uint16_t(Code::Upload), length);
        return h;
    }
    /// Bytes written by hand (headers that lie), straight onto the socket.
    static void sendRaw(Connection& c, const std::vector<char>& bytes) {
        size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::send(c.fd(), bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
            if (n > 0) { done += size_t(n); continue; }
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) { c.waitReadable(0); QThread::msleep(1); continue; }
            return;
        }
    }
};

QTEST_GUILESS_MAIN(TestServer)
#include "tst_server.moc"
