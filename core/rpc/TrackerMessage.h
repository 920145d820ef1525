/// \file
/// The tracker's messages as values, their payloads, and one pure parser for
/// everything a peer may send the tracker (docs/rpc.md, "Tracker messages").
///
/// parseTrackerMessage() is what the tracker runs on every frame after the
/// handshake, and what the libFuzzer target (tests/fuzz) calls: it takes a
/// Frame, checks every field against its limit and its grammar (keys are
/// printable ASCII, device facts a JSON object, ports not 0), and returns a
/// value or throws ProtocolError. It touches no state, so a malformed frame
/// can do nothing but close its own connection.
#pragma once

#include "rpc/Protocol.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tessel::rpc {

/// Longest key ("aarch64-qemu", "rpi4"): printable ASCII without spaces.
inline constexpr uint64_t kMaxTrackerKey = 128;
/// Longest host name or address in a registration or an assignment.
inline constexpr uint64_t kMaxTrackerHost = 255;
/// Longest client name in a request.
inline constexpr uint64_t kMaxClientName = 256;
/// Largest device facts (runtime::DeviceInfo::toJson is about 1 KiB).
inline constexpr uint64_t kMaxDeviceJson = 64 << 10;

/// Server -> tracker, once per connection: who it is and where to reach it.
struct RegisterMessage {
    std::string key;
    /// Empty: the address the tracker sees the connection come from.
    std::string host;
    uint16_t port = 0;
    std::string deviceJson;
    bool free = true;
};

/// Server -> tracker, every second (and at once when `free` changes).
struct HeartbeatMessage {
    bool free = true;
};

/// Client -> tracker: a server of `key`, please.
struct RequestMessage {
    std::string key;
    int32_t priority = 0;
    std::string client;
};

/// Client -> tracker: done with server `serverId` (failed = false), or it
/// failed me, give me another (failed = true).
struct ReleaseMessage {
    uint64_t serverId = 0;
    bool failed = false;
};

/// Query role -> tracker: the status as JSON.
struct QueryMessage {};

using TrackerMessage =
    std::variant<RegisterMessage, HeartbeatMessage, RequestMessage, ReleaseMessage, QueryMessage>;

/// The frame's code for a message.
Code codeOf(const TrackerMessage& message);

/// Parses a Register, Heartbeat, Request, Release or Query frame; throws
/// ProtocolError for any other code, a field over its limit or malformed,
/// or bytes left over.
TrackerMessage parseTrackerMessage(const Frame& frame);

/// The payload of a message (what parseTrackerMessage reads back).
std::vector<char> payloadOf(const TrackerMessage& message);

/// A server the tracker handed out (the Assign frame).
struct Assignment {
    uint64_t serverId = 0;
    std::string host;
    uint16_t port = 0;
    std::string key;
    /// The server's runtime::DeviceInfo as JSON (DeviceInfo::toJson).
    std::string deviceJson;
};

std::vector<char> assignPayload(const Assignment& assignment);
/// Reads an Assign frame; throws ProtocolError.
Assignment parseAssign(const Frame& frame);

/// Whether `key` is a valid key (1..kMaxTrackerKey printable ASCII, no space).
bool isValidTrackerKey(const std::string& key);

} // namespace tessel::rpc
