#include "rpc/Handshake.h"

#include "rpc/Auth.h"

#include <algorithm>
#include <cstring>

namespace tessel::rpc {

const char* roleName(Role role) {
    switch (role) {
    case Role::Client: return "client";
    case Role::Server: return "server";
    case Role::Query: return "query";
    }
    return "client";
}

namespace {

const std::string kStep = "handshake";

[[noreturn]] void protocolError(const std::string& why) { throw RpcError(kStep, Failure::Protocol, why); }

/// Reads a frame of `expected` code (an Error frame becomes Failure::Remote).
Frame expect(Connection& c, Code expected, Deadline deadline) {
    Frame f = c.receive(kMaxHandshakeFrame, deadline, kStep);
    if (f.code == static_cast<uint16_t>(Code::Error)) {
        ErrorInfo e;
        try {
            e = readError(f);
        } catch (const ProtocolError& pe) {
            protocolError(std::string("malformed error frame: ") + pe.what());
        }
        throw RpcError(kStep, Failure::Remote, e.message, e.code);
    }
    if (f.code != static_cast<uint16_t>(expected))
        protocolError("expected " + codeName(static_cast<uint16_t>(expected)) + ", got " + codeName(f.code));
    return f;
}

/// Sends the refusal, then throws it as the server's own error.
[[noreturn]] void refuse(Connection& c, ErrorCode code, const std::string& why, Deadline deadline) {
    try {
        c.send(Code::Error, errorPayload(code, why), deadline, kStep);
    } catch (const RpcError&) {
        // The peer may be gone already; the refusal is logged by the caller either way.
    }
    throw RpcError(kStep, Failure::Remote, why, code);
}

} // namespace

std::string clientHandshake(Connection& c, Role role, const std::string& name, const std::string& token,
                            Deadline deadline) {
    // The hello offers the newest version we speak (its layout is version
    // 1's, so an older peer reads it and refuses with its own message).
    Writer hello;
    hello.u32(kMagic).u16(kProtocolVersion).u8(static_cast<uint8_t>(role)).str(name);
    c.send(Code::Hello, hello.take(), deadline, kStep);

    Frame f;
    try {
        f = expect(c, Code::Challenge, deadline);
    } catch (const RpcError& e) {
        if (e.failure() != Failure::Remote || e.remote() != ErrorCode::Version) throw;
        throw RpcError(kStep, Failure::Remote,
                       "the peer does not speak protocol version " + std::to_string(kMinProtocolVersion) + ".." +
                           std::to_string(kProtocolVersion) + " (it said: \"" + e.why() +
                           "\"); it is from another Tessel release: run the same release on both ends "
                           "(protocol 2 added devices to alloc, copy and run)",
                       ErrorCode::Version);
    }
    Nonce nonce{};
    bool authRequired = false;
    try {
        Reader r(f.payload);
        if (r.u32() != kMagic) protocolError("the peer is not a Tessel RPC endpoint (wrong magic number)");
        const uint16_t version = r.u16(); // what the peer chose
        if (version < kMinProtocolVersion || version > kProtocolVersion)
            throw RpcError(kStep, Failure::Remote,
                           "the peer chose protocol version " + std::to_string(version) + ", this client speaks " +
                               std::to_string(kMinProtocolVersion) + ".." + std::to_string(kProtocolVersion) +
                               ": run the same Tessel release on both ends",
                           ErrorCode::Version);
        authRequired = r.u8() != 0;
        std::string_view n = r.bytes(nonce.size());
        if (n.size() != nonce.size()) protocolError("the challenge's nonce is not 32 bytes");
        std::memcpy(nonce.data(), n.data(), nonce.size());
        r.str(kMaxHandshakeFrame); // the server's name, informative
        r.finish();
    } catch (const ProtocolError& e) {
        protocolError(e.what());
    }

    Writer auth;
    if (authRequired) {
        if (token.empty())
            throw RpcError(kStep, Failure::Remote, "the peer requires a token and none was given (--token-file)",
                           ErrorCode::Auth);
        const Mac mac = hmacSha256(token, nonce);
        auth.bytes(mac.data(), mac.size());
    } else {
        auth.bytes(nullptr, 0);
    }
    c.send(Code::Auth, auth.take(), deadline, kStep);

    Frame w = expect(c, Code::Welcome, deadline);
    try {
        Reader r(w.payload);
        std::string text = r.str(kMaxHandshakeFrame);
        r.finish();
        return text;
    } catch (const ProtocolError& e) {
        protocolError(e.what());
    }
}

Hello readHello(const Frame& f) {
    if (f.code != static_cast<uint16_t>(Code::Hello)) protocolError("expected hello, got " + codeName(f.code));
    Hello hello;
    try {
        Reader r(f.payload);
        if (r.u32() != kMagic) protocolError("not a Tessel RPC client (wrong magic number)");
        hello.version = r.u16();
        const uint8_t role = r.u8();
        if (role > static_cast<uint8_t>(Role::Query)) protocolError("unknown role " + std::to_string(role));
        hello.role = static_cast<Role>(role);
        hello.name = r.str(256);
        r.finish();
    } catch (const ProtocolError& e) {
        protocolError(e.what());
    }
    return hello;
}

uint16_t negotiatedVersion(const Hello& hello) { return std::min(hello.version, kProtocolVersion); }

std::string versionRefusal(const Hello& hello) {
    if (hello.version >= kMinProtocolVersion) return {};
    std::string why = "the client speaks protocol version " + std::to_string(hello.version) + ", this endpoint " +
                      std::to_string(kMinProtocolVersion) + ".." + std::to_string(kProtocolVersion);
    if (hello.version == 1)
        why += " (version 2 carries devices in alloc, copy and run; version 1 clients are from an older Tessel)";
    return why + ": update the client to this Tessel release";
}

std::vector<char> challengePayload(const Hello& hello, bool authRequired, const Nonce& nonce,
                                   const std::string& welcome) {
    Writer challenge;
    challenge.u32(kMagic)
        .u16(negotiatedVersion(hello))
        .u8(authRequired ? 1 : 0)
        .bytes(nonce.data(), nonce.size())
        .str(welcome);
    return challenge.take();
}

std::string authRefusal(const Frame& a, const std::string& token, const Nonce& nonce) {
    if (a.code != static_cast<uint16_t>(Code::Auth)) protocolError("expected auth, got " + codeName(a.code));
    std::string mac;
    try {
        Reader r(a.payload);
        mac = std::string(r.bytes(64));
        r.finish();
    } catch (const ProtocolError& e) {
        protocolError(e.what());
    }
    if (token.empty()) return {};
    const Mac expected = hmacSha256(token, nonce);
    Mac got{};
    if (mac.size() != got.size()) return "a token is required and the client sent none";
    std::memcpy(got.data(), mac.data(), got.size());
    if (!macEqual(expected, got)) return "wrong token";
    return {};
}

std::vector<char> welcomePayload(const std::string& welcome) {
    Writer w;
    w.str(welcome);
    return w.take();
}

Hello serverHandshake(Connection& c, const std::string& token, const std::string& welcome, Deadline deadline) {
    const Hello hello = readHello(c.receive(kMaxHandshakeFrame, deadline, kStep));
    if (const std::string why = versionRefusal(hello); !why.empty()) refuse(c, ErrorCode::Version, why, deadline);
    const Nonce nonce = randomNonce();
    c.send(Code::Challenge, challengePayload(hello, !token.empty(), nonce, welcome), deadline, kStep);
    const Frame a = c.receive(kMaxHandshakeFrame, deadline, kStep);
    if (const std::string why = authRefusal(a, token, nonce); !why.empty()) refuse(c, ErrorCode::Auth, why, deadline);
    c.send(Code::Welcome, welcomePayload(welcome), deadline, kStep);
    return hello;
}

} // namespace tessel::rpc
