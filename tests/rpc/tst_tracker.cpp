// The tracker over loopback: trackers run in threads (and `tessel-rpc
// tracker` as a child process), servers are TrackerLinks polled by a thread
// (frozen to stop their heartbeats, or in a forked child that is killed),
// clients are TrackerClients. Queue order, release and disconnect, dead
// servers and the requests they held, failure reports, the query, a
// restarted tracker, malformed frames, slow peers, tokens and the bind rule.
#include "rpc/Handshake.h"
#include "rpc/Tracker.h"
#include "rpc/TrackerClient.h"

#include <QtTest>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

using namespace tessel::rpc;

namespace {

const TrackerLinkTiming kFastLink{100, 200, 1000};
constexpr int kHeartbeatTimeoutMs = 1500;

/// Options with a short heartbeat timeout (the fake servers beat every 100 ms).
TrackerOptions fast() {
    TrackerOptions o;
    o.heartbeatTimeoutMs = kHeartbeatTimeoutMs;
    return o;
}

/// A tracker in a thread, its log kept.
struct TrackerRun {
    std::atomic<bool> stop{false};
    std::thread thread;
    uint16_t port = 0;
    std::string error;
    mutable std::mutex m;
    std::vector<std::string> logs;

    explicit TrackerRun(TrackerOptions o = fast(), uint16_t wantPort = 0) {
        o.port = wantPort;
        o.log = [this](const std::string& l) {
            std::lock_guard lock(m);
            logs.push_back(l);
        };
        auto listening = std::make_shared<std::promise<uint16_t>>();
        auto ready = listening->get_future();
        o.onListening = [listening](uint16_t p) { listening->set_value(p); };
        thread = std::thread([this, o, listening] {
            try {
                runTracker(o, stop);
            } catch (const std::exception& e) {
                error = e.what();
                try {
                    listening->set_value(0);
                } catch (const std::future_error&) {
                }
            }
        });
        if (ready.wait_for(std::chrono::seconds(5)) == std::future_status::ready)
            port = ready.get();
    }
    ~TrackerRun() {
        stop = true;
        thread.join();
        if (qEnvironmentVariableIsSet("TESSEL_TEST_TRACKER_LOG")) qInfo("%s", logText().c_str());
    }
    bool logged(const std::string& part) const {
        std::lock_guard lock(m);
        for (const auto& l : logs)
            if (l.find(part) != std::string::npos) return true;
        return false;
    }
    std::string logText() const {
        std::lock_guard lock(m);
        std::string all;
        for (const auto& l : logs)
            all += l + "\n";
        return all;
    }
};

/// A server that only registers and heartbeats: a TrackerLink polled by a
/// thread. freeze() stops the polling (heartbeats stop, the connection stays).
struct FakeServer {
    TrackerLink link;
    std::atomic<bool> stop{false}, frozen{false}, wantFree{true};
    std::atomic<uint64_t> id{0};
    std::atomic<int> registrations{0};
    std::mutex m;
    std::string error;
    std::thread thread;

    FakeServer(uint16_t trackerPort, const std::string& key, uint16_t port,
               const std::string& token = {}, TrackerLinkTiming timing = kFastLink)
        : link("127.0.0.1", trackerPort, token,
               Registration{key, "", port,
                            R"({"triple":"x86_64-pc-linux-gnu","cpu":"fake","cores":2})"},
               timing) {
        thread = std::thread([this] {
            while (!stop) {
                if (!frozen) {
                    link.setFree(wantFree);
                    link.poll();
                    id = link.serverId();
                    registrations = link.registrations();
                    std::lock_guard lock(m);
                    error = link.lastError();
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        });
    }
    ~FakeServer() {
        stop = true;
        thread.join();
    }
    std::string lastError() {
        std::lock_guard lock(m);
        return error;
    }
};

template <class F> bool waitFor(F&& done, int ms) {
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    while (Clock::now() < end) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
}

bool registered(const FakeServer& s) {
    return s.id.load() != 0;
}

/// Kills and reaps a forked child however the test ends.
struct ChildGuard {
    pid_t pid = -1;
    ~ChildGuard() {
        if (pid > 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    }
};

/// request() that must time out: the request stays queued.
bool queuedOnly(TrackerClient& c, const std::string& key, int priority) {
    try {
        c.request(key, priority, deadlineIn(150));
    } catch (const RpcError& e) {
        return e.failure() == Failure::Timeout && c.waiting();
    }
    return false;
}

const KeyStatus* keyOf(const TrackerStatus& s, const std::string& key) {
    for (const auto& k : s.keys)
        if (k.key == key) return &k;
    return nullptr;
}

const ServerStatus* serverOf(const TrackerStatus& s, uint64_t id) {
    for (const auto& v : s.servers)
        if (v.id == id) return &v;
    return nullptr;
}

/// Reads from `c` until the tracker closes it; true when it did within
/// `ms` (Error frames first are fine).
bool closedByTracker(Connection& c, int ms) {
    const auto deadline = deadlineIn(ms);
    try {
        for (;;) {
            Frame f = c.receive(kMaxTrackerFrame, deadline, "read");
            if (f.code != uint16_t(Code::Error) && f.code != uint16_t(Code::Challenge))
                return false;
        }
    } catch (const RpcError& e) {
        return e.failure() == Failure::Closed;
    }
}

} // namespace

class TestTracker : public QObject {
    Q_OBJECT
private slots:
    void queueOrderByPriorityThenArrival() {
        TrackerRun t;
        QVERIFY2(t.port, t.error.c_str());
        FakeServer s(t.port, "q", 10001);
        QVERIFY(waitFor([&] { return registered(s); }, 3000));
        TrackerClient holder("127.0.0.1", t.port, "", 5000, "holder");
        QCOMPARE(holder.request("q", 0, deadlineIn(2000)).serverId, s.id.load());
        TrackerClient low1("127.0.0.1", t.port, "", 5000, "low1");
        TrackerClient low2("127.0.0.1", t.port, "", 5000, "low2");
        TrackerClient high("127.0.0.1", t.port, "", 5000, "high");
        QVERIFY(queuedOnly(low1, "q", 0));
        QVERIFY(queuedOnly(low2, "q", 0));
        QVERIFY(queuedOnly(high, "q", 5));
        const TrackerStatus st = queryTracker("127.0.0.1", t.port, "");
        const KeyStatus* k = keyOf(st, "q");
        QVERIFY(k);
        QCOMPARE(k->pending, 3);
        QCOMPARE(QString::fromStdString(k->queue[0].client), QString("high"));
        QCOMPARE(QString::fromStdString(k->queue[1].client), QString("low1"));
        QCOMPARE(QString::fromStdString(k->queue[2].client), QString("low2"));

        holder.release();
        QCOMPARE(high.request("q", 5, deadlineIn(2000)).serverId, s.id.load()); // keeps its place
        QVERIFY(queuedOnly(low1, "q", 0));
        QVERIFY(queuedOnly(low2, "q", 0));
        high.release();
        QCOMPARE(low1.request("q", 0, deadlineIn(2000)).serverId, s.id.load());
        QVERIFY(queuedOnly(low2, "q", 0));
        low1.release();
        QCOMPARE(low2.request("q", 0, deadlineIn(2000)).serverId, s.id.load());
        QVERIFY(low2.holding());
        const Assignment a = low2.assignment();
        QCOMPARE(a.host,
                 std::string("127.0.0.1")); // an empty host: the registration's peer address
        QCOMPARE(a.port, uint16_t(10001));
        QVERIFY(a.deviceJson.find("x86_64-pc-linux-gnu") != std::string::npos);
    }

    void releaseAndDisconnectFreeTheServer() {
        TrackerRun t;
        FakeServer s(t.port, "r", 10002);
        QVERIFY(waitFor([&] { return registered(s); }, 3000));
        TrackerClient a("127.0.0.1", t.port, "", 5000, "a");
        a.request("r", 0, deadlineIn(2000));
        auto b = std::make_unique<TrackerClient>("127.0.0.1", t.port, "", 5000, "b");
        QVERIFY(queuedOnly(*b, "r", 0));
        a.release();
        QVERIFY(!a.holding());
        QCOMPARE(b->request("r", 0, deadlineIn(2000)).serverId, s.id.load());
        TrackerClient c("127.0.0.1", t.port, "", 5000, "c");
        QVERIFY(queuedOnly(c, "r", 0));
        b.reset(); // b's connection closes while it holds the server
        QCOMPARE(c.request("r", 0, deadlineIn(2000)).serverId, s.id.load());
        QVERIFY(t.logged("client 'b'"));
        QVERIFY(t.logged("is released"));
        // Withdrawing a queued request by releasing it.
        TrackerClient d("127.0.0.1", t.port, "", 5000, "d");
        QVERIFY(queuedOnly(d, "r", 0));
        d.release();
        QVERIFY(!d.waiting());
        QCOMPARE(keyOf(queryTracker("127.0.0.1", t.port, ""), "r")->pending, 0);
    }

    void silentServerIsDroppedAndItsRequestServedByAnother() {
        TrackerRun t;
        FakeServer s1(t.port, "d", 10003);
        QVERIFY(waitFor([&] { return registered(s1); }, 3000));
        FakeServer s2(t.port, "d", 10004);
        QVERIFY(waitFor([&] { return registered(s2); }, 3000));
        TrackerClient a("127.0.0.1", t.port, "", 5000, "a");
        TrackerClient b("127.0.0.1", t.port, "", 5000, "b");
        TrackerClient c("127.0.0.1", t.port, "", 5000, "c");
        const uint64_t aServer = a.request("d", 0, deadlineIn(2000)).serverId;
        const uint64_t bServer = b.request("d", 0, deadlineIn(2000)).serverId;
        QVERIFY(aServer != bServer);
        QVERIFY(queuedOnly(c, "d", 9));
        FakeServer& dying = aServer == s1.id ? s1 : s2;
        const auto frozenAt = Clock::now();
        dying.frozen = true; // its heartbeats stop; the connection stays open
        QVERIFY(waitFor([&] { return t.logged("drop server #" + std::to_string(aServer)); }, 5000));
        const auto droppedMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - frozenAt).count();
        QVERIFY2(droppedMs < 4000, std::to_string(droppedMs).c_str());
        QVERIFY(t.logged("no heartbeat"));
        const TrackerStatus st = queryTracker("127.0.0.1", t.port, "");
        QCOMPARE(int(st.servers.size()), 1);
        const KeyStatus* k = keyOf(st, "d");
        QCOMPARE(k->pending, 2);
        QCOMPARE(QString::fromStdString(k->queue[0].client),
                 QString("a")); // ahead of c's priority 9
        QVERIFY(k->queue[0].requeued);
        // b finishes; a (whose server died) gets b's server, c keeps waiting.
        b.release();
        QCOMPARE(a.reassign(deadlineIn(2000)).serverId, bServer);
        QVERIFY(queuedOnly(c, "d", 9));
        a.release();
        QCOMPARE(c.request("d", 9, deadlineIn(2000)).serverId, bServer);
        dying.frozen = false; // it notices the close and registers again
        QVERIFY(
            waitFor([&] { return dying.registrations.load() >= 2 && registered(dying); }, 3000));
    }

    void killedServerProcessIsDroppedAtOnce() {
        TrackerRun t;
        ChildGuard guard;
        const pid_t child = guard.pid = ::fork();
        if (child == 0) {
            // A server process: register and heartbeat until killed.
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            TrackerLink link("127.0.0.1", t.port, "", Registration{"kill", "", 10005, "{}"},
                             kFastLink);
            for (;;) {
                link.poll();
                ::usleep(10000);
            }
        }
        QVERIFY(child > 0);
        QVERIFY(waitFor([&] { return t.logged("register server #1 'kill'"); }, 3000));
        TrackerClient a("127.0.0.1", t.port, "", 5000, "a");
        QCOMPARE(a.request("kill", 0, deadlineIn(2000)).port, uint16_t(10005));
        FakeServer other(t.port, "kill", 10006);
        QVERIFY(waitFor([&] { return registered(other); }, 3000));
        TrackerClient b("127.0.0.1", t.port, "", 5000, "b");
        QCOMPARE(b.request("kill", 0, deadlineIn(2000)).port, uint16_t(10006));
        TrackerClient c("127.0.0.1", t.port, "", 5000, "c");
        QVERIFY(queuedOnly(c, "kill", 0));
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        guard.pid = -1;
        QVERIFY(waitFor([&] { return t.logged("drop server #1"); },
                        1000)); // the closed connection, not a timeout
        QVERIFY(t.logged("its connection closed"));
        b.release();
        QCOMPARE(a.reassign(deadlineIn(2000)).port, uint16_t(10006));
        a.release();
        QCOMPARE(c.request("kill", 0, deadlineIn(2000)).port, uint16_t(10006));
    }

    void reassignMakesTheServerSuspect() {
        TrackerRun t;
        FakeServer s1(t.port, "s", 10007);
        QVERIFY(waitFor([&] { return registered(s1); }, 3000));
        FakeServer s2(t.port, "s", 10008);
        QVERIFY(waitFor([&] { return registered(s2); }, 3000));
        TrackerClient a("127.0.0.1", t.port, "", 5000, "a");
        const uint64_t first = a.request("s", 0, deadlineIn(2000)).serverId;
        FakeServer& failing = first == s1.id ? s1 : s2;
        failing.frozen = true; // no heartbeat may clear the report while we look
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const uint64_t second = a.reassign(deadlineIn(2000)).serverId;
        QVERIFY(second != first);
        QCOMPARE(
            QString::fromStdString(serverOf(queryTracker("127.0.0.1", t.port, ""), first)->state),
            QString("suspect"));
        QVERIFY(t.logged("failed: suspect"));
        TrackerClient b("127.0.0.1", t.port, "", 5000, "b");
        QVERIFY(queuedOnly(b, "s", 0));
        failing.frozen = false; // it heartbeats free: back in the pool
        QCOMPARE(b.request("s", 0, deadlineIn(2000)).serverId, first);
    }

    void queryJsonAndText() {
        TrackerRun t;
        FakeServer a1(t.port, "alpha", 10011);
        FakeServer a2(t.port, "alpha", 10012);
        FakeServer b1(t.port, "beta", 10013);
        b1.wantFree = false;
        QVERIFY(waitFor([&] { return registered(a1) && registered(a2) && registered(b1); }, 3000));
        TrackerClient alice("127.0.0.1", t.port, "", 5000, "alice");
        TrackerClient bob("127.0.0.1", t.port, "", 5000, "bob");
        alice.request("alpha", 0, deadlineIn(2000));
        QVERIFY(queuedOnly(bob, "beta", 2));
        const TrackerStatus st = queryTracker("127.0.0.1", t.port, "");
        QCOMPARE(int(st.servers.size()), 3);
        QCOMPARE(st.heartbeatTimeoutMs, kHeartbeatTimeoutMs);
        const KeyStatus* alpha = keyOf(st, "alpha");
        const KeyStatus* beta = keyOf(st, "beta");
        QVERIFY(alpha && beta);
        QCOMPARE(alpha->total, 2);
        QCOMPARE(alpha->free, 1);
        QCOMPARE(alpha->pending, 0);
        QCOMPARE(beta->total, 1);
        QCOMPARE(beta->free, 0);
        QCOMPARE(beta->pending, 1);
        const ServerStatus* held = serverOf(st, alice.assignment().serverId);
        QCOMPARE(QString::fromStdString(held->state), QString("held"));
        QCOMPARE(QString::fromStdString(held->client), QString("alice"));
        QVERIFY(held->deviceJson.find("\"cpu\":\"fake\"") != std::string::npos);
        QVERIFY(held->lastHeartbeatMs >= 0 && held->lastHeartbeatMs < kHeartbeatTimeoutMs);
        QCOMPARE(QString::fromStdString(serverOf(st, b1.id)->state), QString("busy"));
        // The JSON is the tracker's own, and reads back the same.
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(st.json));
        QCOMPARE(doc["servers"].toArray().size(), 3);
        QCOMPARE(doc["tracker"]["protocol"].toInt(), int(kProtocolVersion));
        const QString text = QString::fromStdString(st.text());
        QVERIFY2(text.contains(QRegularExpression(R"(alpha\s+2\s+1\s+0)")), qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(R"(beta\s+1\s+0\s+1)")), qPrintable(text));
        QVERIFY(text.contains("held by 'alice'"));
        QVERIFY(text.contains("x86_64-pc-linux-gnu, fake, 2 cores"));
        QVERIFY(text.contains("beta 1. 'bob' priority 2"));

        // The same through `tessel-rpc query`.
        QProcess q;
        q.start(TESSEL_BINARY_DIR "/bin/tessel-rpc",
                {"query", "127.0.0.1:" + QString::number(t.port), "--json"});
        QVERIFY(q.waitForFinished(10000));
        QCOMPARE(q.exitCode(), 0);
        const QJsonDocument cli = QJsonDocument::fromJson(q.readAllStandardOutput());
        QCOMPARE(cli["keys"].toArray().size(), 2);
        q.start(TESSEL_BINARY_DIR "/bin/tessel-rpc",
                {"query", "127.0.0.1:" + QString::number(t.port)});
        QVERIFY(q.waitForFinished(10000));
        QCOMPARE(q.exitCode(), 0);
        const QString cliText = q.readAllStandardOutput();
        QVERIFY2(cliText.contains("held by 'alice'"), qPrintable(cliText));
    }

    void restartedTrackerGetsTheServerBack() {
        // A server with the real timing: it retries once a second.
        auto t1 = std::make_unique<TrackerRun>(TrackerOptions{});
        const uint16_t port = t1->port;
        FakeServer s(port, "again", 10021, "", TrackerLinkTiming{});
        QVERIFY(waitFor([&] { return registered(s); }, 3000));
        QCOMPARE(s.registrations.load(), 1);
        TrackerClient early("127.0.0.1", port, "", 5000, "early");
        t1.reset(); // the tracker goes away
        QVERIFY(waitFor([&] { return !registered(s); }, 2000));
        const auto restarted = Clock::now();
        TrackerRun t2(TrackerOptions{}, port);
        QCOMPARE(t2.port, port);
        QVERIFY(waitFor([&] { return s.registrations.load() == 2 && registered(s); }, 3000));
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - restarted).count();
        QVERIFY2(ms < 2500, std::to_string(ms).c_str());
        const TrackerStatus st = queryTracker("127.0.0.1", port, "");
        QCOMPARE(int(st.servers.size()), 1);
        QCOMPARE(st.servers[0].port, uint16_t(10021));
        // A client connected to the old tracker asks the new one.
        QCOMPARE(early.request("again", 0, deadlineIn(3000)).port, uint16_t(10021));
    }

    void malformedFramesCloseOnlyTheirConnection() {
        TrackerOptions o = fast();
        o.frameTimeoutMs = 400;
        TrackerRun t(o);
        FakeServer s(t.port, "m", 10031);
        QVERIFY(waitFor([&] { return registered(s); }, 3000));
        auto raw = [&] { return Connection::connect("127.0.0.1", t.port, deadlineIn(2000)); };
        auto header = [](uint16_t code, uint64_t length) {
            std::vector<char> h(kHeaderBytes);
            writeHeader(h.data(), code, length);
            return h;
        };
        auto authenticated = [&](Role role) {
            Connection c = raw();
            clientHandshake(c, role, "hostile", "", deadlineIn(2000));
            return c;
        };
        {
            // Random bytes instead of a hello.
            Connection c = raw();
            std::vector<char> junk(64);
            for (size_t i = 0; i < junk.size(); ++i)
                junk[i] = char((i * 151 + 7) & 0xff);
            QVERIFY(::write(c.fd(), junk.data(), junk.size()) == ssize_t(junk.size()));
            QVERIFY(closedByTracker(c, 2000));
            QVERIFY(t.logged("wrong magic number"));
        }
        {
            // A length of 2^62, before and after the handshake.
            Connection c = raw();
            auto h = header(uint16_t(Code::Hello), uint64_t(1) << 62);
            QVERIFY(::write(c.fd(), h.data(), h.size()) == ssize_t(h.size()));
            QVERIFY(closedByTracker(c, 2000));
            Connection d = authenticated(Role::Client);
            h = header(uint16_t(Code::Request), uint64_t(1) << 62);
            QVERIFY(::write(d.fd(), h.data(), h.size()) == ssize_t(h.size()));
            QVERIFY(closedByTracker(d, 2000));
            QVERIFY(t.logged("4611686018427387904 bytes is over the limit"));
        }
        {
            // A truncated frame: the header promises 100 bytes, 10 come.
            Connection c = authenticated(Role::Client);
            auto bytes = header(uint16_t(Code::Request), 100);
            bytes.resize(bytes.size() + 10, 'x');
            QVERIFY(::write(c.fd(), bytes.data(), bytes.size()) == ssize_t(bytes.size()));
            QVERIFY(closedByTracker(c, 3000));
            QVERIFY(t.logged("stayed incomplete"));
        }
        {
            // A length field (a count of bytes) larger than the frame.
            Connection c = authenticated(Role::Server);
            Writer w;
            w.u64(100).raw("m", 1); // the key "claims" 100 bytes, 1 follows
            c.send(Code::Register, w.take(), deadlineIn(1000), "register");
            QVERIFY(closedByTracker(c, 2000));
            QVERIFY(
                t.logged("malformed register frame: field of 100 bytes is longer than the frame"));
        }
        {
            // A frame the tracker does not take, and one with bytes left over.
            Connection c = authenticated(Role::Client);
            c.send(Code::Run, {}, deadlineIn(1000), "run");
            QVERIFY(closedByTracker(c, 2000));
            QVERIFY(t.logged("takes no run frame"));
            Connection d = authenticated(Role::Query);
            d.send(Code::Query, Writer().u32(7).take(), deadlineIn(1000), "query");
            QVERIFY(closedByTracker(d, 2000));
            QVERIFY(t.logged("unread bytes"));
        }
        // The tracker is alive and serving, and the server was never affected.
        TrackerClient ok("127.0.0.1", t.port, "", 5000, "ok");
        QCOMPARE(ok.request("m", 0, deadlineIn(2000)).serverId, s.id.load());
        QCOMPARE(s.registrations.load(), 1);
    }

    void slowPeerBlocksNobody() {
        TrackerOptions o = fast();
        o.handshakeTimeoutMs = 2000;
        TrackerRun t(o);
        // Half a hello, then silence: the tracker must not wait for it.
        Connection slow = Connection::connect("127.0.0.1", t.port, deadlineIn(2000));
        std::vector<char> half(kHeaderBytes / 2, 'T');
        QVERIFY(::write(slow.fd(), half.data(), half.size()) == ssize_t(half.size()));
        // A peer that never reads: connected, sends nothing at all.
        Connection mute = Connection::connect("127.0.0.1", t.port, deadlineIn(2000));
        const auto start = Clock::now();
        FakeServer s(t.port, "slow", 10041);
        QVERIFY(waitFor([&] { return registered(s); }, 3000));
        TrackerClient c("127.0.0.1", t.port, "", 5000, "c");
        c.request("slow", 0, deadlineIn(2000));
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
        QVERIFY2(ms < 1500, std::to_string(ms).c_str());
        // Both are closed when the handshake's time is up.
        QVERIFY(closedByTracker(slow, 3000));
        QVERIFY(closedByTracker(mute, 1000));
        QVERIFY(t.logged("no handshake within 2000 ms"));
    }

    void idleAndNonReadingPeersAndTheConnectionLimit() {
        TrackerOptions o = fast();
        o.queryIdleMs = 300;
        o.frameTimeoutMs = 300;
        o.maxConnections = 4;
        TrackerRun t(o);
        {
            // A query connection that stays idle is closed.
            Connection q = Connection::connect("127.0.0.1", t.port, deadlineIn(2000));
            clientHandshake(q, Role::Query, "idle", "", deadlineIn(2000));
            QVERIFY(closedByTracker(q, 2000));
        }
        {
            // One that asks and asks and never reads its answers is dropped
            // (the tracker's own buffer for it stops draining).
            FakeServer s(t.port, "flood", 10071);
            QVERIFY(waitFor([&] { return registered(s); }, 3000));
            Connection q = Connection::connect("127.0.0.1", t.port, deadlineIn(2000));
            clientHandshake(q, Role::Query, "flood", "", deadlineIn(2000));
            std::vector<char> frames;
            for (int i = 0; i < 60000; ++i) {
                char h[kHeaderBytes];
                writeHeader(h, uint16_t(Code::Query), 0);
                frames.insert(frames.end(), h, h + kHeaderBytes);
            }
            size_t at = 0;
            const auto deadline = deadlineIn(10000);
            while (at < frames.size() && Clock::now() < deadline) {
                const ssize_t n =
                    ::send(q.fd(), frames.data() + at, frames.size() - at, MSG_NOSIGNAL);
                if (n > 0)
                    at += size_t(n);
                else if (n < 0 && errno != EAGAIN)
                    break; // closed already
                else
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            QVERIFY(waitFor([&] { return t.logged("close query 'flood'"); }, 5000));
            QVERIFY(t.logged("does not read its replies") || t.logged("it took no data"));
            // The server was served all along.
            QCOMPARE(s.registrations.load(), 1);
            QVERIFY(registered(s));
        }
        // Beyond maxConnections, a connection is closed at once.
        std::vector<Connection> many;
        for (int i = 0; i < 4; ++i)
            many.push_back(Connection::connect("127.0.0.1", t.port, deadlineIn(2000)));
        Connection extra = Connection::connect("127.0.0.1", t.port, deadlineIn(2000));
        QVERIFY(closedByTracker(extra, 2000));
        QVERIFY(t.logged("connections already (the limit)"));
    }

    void tokens() {
        TrackerOptions o = fast();
        o.token = "sesame";
        TrackerRun t(o);
        FakeServer good(t.port, "tok", 10051, "sesame");
        FakeServer bad(t.port, "tok", 10052, "wrong");
        QVERIFY(waitFor([&] { return registered(good); }, 3000));
        QVERIFY(waitFor([&] { return bad.lastError().find("wrong token") != std::string::npos; },
                        3000));
        QVERIFY(!registered(bad));
        TrackerClient c("127.0.0.1", t.port, "sesame", 5000, "c");
        QCOMPARE(c.request("tok", 0, deadlineIn(2000)).serverId, good.id.load());
        for (const std::string token : {"wrong", ""}) {
            try {
                TrackerClient x("127.0.0.1", t.port, token, 5000, "x");
                QFAIL("a client with a wrong token was welcomed");
            } catch (const RpcError& e) {
                QCOMPARE(e.failure(), Failure::Remote);
                QCOMPARE(e.remote(), ErrorCode::Auth);
                QVERIFY(e.step().find("handshake with the tracker") == 0);
            }
            try {
                queryTracker("127.0.0.1", t.port, token);
                QFAIL("a query with a wrong token was answered");
            } catch (const RpcError& e) {
                QCOMPARE(e.remote(), ErrorCode::Auth);
            }
        }
        QCOMPARE(int(queryTracker("127.0.0.1", t.port, "sesame").servers.size()), 1);
        QVERIFY(t.logged("wrong token"));
        QVERIFY(t.logged("client 'x' (127.0.0.1:")); // with no token, the client gives up itself
        QVERIFY(t.logged("left during the handshake"));

        // An older protocol version (a newer one settles on ours) is refused by name.
        Connection c2 = Connection::connect("127.0.0.1", t.port, deadlineIn(2000));
        c2.send(Code::Hello, Writer().u32(kMagic).u16(kMinProtocolVersion - 1).u8(0).str("old").take(),
                deadlineIn(1000), "hello");
        const Frame f = c2.receive(kMaxHandshakeFrame, deadlineIn(2000), "reply");
        QCOMPARE(f.code, uint16_t(Code::Error));
        QCOMPARE(readError(f).code, ErrorCode::Version);
        QVERIFY(closedByTracker(c2, 2000));
        QVERIFY(t.logged("refuse client 'old'"));
        QVERIFY(t.logged("protocol version"));
    }

    void nonLoopbackWithoutTokenIsRefused() {
        TrackerOptions o = fast();
        o.host = "0.0.0.0";
        TrackerRun refused(o);
        QCOMPARE(refused.port, uint16_t(0));
        QVERIFY2(refused.error.find("without a token") != std::string::npos, refused.error.c_str());
        o.token = "sesame";
        TrackerRun allowed(o);
        QVERIFY2(allowed.port != 0, allowed.error.c_str());

        QProcess p;
        p.start(TESSEL_BINARY_DIR "/bin/tessel-rpc",
                {"tracker", "--host", "0.0.0.0", "--port", "0"});
        QVERIFY(p.waitForFinished(10000));
        QVERIFY(p.exitCode() != 0);
        QVERIFY(p.readAllStandardError().contains("without a token"));
    }

    void commandLineTracker() {
        QTemporaryDir dir;
        const QString tokenFile = dir.filePath("token");
        {
            QFile f(tokenFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("  sesame \n");
        }
        QProcess p;
        p.start(
            TESSEL_BINARY_DIR "/bin/tessel-rpc",
            {"tracker", "--port", "0", "--heartbeat-timeout", "1000", "--token-file", tokenFile});
        QVERIFY(p.waitForStarted(5000));
        QVERIFY(p.waitForReadyRead(5000));
        const QString line = QString::fromUtf8(p.readLine()).trimmed();
        const QRegularExpressionMatch m =
            QRegularExpression(R"(^listening on 127\.0\.0\.1:(\d+)$)").match(line);
        QVERIFY2(m.hasMatch(), qPrintable(line));
        const uint16_t port = uint16_t(m.captured(1).toUInt());
        QVERIFY(port != 0);
        {
            FakeServer s(port, "cli", 10061, "sesame");
            QVERIFY(waitFor([&] { return registered(s); }, 3000));
            QCOMPARE(queryTracker("127.0.0.1", port, "sesame").heartbeatTimeoutMs, 1000);
            QProcess q;
            q.start(TESSEL_BINARY_DIR "/bin/tessel-rpc",
                    {"query", "127.0.0.1:" + QString::number(port), "--token-file", tokenFile});
            QVERIFY(q.waitForFinished(10000));
            QCOMPARE(q.exitCode(), 0);
            QVERIFY(q.readAllStandardOutput().contains("cli"));
            q.start(TESSEL_BINARY_DIR "/bin/tessel-rpc",
                    {"query", "127.0.0.1:" + QString::number(port)});
            QVERIFY(q.waitForFinished(10000));
            QCOMPARE(q.exitCode(), 1);
            QVERIFY(q.readAllStandardError().contains("requires a token"));
        }
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QByteArray log = p.readAllStandardError();
        QVERIFY2(log.contains("register server #1 'cli'"), log.constData());
        QVERIFY2(log.contains("tracker: stopped"), log.constData());
    }
};

QTEST_GUILESS_MAIN(TestTracker)
#include "tst_tracker.moc"
