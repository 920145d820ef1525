#include "rpc/Protocol.h"

#include <bit>
#include <cstring>

namespace tessel::rpc {

std::string codeName(uint16_t code) {
    switch (static_cast<Code>(code)) {
    case Code::Hello: return "hello";
    case Code::Challenge: return "challenge";
    case Code::Auth: return "auth";
    case Code::Welcome: return "welcome";
    case Code::Ok: return "ok";
    case Code::Error: return "error";
    case Code::GetDevice: return "get-device";
    case Code::Upload: return "upload";
    case Code::LoadModule: return "load-module";
    case Code::Alloc: return "alloc";
    case Code::Free: return "free";
    case Code::CopyTo: return "copy-to";
    case Code::CopyFrom: return "copy-from";
    case Code::Run: return "run";
    case Code::LoadModel: return "load-model";
    case Code::RunModel: return "run-model";
    case Code::Bye: return "bye";
    case Code::ProfileModel: return "profile-model";
    case Code::Register: return "register";
    case Code::Heartbeat: return "heartbeat";
    case Code::Request: return "request";
    case Code::Assign: return "assign";
    case Code::Release: return "release";
    case Code::Query: return "query";
    }
    return "code " + std::to_string(code);
}

const char* errorCodeName(ErrorCode code) {
    switch (code) {
    case ErrorCode::Protocol: return "protocol";
    case ErrorCode::Version: return "version";
    case ErrorCode::Auth: return "auth";
    case ErrorCode::Limit: return "limit";
    case ErrorCode::NotFound: return "not-found";
    case ErrorCode::Load: return "load";
    case ErrorCode::Runtime: return "runtime";
    case ErrorCode::Crash: return "crash";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::Busy: return "busy";
    case ErrorCode::Internal: return "internal";
    }
    return "internal";
}

namespace {

// The wire is little-endian; so are the machines Tessel runs on (x86-64,
// aarch64 Linux), which the static_assert below keeps honest.
static_assert(std::endian::native == std::endian::little, "the RPC codec assumes a little-endian host");

template <class T> void put(std::vector<char>& buf, T v) {
    const size_t at = buf.size();
    buf.resize(at + sizeof(T));
    std::memcpy(buf.data() + at, &v, sizeof(T));
}

} // namespace

void writeHeader(char* out, uint16_t code, uint64_t payloadBytes) {
    const uint16_t flags = 0;
    std::memcpy(out, &kMagic, 4);
    std::memcpy(out + 4, &code, 2);
    std::memcpy(out + 6, &flags, 2);
    std::memcpy(out + 8, &payloadBytes, 8);
}

Header readHeader(const char* in, uint64_t maxPayload) {
    uint32_t magic;
    uint16_t flags;
    Header h;
    std::memcpy(&magic, in, 4);
    std::memcpy(&h.code, in + 4, 2);
    std::memcpy(&flags, in + 6, 2);
    std::memcpy(&h.length, in + 8, 8);
    if (magic != kMagic) throw ProtocolError("not a Tessel RPC frame (wrong magic number)");
    if (flags != 0) throw ProtocolError("frame flags must be 0");
    if (h.length > maxPayload)
        throw ProtocolError("frame of " + std::to_string(h.length) + " bytes is over the limit of " +
                            std::to_string(maxPayload) + " (" + codeName(h.code) + ")");
    return h;
}

Writer& Writer::u8(uint8_t v) { put(buf_, v); return *this; }
Writer& Writer::u16(uint16_t v) { put(buf_, v); return *this; }
Writer& Writer::u32(uint32_t v) { put(buf_, v); return *this; }
Writer& Writer::u64(uint64_t v) { put(buf_, v); return *this; }
Writer& Writer::i32(int32_t v) { put(buf_, v); return *this; }
Writer& Writer::i64(int64_t v) { put(buf_, v); return *this; }
Writer& Writer::f64(double v) { put(buf_, v); return *this; }
Writer& Writer::str(std::string_view s) { return bytes(s.data(), s.size()); }
Writer& Writer::bytes(const void* data, size_t size) {
    u64(size);
    return raw(data, size);
}
Writer& Writer::raw(const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    buf_.insert(buf_.end(), p, p + size);
    return *this;
}

void Reader::need(size_t n) const {
    if (left() < n)
        throw ProtocolError("truncated field: " + std::to_string(n) + " bytes wanted, " + std::to_string(left()) +
                            " left in the frame");
}

#define TESSEL_READ(T)                                                                                                 \
    need(sizeof(T));                                                                                                   \
    T v;                                                                                                               \
    std::memcpy(&v, p_, sizeof(T));                                                                                    \
    p_ += sizeof(T);                                                                                                   \
    return v;

uint8_t Reader::u8() { TESSEL_READ(uint8_t) }
uint16_t Reader::u16() { TESSEL_READ(uint16_t) }
uint32_t Reader::u32() { TESSEL_READ(uint32_t) }
uint64_t Reader::u64() { TESSEL_READ(uint64_t) }
int32_t Reader::i32() { TESSEL_READ(int32_t) }
int64_t Reader::i64() { TESSEL_READ(int64_t) }
double Reader::f64() { TESSEL_READ(double) }
#undef TESSEL_READ

std::string Reader::str(uint64_t max) { return std::string(bytes(max)); }

std::string_view Reader::bytes(uint64_t max) {
    const uint64_t n = u64();
    if (n > max) throw ProtocolError("field of " + std::to_string(n) + " bytes is over the limit of " + std::to_string(max));
    if (n > left())
        throw ProtocolError("field of " + std::to_string(n) + " bytes is longer than the frame (" +
                            std::to_string(left()) + " left)");
    std::string_view v(p_, static_cast<size_t>(n));
    p_ += n;
    return v;
}

uint32_t Reader::count(uint32_t max, size_t minElementBytes) {
    const uint32_t n = u32();
    if (n > max) throw ProtocolError("count " + std::to_string(n) + " is over the limit of " + std::to_string(max));
    if (minElementBytes > 0 && n > left() / minElementBytes)
        throw ProtocolError("count " + std::to_string(n) + " is larger than the frame can hold");
    return n;
}

void Reader::finish() const {
    if (left() != 0) throw ProtocolError(std::to_string(left()) + " unread bytes at the end of the frame");
}

void FrameDecoder::feed(const char* data, size_t size) {
    if (pos_ > 0 && pos_ == buf_.size()) {
        buf_.clear();
        pos_ = 0;
    }
    buf_.insert(buf_.end(), data, data + size);
    if (pending() >= kHeaderBytes) readHeader(buf_.data() + pos_, max_); // fail early on a bad header
}

std::optional<Frame> FrameDecoder::next() {
    if (pending() < kHeaderBytes) return std::nullopt;
    const Header h = readHeader(buf_.data() + pos_, max_);
    if (pending() - kHeaderBytes < h.length) return std::nullopt;
    Frame f;
    f.code = h.code;
    const char* begin = buf_.data() + pos_ + kHeaderBytes;
    f.payload.assign(begin, begin + h.length);
    pos_ += kHeaderBytes + static_cast<size_t>(h.length);
    if (pos_ == buf_.size()) {
        buf_.clear();
        pos_ = 0;
    } else if (pos_ > (1u << 16) && pos_ > buf_.size() / 2) {
        buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(pos_));
        pos_ = 0;
    }
    return f;
}

std::vector<char> errorPayload(ErrorCode code, std::string_view message) {
    Writer w;
    w.u16(static_cast<uint16_t>(code)).str(message);
    return w.take();
}

ErrorInfo readError(const Frame& frame) {
    Reader r(frame.payload);
    ErrorInfo e;
    e.code = static_cast<ErrorCode>(r.u16());
    e.message = r.str();
    return e;
}

void writeDevice(Writer& w, runtime::Device device) {
    w.i32(static_cast<int32_t>(device.kind)).i32(device.id);
}

runtime::Device readDevice(Reader& r) {
    const int32_t kind = r.i32();
    const int32_t id = r.i32();
    if (!runtime::isDeviceKind(kind)) throw ProtocolError("unknown device kind " + std::to_string(kind));
    if (id < 0 || id > kMaxDeviceId)
        throw ProtocolError("device index " + std::to_string(id) + " is out of range (0.." +
                            std::to_string(kMaxDeviceId) + ")");
    return runtime::Device{static_cast<runtime::DeviceKind>(kind), id};
}

void RunSpec::write(Writer& w) const {
    writeDevice(w, device);
    w.u32(threads).u32(timeoutMs).u32(number).u32(repeat).u32(minRepeatMs).u32(warmup);
}

RunSpec RunSpec::read(Reader& r) {
    RunSpec s;
    s.device = readDevice(r);
    s.threads = r.u32();
    s.timeoutMs = r.u32();
    s.number = r.u32();
    s.repeat = r.u32();
    s.minRepeatMs = r.u32();
    s.warmup = r.u32();
    if (s.threads > 1024) throw ProtocolError("threads " + std::to_string(s.threads) + " is over the limit of 1024");
    if (s.number > 1u << 24 || s.repeat > 1000 || s.warmup > 1000 || s.minRepeatMs > 600000)
        throw ProtocolError("time evaluator settings over their limits (number 2^24, repeat 1000, warmup 1000, "
                            "min_repeat_ms 600000)");
    return s;
}

} // namespace tessel::rpc
