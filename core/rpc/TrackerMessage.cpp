#include "rpc/TrackerMessage.h"

#include <nlohmann/json.hpp>

namespace tessel::rpc {

namespace {

bool printableAscii(const std::string& s) {
    for (unsigned char ch : s)
        if (ch <= 0x20 || ch >= 0x7f) return false;
    return true;
}

std::string readKey(Reader& r) {
    std::string key = r.str(kMaxTrackerKey);
    if (!isValidTrackerKey(key))
        throw ProtocolError("a key is 1 to " + std::to_string(kMaxTrackerKey) +
                            " printable ASCII characters without spaces");
    return key;
}

std::string readHost(Reader& r, bool mayBeEmpty) {
    std::string host = r.str(kMaxTrackerHost);
    if (host.empty() && !mayBeEmpty) throw ProtocolError("empty host");
    if (!printableAscii(host)) throw ProtocolError("a host is printable ASCII without spaces");
    return host;
}

uint16_t readPort(Reader& r) {
    const uint16_t port = r.u16();
    if (port == 0) throw ProtocolError("port 0");
    return port;
}

bool readFlag(Reader& r, const char* what) {
    const uint8_t v = r.u8();
    if (v > 1) throw ProtocolError(std::string(what) + " must be 0 or 1, not " + std::to_string(v));
    return v == 1;
}

std::string readDeviceJson(Reader& r) {
    std::string text = r.str(kMaxDeviceJson);
    // The tracker embeds the facts in its status as an object, so it takes
    // nothing else (parse without exceptions: a fuzzer feeds this).
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw ProtocolError("the device facts are not a JSON object");
    return text;
}

std::string readClientName(Reader& r) {
    std::string name = r.str(kMaxClientName);
    for (unsigned char ch : name)
        if (ch < 0x20 || ch == 0x7f) throw ProtocolError("a client name has no control characters");
    return name;
}

} // namespace

bool isValidTrackerKey(const std::string& key) {
    return !key.empty() && key.size() <= kMaxTrackerKey && printableAscii(key);
}

Code codeOf(const TrackerMessage& message) {
    struct {
        Code operator()(const RegisterMessage&) const { return Code::Register; }
        Code operator()(const HeartbeatMessage&) const { return Code::Heartbeat; }
        Code operator()(const RequestMessage&) const { return Code::Request; }
        Code operator()(const ReleaseMessage&) const { return Code::Release; }
        Code operator()(const QueryMessage&) const { return Code::Query; }
    } visitor;
    return std::visit(visitor, message);
}

TrackerMessage parseTrackerMessage(const Frame& frame) {
    Reader r(frame.payload);
    TrackerMessage out;
    switch (static_cast<Code>(frame.code)) {
    case Code::Register: {
        RegisterMessage m;
        m.key = readKey(r);
        m.host = readHost(r, true);
        m.port = readPort(r);
        m.deviceJson = readDeviceJson(r);
        m.free = readFlag(r, "free");
        out = std::move(m);
        break;
    }
    case Code::Heartbeat:
        out = HeartbeatMessage{readFlag(r, "free")};
        break;
    case Code::Request: {
        RequestMessage m;
        m.key = readKey(r);
        m.priority = r.i32();
        m.client = readClientName(r);
        out = std::move(m);
        break;
    }
    case Code::Release: {
        ReleaseMessage m;
        m.serverId = r.u64();
        m.failed = readFlag(r, "failed");
        out = m;
        break;
    }
    case Code::Query:
        out = QueryMessage{};
        break;
    default:
        throw ProtocolError("the tracker takes no " + codeName(frame.code) + " frame");
    }
    r.finish();
    return out;
}

std::vector<char> payloadOf(const TrackerMessage& message) {
    Writer w;
    struct {
        Writer& w;
        void operator()(const RegisterMessage& m) const {
            w.str(m.key).str(m.host).u16(m.port).str(m.deviceJson).u8(m.free ? 1 : 0);
        }
        void operator()(const HeartbeatMessage& m) const { w.u8(m.free ? 1 : 0); }
        void operator()(const RequestMessage& m) const {
            w.str(m.key).i32(m.priority).str(m.client);
        }
        void operator()(const ReleaseMessage& m) const { w.u64(m.serverId).u8(m.failed ? 1 : 0); }
        void operator()(const QueryMessage&) const {}
    } visitor{w};
    std::visit(visitor, message);
    return w.take();
}

std::vector<char> assignPayload(const Assignment& a) {
    Writer w;
    w.u64(a.serverId).str(a.host).u16(a.port).str(a.key).str(a.deviceJson);
    return w.take();
}

Assignment parseAssign(const Frame& frame) {
    if (frame.code != static_cast<uint16_t>(Code::Assign))
        throw ProtocolError("expected assign, got " + codeName(frame.code));
    Reader r(frame.payload);
    Assignment a;
    a.serverId = r.u64();
    a.host = readHost(r, false);
    a.port = readPort(r);
    a.key = readKey(r);
    a.deviceJson = r.str(kMaxDeviceJson);
    r.finish();
    return a;
}

} // namespace tessel::rpc
