#include "rpc/TensorArena.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>

namespace tessel::rpc {

TensorArena::TensorArena(uint64_t capacity) {
    const long page = ::sysconf(_SC_PAGESIZE);
    if (page > 0) page_ = static_cast<uint64_t>(page);
    capacity_ = blockSize(capacity);
    void* p = ::mmap(nullptr, static_cast<size_t>(capacity_), PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        throw std::runtime_error("cannot reserve " + std::to_string(capacity_) + " bytes for the session's tensors: " +
                                 std::strerror(errno));
    base_ = static_cast<char*>(p);
    free_[0] = capacity_;
}

TensorArena::~TensorArena() {
    if (base_) ::munmap(base_, static_cast<size_t>(capacity_));
}

uint64_t TensorArena::blockSize(uint64_t bytes) const {
    return bytes == 0 ? page_ : (bytes + page_ - 1) / page_ * page_;
}

std::optional<uint64_t> TensorArena::allocate(uint64_t bytes) {
    if (bytes > capacity_) return std::nullopt;
    const uint64_t size = blockSize(bytes);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        if (it->second < size) continue;
        const uint64_t offset = it->first;
        const uint64_t rest = it->second - size;
        free_.erase(it);
        if (rest > 0) free_[offset + size] = rest;
        used_ += size;
        return offset;
    }
    return std::nullopt;
}

void TensorArena::release(uint64_t offset, uint64_t bytes) {
    uint64_t size = blockSize(bytes);
    // The pages go back to the system (and read as zeros when used again).
    ::madvise(base_ + offset, static_cast<size_t>(size), MADV_REMOVE);
    used_ -= size;
    auto next = free_.lower_bound(offset);
    if (next != free_.end() && offset + size == next->first) {
        size += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == offset) {
            prev->second += size;
            return;
        }
    }
    free_[offset] = size;
}

} // namespace tessel::rpc
