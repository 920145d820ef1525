// libFuzzer target: the tracker's message parser (docs/rpc.md, "Tracker
// messages"), on what a hostile peer could send once past the handshake.
//
// The first byte picks how the rest is read: as a byte stream through the
// tracker's FrameDecoder (in pieces of a size the second byte picks), or as
// one frame of a tracker code with the rest as its payload. Every frame goes
// through parseTrackerMessage and parseAssign; whatever parses must encode
// back to the very same payload (the encoding is canonical), or the target
// aborts.
#include "rpc/TrackerMessage.h"

#include <cstdlib>
#include <cstring>

using namespace tessel::rpc;

namespace {

void check(const Frame& f) {
    try {
        const TrackerMessage m = parseTrackerMessage(f);
        if (static_cast<uint16_t>(codeOf(m)) != f.code || payloadOf(m) != f.payload) std::abort();
    } catch (const ProtocolError&) {
    }
    try {
        const Assignment a = parseAssign(f);
        if (assignPayload(a) != f.payload) std::abort();
    } catch (const ProtocolError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    const uint8_t mode = data[0];
    const char* rest = reinterpret_cast<const char*>(data + 2);
    const size_t n = size - 2;
    if (mode & 1) {
        // One frame of code 40..47 (the tracker's, and two beyond).
        Frame f;
        f.code = static_cast<uint16_t>(40 + (data[1] & 7));
        f.payload.assign(rest, rest + n);
        check(f);
        return 0;
    }
    FrameDecoder decoder(kMaxTrackerFrame);
    const size_t piece = 1 + data[1];
    try {
        for (size_t at = 0; at < n; at += piece) {
            decoder.feed(rest + at, std::min(piece, n - at));
            while (auto f = decoder.next())
                check(*f);
        }
    } catch (const ProtocolError&) {
        // A bad header: the tracker closes the connection.
    }
    return 0;
}
