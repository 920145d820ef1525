// The tracker's rules without sockets or real time: queue order, release,
// disconnects, dropped servers and their requests, failure reports and
// their back-off, replaced registrations, role checks, the status JSON, and
// the message parser's limits.
#include "rpc/TrackerState.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace tessel::rpc;
using PeerId = TrackerState::PeerId;

namespace {

struct Harness {
    TrackerState::Time now = Clock::now();
    std::vector<std::string> logs;
    TrackerState state{1000, [this](const std::string& l) { logs.push_back(l); }, now};
    std::vector<TrackerState::Output> outs;

    void advance(int ms) { now += std::chrono::milliseconds(ms); }
    void take() {
        auto o = state.takeOutputs();
        outs.insert(outs.end(), std::make_move_iterator(o.begin()),
                    std::make_move_iterator(o.end()));
    }
    void server(PeerId id, const std::string& key, uint16_t port, bool free = true) {
        state.connected(id, Role::Server, "srv", "127.0.0.1:" + std::to_string(40000 + id), now);
        state.handle(
            id, RegisterMessage{key, "", port, R"({"triple":"x86_64-pc-linux-gnu"})", free}, now);
        take();
    }
    void beat(PeerId id, bool free = true) {
        state.handle(id, HeartbeatMessage{free}, now);
        take();
    }
    void client(PeerId id, const std::string& name) {
        state.connected(id, Role::Client, name, "127.0.0.1:" + std::to_string(50000 + id), now);
    }
    void request(PeerId id, const std::string& key, int priority) {
        state.handle(id, RequestMessage{key, priority, ""}, now);
        take();
    }
    void release(PeerId id, uint64_t server, bool failed = false) {
        state.handle(id, ReleaseMessage{server, failed}, now);
        take();
    }
    /// The frames sent to `peer` since the last look, and forgets them.
    std::vector<TrackerState::Output> to(PeerId peer) {
        std::vector<TrackerState::Output> mine, rest;
        for (auto& o : outs)
            (o.peer == peer ? mine : rest).push_back(std::move(o));
        outs = std::move(rest);
        return mine;
    }
    /// The server id assigned to `peer` since the last look (0: none).
    uint64_t assigned(PeerId peer) {
        uint64_t id = 0;
        for (auto& o : to(peer))
            if (o.code == uint16_t(Code::Assign))
                id = parseAssign(Frame{o.code, o.payload}).serverId;
        return id;
    }
    /// The id the tracker gave the server on `peer` (its Ok reply).
    uint64_t registeredId(PeerId peer) {
        for (auto& o : to(peer))
            if (o.code == uint16_t(Code::Ok)) {
                Reader r(o.payload);
                return r.u64();
            }
        return 0;
    }
    nlohmann::json status() { return nlohmann::json::parse(state.statusJson(now)); }
    bool logged(const std::string& part) const {
        for (const auto& l : logs)
            if (l.find(part) != std::string::npos) return true;
        return false;
    }
};

} // namespace

class TestTrackerState : public QObject {
    Q_OBJECT
private slots:
    void queueByPriorityThenArrival() {
        Harness h;
        h.server(1, "k", 9001);
        const uint64_t s = h.registeredId(1);
        QVERIFY(s != 0);
        h.client(10, "holder");
        h.request(10, "k", 0);
        QCOMPARE(h.assigned(10), s);
        // Arrival: low1, low2, high, lowest, high2.
        h.client(11, "low1");
        h.client(12, "low2");
        h.client(13, "high");
        h.client(14, "lowest");
        h.client(15, "high2");
        h.request(11, "k", 0);
        h.request(12, "k", 0);
        h.request(13, "k", 5);
        h.request(14, "k", -3);
        h.request(15, "k", 5);
        QCOMPARE(h.state.pendingCount(), size_t(5));
        const auto queue = h.status()["keys"][0]["queue"];
        QStringList order;
        for (const auto& q : queue)
            order << QString::fromStdString(q["client"].get<std::string>());
        QCOMPARE(order, QStringList({"high", "high2", "low1", "low2", "lowest"}));
        PeerId holder = 10;
        for (PeerId next : {13, 15, 11, 12, 14}) {
            h.release(holder, s);
            for (PeerId other : {11, 12, 13, 14, 15})
                if (other != next) QCOMPARE(h.assigned(other), uint64_t(0));
            QCOMPARE(h.assigned(next), s);
            holder = next;
        }
        QCOMPARE(h.state.pendingCount(), size_t(0));
    }

    void disconnectReleasesAndWithdraws() {
        Harness h;
        h.server(1, "k", 9001);
        const uint64_t s = h.registeredId(1);
        h.client(10, "a");
        h.client(11, "b");
        h.client(12, "c");
        h.request(10, "k", 0);
        h.request(11, "k", 0);
        h.request(12, "k", 0);
        QCOMPARE(h.assigned(10), s);
        h.state.disconnected(11, "closed by the peer", h.now); // b waits: withdrawn
        h.take();
        h.state.disconnected(10, "closed by the peer", h.now); // a holds: released, to c
        h.take();
        QCOMPARE(h.assigned(12), s);
        QVERIFY(h.logged("is released"));
        QVERIFY(h.logged("withdrawn"));
        // Release while waiting withdraws; release while idle is fine.
        h.client(13, "d");
        h.request(13, "k", 0);
        h.release(13, 0);
        QCOMPARE(h.state.pendingCount(), size_t(0));
        h.release(13, 0);
        QCOMPARE(h.to(13).back().code, uint16_t(Code::Ok));
    }

    void droppedServerSendsItsRequestToTheFront() {
        Harness h;
        h.server(1, "k", 9001);
        h.server(2, "k", 9002);
        const uint64_t s1 = h.registeredId(1), s2 = h.registeredId(2);
        h.client(10, "a");
        h.client(11, "b");
        h.client(12, "c");
        h.request(10, "k", 0);
        h.request(11, "k", 0);
        h.request(12, "k", 9); // higher priority, but a requeued request still goes first
        const uint64_t a = h.assigned(10), b = h.assigned(11);
        QCOMPARE(a, s1); // both idle since registration: the first registered is idle longest
        QCOMPARE(b, s2);
        // s2 keeps beating, s1 stops.
        for (int i = 0; i < 12; ++i) {
            h.advance(100);
            h.beat(2);
            h.state.tick(h.now);
            h.take();
        }
        QCOMPARE(h.state.serverCount(), size_t(1));
        QVERIFY(h.logged("drop server #" + std::to_string(s1)));
        QVERIFY(h.logged("no heartbeat"));
        const auto closing = h.to(1);
        QVERIFY(!closing.empty() && closing.back().close &&
                closing.back().code == uint16_t(Code::Error));
        QCOMPARE(readError(Frame{closing.back().code, closing.back().payload}).code,
                 ErrorCode::Timeout);
        const auto queue = h.status()["keys"][0]["queue"];
        QCOMPARE(queue.size(), size_t(2));
        QCOMPARE(queue[0]["client"].get<std::string>(), std::string("a"));
        QVERIFY(queue[0]["requeued"].get<bool>());
        h.release(11, s2);
        QCOMPARE(h.assigned(10), s2);
        QCOMPARE(h.assigned(12), uint64_t(0));
        // a's late failure report about s1 is stale: it keeps s2, c keeps waiting.
        h.release(10, s1, true);
        QCOMPARE(h.to(10).back().code, uint16_t(Code::Ok));
        h.release(10, s2);
        QCOMPARE(h.assigned(12), s2);
    }

    void failureReportMakesTheServerSuspect() {
        Harness h;
        h.server(1, "k", 9001);
        h.server(2, "k", 9002);
        const uint64_t s1 = h.registeredId(1), s2 = h.registeredId(2);
        h.client(10, "a");
        h.client(11, "b");
        h.request(10, "k", 0);
        QCOMPARE(h.assigned(10), s1);
        h.release(10, s1, true); // s1 failed a: a gets s2 at once
        QCOMPARE(h.assigned(10), s2);
        QCOMPARE(h.status()["servers"][0]["state"].get<std::string>(), std::string("suspect"));
        h.request(11, "k", 0);
        QCOMPARE(h.assigned(11), uint64_t(0)); // s1 is suspect
        h.advance(10);
        h.beat(1, false); // a busy heartbeat does not clear it
        QCOMPARE(h.assigned(11), uint64_t(0));
        h.beat(1, true);
        QCOMPARE(h.assigned(11), s1);
        // A second failure in a row: suspect for 1 s even after a free heartbeat.
        h.release(11, s1, true);
        QCOMPARE(h.assigned(11), uint64_t(0)); // s2 is held by a
        h.advance(300);
        h.beat(1);
        QCOMPARE(h.assigned(11), uint64_t(0));
        h.advance(800);
        h.beat(1);
        QCOMPARE(h.assigned(11), s1);
        // A clean release resets the count.
        h.release(11, s1);
        QCOMPARE(h.status()["servers"][0]["failures"].get<int>(), 0);
        // Reporting a failure while holding nothing is refused, not fatal.
        h.release(11, 0, true);
        const auto refused = h.to(11);
        QCOMPARE(refused.back().code, uint16_t(Code::Error));
        QVERIFY(!refused.back().close);
    }

    void busyServersWaitForAFreeHeartbeat() {
        Harness h;
        h.server(1, "k", 9001, false);
        const uint64_t s = h.registeredId(1);
        h.client(10, "a");
        h.request(10, "k", 0);
        QCOMPARE(h.assigned(10), uint64_t(0));
        QCOMPARE(h.status()["servers"][0]["state"].get<std::string>(), std::string("busy"));
        h.beat(1, true);
        QCOMPARE(h.assigned(10), s);
        // Requests for a key no server has wait for one to register.
        h.client(11, "b");
        h.request(11, "later", 0);
        QCOMPARE(h.status()["keys"].size(), size_t(2));
        h.server(2, "later", 9002);
        const uint64_t later = h.registeredId(2);
        QVERIFY(later != 0);
        QCOMPARE(h.assigned(11), later);
    }

    void sameAddressRegisteringAgainKeepsIdAndHolder() {
        Harness h;
        h.server(1, "k", 9001);
        const uint64_t s = h.registeredId(1);
        h.client(10, "a");
        h.request(10, "k", 0);
        QCOMPARE(h.assigned(10), s);
        h.server(2, "k", 9001); // the same server from a new connection
        QCOMPARE(h.registeredId(2), s);
        QCOMPARE(h.state.serverCount(), size_t(1));
        const auto old = h.to(1);
        QVERIFY(!old.empty() && old.back().close);
        const auto st = h.status();
        QCOMPARE(st["servers"][0]["client"].get<std::string>(), std::string("a"));
        // The old connection closing later drops nothing.
        h.state.disconnected(1, "closed", h.now);
        QCOMPARE(h.state.serverCount(), size_t(1));
    }

    void rolesAndOrderAreEnforced() {
        Harness h;
        h.client(10, "a");
        h.state.handle(10, RegisterMessage{"k", "", 9001, "{}", true}, h.now);
        h.take();
        auto o = h.to(10);
        QVERIFY(!o.empty() && o.back().close);
        QVERIFY(h.logged("may not send register"));

        h.state.connected(20, Role::Server, "srv", "127.0.0.1:1", h.now);
        h.state.handle(20, HeartbeatMessage{true}, h.now);
        h.take();
        o = h.to(20);
        QVERIFY(!o.empty() && o.back().close);

        h.state.connected(30, Role::Query, "q", "127.0.0.1:2", h.now);
        h.state.handle(30, RequestMessage{"k", 0, "q"}, h.now);
        h.take();
        QVERIFY(h.to(30).back().close);

        h.client(40, "twice");
        h.request(40, "k", 0);
        h.request(40, "k", 0);
        o = h.to(40);
        QCOMPARE(o.back().code, uint16_t(Code::Error));
        QVERIFY(!o.back().close);

        // A server connection that never registers is closed after the timeout.
        h.state.connected(50, Role::Server, "mute", "127.0.0.1:3", h.now);
        h.advance(1100);
        h.state.tick(h.now);
        h.take();
        o = h.to(50);
        QVERIFY(!o.empty() && o.back().close);
    }

    void statusJson() {
        Harness h;
        h.server(1, "a", 9001);
        h.server(2, "a", 9002);
        h.server(3, "b", 9003, false);
        h.client(10, "alice");
        h.client(11, "bob");
        h.request(10, "a", 0);
        h.request(11, "b", 3);
        h.advance(250);
        const auto j = h.status();
        QCOMPARE(j["tracker"]["heartbeat_timeout_ms"].get<int>(), 1000);
        QCOMPARE(j["servers"].size(), size_t(3));
        QCOMPARE(j["servers"][0]["host"].get<std::string>(), std::string("127.0.0.1"));
        QCOMPARE(j["servers"][0]["state"].get<std::string>(), std::string("held"));
        QCOMPARE(j["servers"][0]["client"].get<std::string>(), std::string("alice"));
        QCOMPARE(j["servers"][0]["device"]["triple"].get<std::string>(),
                 std::string("x86_64-pc-linux-gnu"));
        QCOMPARE(j["servers"][0]["last_heartbeat_ms"].get<int>(), 250);
        QCOMPARE(j["servers"][1]["state"].get<std::string>(), std::string("free"));
        QCOMPARE(j["servers"][2]["state"].get<std::string>(), std::string("busy"));
        QCOMPARE(j["keys"][0]["key"].get<std::string>(), std::string("a"));
        QCOMPARE(j["keys"][0]["total"].get<int>(), 2);
        QCOMPARE(j["keys"][0]["free"].get<int>(), 1);
        QCOMPARE(j["keys"][0]["pending"].get<int>(), 0);
        QCOMPARE(j["keys"][1]["total"].get<int>(), 1);
        QCOMPARE(j["keys"][1]["free"].get<int>(), 0);
        QCOMPARE(j["keys"][1]["pending"].get<int>(), 1);
        QCOMPARE(j["keys"][1]["queue"][0]["priority"].get<int>(), 3);
        QCOMPARE(j["keys"][1]["queue"][0]["waiting_ms"].get<int>(), 250);
        // Without device facts (a status too large for a frame).
        const auto small = nlohmann::json::parse(h.state.statusJson(h.now, false));
        QVERIFY(small["servers"][0]["device"].is_null());
    }

    void parserChecksEveryField() {
        auto frame = [](Code code, const std::vector<char>& payload) {
            return Frame{uint16_t(code), payload};
        };
        // Round trips.
        const RegisterMessage reg{"aarch64-qemu", "", 9090, R"({"triple":"aarch64"})", false};
        const auto back =
            std::get<RegisterMessage>(parseTrackerMessage(frame(Code::Register, payloadOf(reg))));
        QCOMPARE(back.key, reg.key);
        QCOMPARE(back.port, reg.port);
        QCOMPARE(back.free, false);
        const RequestMessage req{"k", -7, "tuner 1"};
        QCOMPARE(std::get<RequestMessage>(parseTrackerMessage(frame(Code::Request, payloadOf(req))))
                     .priority,
                 -7);
        const ReleaseMessage rel{42, true};
        QCOMPARE(std::get<ReleaseMessage>(parseTrackerMessage(frame(Code::Release, payloadOf(rel))))
                     .serverId,
                 uint64_t(42));
        const Assignment a{7, "10.0.0.2", 9090, "k", "{}"};
        QCOMPARE(parseAssign(frame(Code::Assign, assignPayload(a))).host, std::string("10.0.0.2"));

        auto bad = [&](Code code, const std::vector<char>& payload, const char* why) {
            try {
                parseTrackerMessage(frame(code, payload));
            } catch (const ProtocolError& e) {
                return std::string(e.what()).find(why) != std::string::npos;
            }
            return false;
        };
        Writer w;
        QVERIFY(bad(Code::Register, payloadOf(RegisterMessage{"", "", 1, "{}", true}), "a key is"));
        QVERIFY(bad(Code::Register, payloadOf(RegisterMessage{"has space", "", 1, "{}", true}),
                    "a key is"));
        QVERIFY(bad(Code::Register, payloadOf(RegisterMessage{"k", "", 0, "{}", true}), "port 0"));
        QVERIFY(bad(Code::Register, payloadOf(RegisterMessage{"k", "", 1, "[1,2]", true}),
                    "JSON object"));
        QVERIFY(
            bad(Code::Register, payloadOf(RegisterMessage{"k", "", 1, "{", true}), "JSON object"));
        QVERIFY(bad(Code::Heartbeat, Writer().u8(2).take(), "0 or 1"));
        QVERIFY(bad(Code::Heartbeat, Writer().u8(1).u8(0).take(), "unread bytes"));
        QVERIFY(bad(Code::Release, Writer().u32(1).take(), "truncated"));
        // A length field larger than what is left of the frame, and one over the limit.
        QVERIFY(
            bad(Code::Request, Writer().u64(100).raw("abc", 3).take(), "longer than the frame"));
        QVERIFY(bad(Code::Request, Writer().u64(uint64_t(1) << 62).take(), "over the limit"));
        QVERIFY(bad(Code::Request, payloadOf(RequestMessage{"k", 0, "bell\a"}), "control"));
        QVERIFY(bad(Code::Run, {}, "takes no run frame"));
        QVERIFY(bad(Code::Register, Writer().str("k").str(std::string(300, 'h')).take(),
                    "over the limit"));
    }
};

QTEST_GUILESS_MAIN(TestTrackerState)
#include "tst_trackerstate.moc"
