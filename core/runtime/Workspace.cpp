/// \file
/// The per-thread workspace cache behind TesselWorkspaceAlloc/Free.
///
/// Each block carries its size in a 64-byte header in front of the pointer.
/// A freed block goes to the calling thread's cache (at most kMaxBlocks blocks
/// and kMaxBytes bytes; beyond that the oldest is released), and an allocation
/// takes the smallest cached block that is large enough and not more than
/// twice the request.
#include "runtime/ParallelABI.h"

#include <cstdlib>
#include <new>
#include <vector>

namespace {

constexpr uint64_t kHeader = 64;
constexpr size_t kMaxBlocks = 16;
constexpr uint64_t kMaxBytes = uint64_t(256) << 20;

struct Block {
    void* base;
    uint64_t size; // usable bytes after the header
};

struct Cache {
    std::vector<Block> blocks;
    uint64_t bytes = 0;
    ~Cache() {
        for (auto& b : blocks) std::free(b.base);
    }
};

Cache& cache() {
    thread_local Cache c;
    return c;
}

uint64_t& sizeOf(void* base) { return *static_cast<uint64_t*>(base); }

} // namespace

extern "C" void* TesselWorkspaceAlloc(uint64_t nbytes) {
    if (nbytes == 0) nbytes = 1;
    Cache& c = cache();
    size_t best = c.blocks.size();
    for (size_t i = 0; i < c.blocks.size(); ++i) {
        uint64_t s = c.blocks[i].size;
        if (s >= nbytes && s <= 2 * nbytes && (best == c.blocks.size() || s < c.blocks[best].size)) best = i;
    }
    if (best < c.blocks.size()) {
        Block b = c.blocks[best];
        c.blocks.erase(c.blocks.begin() + best);
        c.bytes -= b.size;
        return static_cast<char*>(b.base) + kHeader;
    }
    uint64_t total = (nbytes + kHeader + 63) & ~uint64_t(63);
    void* base = std::aligned_alloc(64, total);
    if (!base) return nullptr;
    sizeOf(base) = total - kHeader;
    return static_cast<char*>(base) + kHeader;
}

extern "C" void TesselWorkspaceFree(void* ptr) {
    if (!ptr) return;
    void* base = static_cast<char*>(ptr) - kHeader;
    Block b{base, sizeOf(base)};
    Cache& c = cache();
    if (b.size > kMaxBytes) {
        std::free(base);
        return;
    }
    c.blocks.push_back(b);
    c.bytes += b.size;
    while (c.blocks.size() > kMaxBlocks || c.bytes > kMaxBytes) {
        c.bytes -= c.blocks.front().size;
        std::free(c.blocks.front().base);
        c.blocks.erase(c.blocks.begin());
    }
}
