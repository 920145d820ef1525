// The wire format and the handshake: field round trips (devices and run
// specs too), every limit a hostile frame could abuse, frames cut in any
// pieces, and the handshake over loopback with right and wrong tokens, the
// version negotiated with a newer client, and a clear refusal between this
// release and a protocol 1 peer either way.
#include "rpc/Auth.h"
#include "rpc/Handshake.h"

#include <QtTest>

#include <cstring>
#include <thread>

using namespace tessel::rpc;

namespace {

std::vector<char> frameBytes(uint16_t code, const std::vector<char>& payload) {
    std::vector<char> out(kHeaderBytes);
    writeHeader(out.data(), code, payload.size());
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

/// Runs serverHandshake on one accepted connection in a thread; what it
/// threw (empty when it welcomed the client).
struct OneServer {
    Listener listener{"127.0.0.1", 0};
    std::thread thread;
    std::string error;
    Hello hello;
    explicit OneServer(std::string token) {
        thread = std::thread([this, token] {
            Connection c = listener.accept(5000);
            try {
                hello = serverHandshake(c, token, "test server", deadlineIn(5000));
            } catch (const std::exception& e) {
                error = e.what();
            }
        });
    }
    ~OneServer() { thread.join(); }
};

} // namespace

class TestProtocol : public QObject {
    Q_OBJECT
private slots:
    void fieldsRoundTrip() {
        Writer w;
        w.u8(7).u16(65535).u32(0xdeadbeef).u64(1ull << 40).i32(-5).i64(-(1ll << 50)).f64(2.5).str("héllo").bytes("ab", 2);
        auto buf = w.take();
        Reader r(buf);
        QCOMPARE(r.u8(), uint8_t(7));
        QCOMPARE(r.u16(), uint16_t(65535));
        QCOMPARE(r.u32(), 0xdeadbeefu);
        QCOMPARE(r.u64(), uint64_t(1) << 40);
        QCOMPARE(r.i32(), -5);
        QCOMPARE(r.i64(), -(int64_t(1) << 50));
        QCOMPARE(r.f64(), 2.5);
        QCOMPARE(QString::fromStdString(r.str()), QString("héllo"));
        QCOMPARE(r.bytes(10), std::string_view("ab"));
        r.finish();
        RunSpec s;
        s.device = tessel::runtime::Device::cuda(3);
        s.threads = 2; s.timeoutMs = 1234; s.number = 3; s.repeat = 4; s.minRepeatMs = 5; s.warmup = 0;
        Writer w2;
        s.write(w2);
        auto b2 = w2.take();
        Reader r2(b2);
        RunSpec t = RunSpec::read(r2);
        QVERIFY(t.device == tessel::runtime::Device::cuda(3));
        QCOMPARE(t.threads, 2u); QCOMPARE(t.timeoutMs, 1234u); QCOMPARE(t.number, 3u);
        QCOMPARE(t.repeat, 4u); QCOMPARE(t.minRepeatMs, 5u); QCOMPARE(t.warmup, 0u);
    }

    void devicesOnTheWire() {
        Writer w;
        writeDevice(w, tessel::runtime::Device::cpu());
        writeDevice(w, tessel::runtime::Device::cuda(1));
        w.i32(77).i32(0);   // an unknown kind
        w.i32(1).i32(-1);   // a negative index
        w.i32(1).i32(1 << 20); // an index out of range
        auto buf = w.take();
        Reader r(buf);
        QVERIFY(readDevice(r) == tessel::runtime::Device::cpu());
        QVERIFY(readDevice(r) == tessel::runtime::Device::cuda(1));
        QVERIFY_THROWS_EXCEPTION(ProtocolError, readDevice(r));
        QVERIFY_THROWS_EXCEPTION(ProtocolError, readDevice(r));
        QVERIFY_THROWS_EXCEPTION(ProtocolError, readDevice(r));
    }

    void hostileLengthsAreErrorsBeforeAllocation() {
        // A header announcing 2^62 bytes.
        char h[kHeaderBytes];
        writeHeader(h, uint16_t(Code::Upload), uint64_t(1) << 62);
        QVERIFY_THROWS_EXCEPTION(ProtocolError, readHeader(h, 1 << 20));
        // A string field announcing 2^62 bytes inside a 20-byte frame.
        Writer w;
        w.u64(uint64_t(1) << 62).u32(0);
        auto b = w.take();
        Reader r(b);
        QVERIFY_THROWS_EXCEPTION(ProtocolError, r.str());
        // A count larger than the frame can hold.
        Writer w2;
        w2.u32(1000).u64(1);
        auto b2 = w2.take();
        Reader r2(b2);
        QVERIFY_THROWS_EXCEPTION(ProtocolError, r2.count(kMaxArgs, 8));
        // Over the count's own limit.
        Writer w3;
        w3.u32(kMaxDims + 1);
        auto b3 = w3.take();
        Reader r3(b3);
        QVERIFY_THROWS_EXCEPTION(ProtocolError, r3.count(kMaxDims, 0));
        // Truncated fields.
        Writer w4;
        w4.u16(3);
        auto b4 = w4.take();
        Reader r4(b4);
        QVERIFY_THROWS_EXCEPTION(ProtocolError, r4.u32());
        // Wrong magic, non-zero flags.
        std::memcpy(h, "XXXX", 4);
        QVERIFY_THROWS_EXCEPTION(ProtocolError, readHeader(h, 100));
        writeHeader(h, 1, 0);
        h[6] = 1;
        QVERIFY_THROWS_EXCEPTION(ProtocolError, readHeader(h, 100));
        // Unread bytes.
        Reader r5(b2);
        r5.u32();
        QVERIFY_THROWS_EXCEPTION(ProtocolError, r5.finish());
    }

    void decoderTakesFramesInAnyPieces() {
        std::vector<char> stream;
        for (int i = 0; i < 5; ++i) {
            Writer w;
            w.u32(uint32_t(i)).str(std::string(size_t(i * 100), 'x'));
            auto f = frameBytes(uint16_t(Code::Run), w.take());
            stream.insert(stream.end(), f.begin(), f.end());
        }
        for (size_t piece : {size_t(1), size_t(3), size_t(17), size_t(4096)}) {
            FrameDecoder d(1 << 20);
            int seen = 0;
            for (size_t at = 0; at < stream.size(); at += piece) {
                d.feed(stream.data() + at, std::min(piece, stream.size() - at));
                while (auto f = d.next()) {
                    Reader r(f->payload);
                    QCOMPARE(r.u32(), uint32_t(seen));
                    QCOMPARE(r.str().size(), size_t(seen * 100));
                    ++seen;
                }
            }
            QCOMPARE(seen, 5);
            QCOMPARE(d.pending(), size_t(0));
        }
        FrameDecoder d(100);
        char h[kHeaderBytes];
        writeHeader(h, 1, 101);
        QVERIFY_THROWS_EXCEPTION(ProtocolError, d.feed(h, sizeof h));
        FrameDecoder junk(100);
        const char random[] = "\x13\x37GET / HTTP/1.1\r\n\r\n";
        QVERIFY_THROWS_EXCEPTION(ProtocolError, junk.feed(random, sizeof random));
    }

    void hmacIsTheStandardOne() {
        // The reference: Python's hmac module, HMAC-SHA256(b"key", bytes(32)).
        Nonce zero{};
        const Mac mac = hmacSha256("key", zero);
        char hex[65];
        for (size_t i = 0; i < mac.size(); ++i) std::snprintf(hex + 2 * i, 3, "%02x", mac[i]);
        QCOMPARE(QString(hex), QString("f7ce443554b62f0a6aa18ca2bdc213a5c4af495cca2adba7ae1cc2979445344f"));
        QVERIFY(!macEqual(mac, hmacSha256("kez", zero)));
        QVERIFY(macEqual(mac, hmacSha256("key", zero)));
        QVERIFY(randomNonce() != randomNonce());
    }

    void handshakeWithoutToken() {
        OneServer s("");
        Connection c = Connection::connect("127.0.0.1", s.listener.port(), deadlineIn(5000));
        QCOMPARE(QString::fromStdString(clientHandshake(c, Role::Query, "me", "", deadlineIn(5000))), QString("test server"));
        s.thread.join();
        s.thread = std::thread([] {});
        QVERIFY2(s.error.empty(), s.error.c_str());
        QCOMPARE(s.hello.role, Role::Query);
        QCOMPARE(QString::fromStdString(s.hello.name), QString("me"));
    }

    void handshakeWithRightAndWrongTokens() {
        {
            OneServer s("sesame");
            Connection c = Connection::connect("127.0.0.1", s.listener.port(), deadlineIn(5000));
            clientHandshake(c, Role::Client, "me", "sesame", deadlineIn(5000));
        }
        {
            OneServer s("sesame");
            Connection c = Connection::connect("127.0.0.1", s.listener.port(), deadlineIn(5000));
            try {
                clientHandshake(c, Role::Client, "me", "wrong", deadlineIn(5000));
                QFAIL("a wrong token was welcomed");
            } catch (const RpcError& e) {
                QCOMPARE(e.failure(), Failure::Remote);
                QCOMPARE(e.remote(), ErrorCode::Auth);
                QVERIFY(e.why().find("wrong token") != std::string::npos);
            }
            s.thread.join();
            s.thread = std::thread([] {});
            QVERIFY(s.error.find("wrong token") != std::string::npos);
        }
        {
            OneServer s("sesame");
            Connection c = Connection::connect("127.0.0.1", s.listener.port(), deadlineIn(5000));
            try {
                clientHandshake(c, Role::Client, "me", "", deadlineIn(5000));
                QFAIL("no token was welcomed");
            } catch (const RpcError& e) {
                QCOMPARE(e.remote(), ErrorCode::Auth);
            }
        }
    }

    void aNewerClientSettlesOnOurVersion() {
        // A client of a later release offers more; the server chooses the
        // newest it speaks itself.
        OneServer s("");
        Connection c = Connection::connect("127.0.0.1", s.listener.port(), deadlineIn(5000));
        Writer hello;
        hello.u32(kMagic).u16(kProtocolVersion + 1).u8(0).str("future client");
        c.send(Code::Hello, hello.take(), deadlineIn(5000), "hello");
        Frame f = c.receive(kMaxHandshakeFrame, deadlineIn(5000), "reply");
        QCOMPARE(f.code, uint16_t(Code::Challenge));
        Reader r(f.payload);
        QCOMPARE(r.u32(), kMagic);
        QCOMPARE(r.u16(), kProtocolVersion);
        Hello h;
        h.version = kProtocolVersion + 1;
        QCOMPARE(negotiatedVersion(h), kProtocolVersion);
        c.close();
    }

    void aVersion1ClientIsRefusedClearly() {
        OneServer s("");
        Connection c = Connection::connect("127.0.0.1", s.listener.port(), deadlineIn(5000));
        Writer hello;
        hello.u32(kMagic).u16(1).u8(0).str("old client");
        c.send(Code::Hello, hello.take(), deadlineIn(5000), "hello");
        Frame f = c.receive(kMaxHandshakeFrame, deadlineIn(5000), "reply");
        QCOMPARE(f.code, uint16_t(Code::Error));
        const ErrorInfo e = readError(f);
        QCOMPARE(e.code, ErrorCode::Version);
        QVERIFY2(e.message.find("protocol version 1") != std::string::npos, e.message.c_str());
        QVERIFY2(e.message.find("devices") != std::string::npos, e.message.c_str());
        QVERIFY2(e.message.find("update the client") != std::string::npos, e.message.c_str());
    }

    void aVersion1ServerIsNamedClearly() {
        // What a server of the previous release answers a newer client.
        Listener listener("127.0.0.1", 0);
        std::thread old([&] {
            Connection c = listener.accept(5000);
            c.receive(kMaxHandshakeFrame, deadlineIn(5000), "hello");
            c.send(Code::Error,
                   errorPayload(ErrorCode::Version, "this endpoint speaks protocol version 1, the client 2: update one of them"),
                   deadlineIn(5000), "refuse");
        });
        Connection c = Connection::connect("127.0.0.1", listener.port(), deadlineIn(5000));
        try {
            clientHandshake(c, Role::Client, "me", "", deadlineIn(5000));
            QFAIL("a version 1 server welcomed us");
        } catch (const RpcError& e) {
            QCOMPARE(e.failure(), Failure::Remote);
            QCOMPARE(e.remote(), ErrorCode::Version);
            QVERIFY2(e.why().find("another Tessel release") != std::string::npos, e.what());
            QVERIFY2(e.why().find("protocol version 1") != std::string::npos, e.what());
        }
        old.join();
    }

    void connectErrorsSayTheStep() {
        uint16_t port = 0;
        { Listener gone("127.0.0.1", 0); port = gone.port(); }
        try {
            Connection::connect("127.0.0.1", port, deadlineIn(2000));
            QFAIL("connected to a closed port");
        } catch (const RpcError& e) {
            QCOMPARE(e.failure(), Failure::Connect);
            QVERIFY(e.step().find("connect 127.0.0.1:") == 0);
        }
        QVERIFY(isLoopback("127.0.0.1"));
        QVERIFY(isLoopback("::1"));
        QVERIFY(isLoopback("localhost"));
        QVERIFY(!isLoopback("0.0.0.0"));
        QVERIFY(!isLoopback("10.1.2.3"));
    }
};

QTEST_GUILESS_MAIN(TestProtocol)
#include "tst_protocol.moc"
