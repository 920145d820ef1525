// libFuzzer target: the frame decoder and the field reader. Arbitrary bytes
// are fed to a FrameDecoder in pieces whose sizes come from the input; every
// whole frame's payload is read as the session requests read theirs. Any
// ProtocolError is the expected answer to bad input; anything else (a crash,
// an allocation the limits should have stopped, a sanitizer report) is a bug.
#include "rpc/Protocol.h"

#include <cstddef>
#include <cstdint>

using namespace tessel::rpc;

namespace {

/// Reads `payload` with the field sequence of request `code`.
void readAsRequest(uint16_t code, const std::vector<char>& payload) {
    Reader r(payload);
    switch (static_cast<Code>(code)) {
    case Code::Upload: r.str(256); r.bytes(1 << 20); break;
    case Code::LoadModule: {
        r.str(256);
        const uint32_t n = r.count(kMaxArgs, 8);
        for (uint32_t i = 0; i < n; ++i) r.str(1024);
        break;
    }
    case Code::Alloc: {
        r.str(32);
        const uint32_t n = r.count(kMaxDims, 8);
        for (uint32_t i = 0; i < n; ++i) r.i64();
        break;
    }
    case Code::Run: {
        r.str(1024);
        const uint32_t n = r.count(kMaxArgs, 9);
        for (uint32_t i = 0; i < n; ++i) { r.u64(); r.u8(); }
        RunSpec::read(r);
        break;
    }
    case Code::RunModel: {
        for (int k = 0; k < 2; ++k) {
            const uint32_t n = r.count(kMaxArgs, 8);
            for (uint32_t i = 0; i < n; ++i) r.u64();
        }
        RunSpec::read(r);
        break;
    }
    case Code::Error: readError(Frame{code, payload}); return;
    default: r.str(); r.u64(); break;
    }
    r.finish();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    FrameDecoder d(1 << 16);
    const size_t piece = 1 + data[0] % 64;
    try {
        for (size_t at = 1; at < size; at += piece) {
            d.feed(reinterpret_cast<const char*>(data) + at, std::min(piece, size - at));
            while (auto f = d.next()) {
                try {
                    readAsRequest(f->code, f->payload);
                } catch (const ProtocolError&) {
                }
            }
        }
    } catch (const ProtocolError&) {
    }
    return 0;
}
