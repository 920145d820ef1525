/// \file
/// The wire format of Tessel's RPC: frames, message codes, error codes,
/// limits, and the field codec (docs/rpc.md is the specification).
///
/// A frame is a 16-byte header — magic "TSLR", message code, flags (0) and
/// the payload length, all little-endian — followed by the payload. The
/// payload is a sequence of fields (integers, doubles, length-prefixed
/// strings and byte blocks) read with a Reader that checks every length and
/// count against what is left of the frame before it allocates anything, so
/// a hostile length (2^62) or count is a ProtocolError, never an allocation.
///
/// FrameDecoder takes bytes in any pieces and yields whole frames; it is
/// what a non-blocking reader (the tracker) and the fuzz targets use.
#pragma once

#include "runtime/Device.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::rpc {

inline constexpr uint32_t kMagic = 0x524c5354; // "TSLR" in memory order
/// The newest protocol version this build speaks, and the oldest. Version 2
/// carries a device in load-module, alloc, copy-to, copy-from, run,
/// load-model, run-model and profile-model; version 1 had none. The
/// handshake settles on the newest both ends speak (docs/rpc.md, "Handshake").
inline constexpr uint16_t kProtocolVersion = 2;
inline constexpr uint16_t kMinProtocolVersion = 2;
inline constexpr size_t kHeaderBytes = 16;
/// Largest frame before authentication (hello, challenge, auth).
inline constexpr uint64_t kMaxHandshakeFrame = 4096;
/// Largest frame of the tracker's messages.
inline constexpr uint64_t kMaxTrackerFrame = 1 << 20;
/// Largest string field (names, JSON of device facts).
inline constexpr uint64_t kMaxString = 1 << 20;
/// Most dimensions of a tensor, and most arguments of a kernel.
inline constexpr uint32_t kMaxDims = 16;
/// Largest device index on the wire.
inline constexpr int32_t kMaxDeviceId = 1023;
inline constexpr uint32_t kMaxArgs = 4096;
/// Largest tensor the server allocates, bytes.
inline constexpr uint64_t kMaxTensorBytes = uint64_t(4) << 30;

enum class Code : uint16_t {
    // Handshake (docs/rpc.md, "Handshake").
    Hello = 1,     ///< client -> server: magic, version, role, name
    Challenge = 2, ///< server -> client: magic, version, auth required, nonce, server name
    Auth = 3,      ///< client -> server: HMAC-SHA256(token, nonce) or nothing
    Welcome = 4,   ///< server -> client: accepted; server facts text
    // Replies.
    Ok = 5,    ///< a request succeeded; the payload is the request's result
    Error = 6, ///< a request failed: error code, message
    // Session requests (a client to a server).
    GetDevice = 16,  ///< -> Ok{json}: the host's facts and its devices
    Upload = 17,     ///< file name, bytes -> Ok{}
    LoadModule = 18, ///< file name, device, count, function names -> Ok{count, names...}
    Alloc = 19,      ///< device, dtype, ndim, dims -> Ok{tensor id}
    Free = 20,       ///< tensor id -> Ok{}
    CopyTo = 21,     ///< tensor id, device, bytes -> Ok{}
    CopyFrom = 22,   ///< tensor id, device -> Ok{bytes}
    Run = 23,        ///< function, count, (tensor id, written) pairs, RunSpec -> Ok{repeats, threads}
    LoadModel = 24,  ///< device -> Ok{json}: the exported model in the session folder
    RunModel = 25,   ///< input ids, output ids, RunSpec -> Ok{repeats, threads}
    Bye = 26,        ///< -> Ok{}, then the server closes the session
    ProfileModel = 27, ///< input ids, RunSpec -> Ok{ms per plan step, threads}: each kernel timed on its own
    // Tracker messages (rpc/TrackerMessage.h; docs/rpc.md, "Tracker messages").
    Register = 40,  ///< server -> tracker: key, host, port, device json, free -> Ok{server id}
    Heartbeat = 41, ///< server -> tracker: free (no reply)
    Request = 42,   ///< client -> tracker: key, priority, client name -> Assign (when served)
    Assign = 43,    ///< tracker -> client: server id, host, port, key, device json
    Release = 44,   ///< client -> tracker: server id, failed -> Ok{} (failed: requeue me at the front)
    Query = 45,     ///< -> Ok{json}: servers and queues
};

/// "hello", "run", ... ("code 77" for an unknown one).
std::string codeName(uint16_t code);

/// Why a request failed, as the Error frame carries it.
enum class ErrorCode : uint16_t {
    Protocol = 1,     ///< malformed frame, wrong state, unknown request
    Version = 2,      ///< protocol versions differ
    Auth = 3,         ///< token missing or wrong
    Limit = 4,        ///< a size or count over the server's limit
    NotFound = 5,     ///< no such file, function or tensor
    Load = 6,         ///< the module or model did not load
    Runtime = 7,      ///< the kernel returned an error code
    Crash = 8,        ///< the kernel crashed (the message names the signal)
    Timeout = 9,      ///< the kernel ran past the request's time limit
    Busy = 10,        ///< the server serves as many sessions as it may
    Internal = 11,    ///< the server could not do what it should (fork, disk)
};

const char* errorCodeName(ErrorCode code);

/// A malformed frame or field; the connection that sent it is closed.
class ProtocolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Frame {
    uint16_t code = 0;
    std::vector<char> payload;
};

/// The 16 header bytes of a frame of `payloadBytes`.
void writeHeader(char* out, uint16_t code, uint64_t payloadBytes);

/// Decodes a header; throws ProtocolError for a wrong magic, non-zero flags
/// or a payload longer than `maxPayload`.
struct Header {
    uint16_t code = 0;
    uint64_t length = 0;
};
Header readHeader(const char* in, uint64_t maxPayload);

/// Builds a payload field by field (little-endian).
class Writer {
public:
    Writer& u8(uint8_t v);
    Writer& u16(uint16_t v);
    Writer& u32(uint32_t v);
    Writer& u64(uint64_t v);
    Writer& i32(int32_t v);
    Writer& i64(int64_t v);
    Writer& f64(double v);
    /// u64 length + bytes.
    Writer& str(std::string_view s);
    Writer& bytes(const void* data, size_t size);
    Writer& raw(const void* data, size_t size);
    std::vector<char>& buffer() { return buf_; }
    std::vector<char> take() { return std::move(buf_); }

private:
    std::vector<char> buf_;
};

/// Reads a payload field by field; every read checks what is left.
class Reader {
public:
    Reader(const char* data, size_t size) : p_(data), end_(data + size) {}
    explicit Reader(const std::vector<char>& payload) : Reader(payload.data(), payload.size()) {}
    uint8_t u8();
    uint16_t u16();
    uint32_t u32();
    uint64_t u64();
    int32_t i32();
    int64_t i64();
    double f64();
    /// A string of at most `max` bytes.
    std::string str(uint64_t max = kMaxString);
    /// A byte block of at most `max` bytes: where it starts and its size
    /// (a view into the payload: nothing is copied).
    std::string_view bytes(uint64_t max);
    /// A count of elements that each take at least `minElementBytes` of what
    /// is left: a count the frame cannot hold is an error before any
    /// allocation.
    uint32_t count(uint32_t max, size_t minElementBytes);
    size_t left() const { return static_cast<size_t>(end_ - p_); }
    /// Throws unless the whole payload was read.
    void finish() const;

private:
    void need(size_t n) const;
    const char* p_;
    const char* end_;
};

/// Takes bytes in any pieces and hands out whole frames.
class FrameDecoder {
public:
    explicit FrameDecoder(uint64_t maxPayload) : max_(maxPayload) {}
    void setMaxPayload(uint64_t maxPayload) { max_ = maxPayload; }
    /// Appends received bytes; throws ProtocolError for a bad header.
    void feed(const char* data, size_t size);
    /// The next whole frame, if one is complete.
    std::optional<Frame> next();
    /// Bytes held that are not yet a whole frame.
    size_t pending() const { return buf_.size() - pos_; }

private:
    uint64_t max_;
    std::vector<char> buf_;
    size_t pos_ = 0;
};

/// An Error frame's payload.
std::vector<char> errorPayload(ErrorCode code, std::string_view message);
struct ErrorInfo {
    ErrorCode code = ErrorCode::Internal;
    std::string message;
};
ErrorInfo readError(const Frame& frame);

/// A device on the wire: kind (DLPack's number) and index, two i32. Reading
/// checks both (ProtocolError for an unknown kind or an index out of range).
void writeDevice(Writer& w, runtime::Device device);
runtime::Device readDevice(Reader& r);

/// How a Run, RunModel or ProfileModel request runs: on which device, with
/// TimeEvaluator's fields, threads and a time limit. repeat == 0 asks for
/// one untimed call.
struct RunSpec {
    runtime::Device device;
    uint32_t threads = 0;
    uint32_t timeoutMs = 60000;
    uint32_t number = 1;
    uint32_t repeat = 5;
    uint32_t minRepeatMs = 100;
    uint32_t warmup = 1;
    void write(Writer& w) const;
    static RunSpec read(Reader& r);
};

} // namespace tessel::rpc
