/// \file
/// Where a session keeps its tensors: one shared mapping of a sparse memory
/// file, reserved (not committed) when first needed, that the session's runner
/// process (rpc/RunnerProcess.h) sees at the same address because it is a
/// fork of the session. What a client copies in is there for the runner to
/// take, what a run writes comes back there, and a runner that crashes
/// leaves it as it was: the session's tensors outlive any runner.
///
/// Blocks are whole pages, handed out first fit; a released block's pages
/// go back to the system at once and read as zeros when handed out again.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace tessel::rpc {

class TensorArena {
public:
    /// Reserves `capacity` bytes of address space (rounded up to pages);
    /// throws std::runtime_error when it cannot.
    explicit TensorArena(uint64_t capacity);
    ~TensorArena();
    TensorArena(const TensorArena&) = delete;
    TensorArena& operator=(const TensorArena&) = delete;

    /// The offset of a zero-filled block of at least `bytes` (a page for 0),
    /// or nullopt when no free range is large enough.
    std::optional<uint64_t> allocate(uint64_t bytes);
    /// Gives back the block at `offset` of `bytes` (as allocated).
    void release(uint64_t offset, uint64_t bytes);

    char* at(uint64_t offset) const { return base_ + offset; }
    uint64_t capacity() const { return capacity_; }
    /// Bytes in blocks handed out (whole pages).
    uint64_t used() const { return used_; }
    /// `bytes` rounded up to whole pages (at least one).
    uint64_t blockSize(uint64_t bytes) const;

private:
    int fd_ = -1;
    char* base_ = nullptr;
    uint64_t capacity_ = 0;
    uint64_t page_ = 4096;
    uint64_t used_ = 0;
    std::map<uint64_t, uint64_t> free_; ///< offset -> size of each free range
};

} // namespace tessel::rpc
