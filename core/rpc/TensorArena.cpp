#include "rpc/TensorArena.h"

#include <fcntl.h>
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
    // A sparse memory file: pages exist once written, and a hole punched in
    // it frees them and reads as zeros (not a hint that an emulator such as
    // qemu-user may ignore, as madvise is).
    fd_ = ::memfd_create("tessel-tensors", MFD_CLOEXEC);
    if (fd_ < 0 || ::ftruncate(fd_, static_cast<off_t>(capacity_)) != 0) {
        const std::string why = std::strerror(errno);
        if (fd_ >= 0) ::close(fd_);
        throw std::runtime_error("cannot make room for the session's tensors: " + why);
    }
    void* p = ::mmap(nullptr, static_cast<size_t>(capacity_), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd_, 0);
    if (p == MAP_FAILED) {
        const std::string why = std::strerror(errno);
        ::close(fd_);
        throw std::runtime_error("cannot map " + std::to_string(capacity_) + " bytes for the session's tensors: " + why);
    }
    base_ = static_cast<char*>(p);
    free_[0] = capacity_;
}

TensorArena::~TensorArena() {
    if (base_) ::munmap(base_, static_cast<size_t>(capacity_));
    if (fd_ >= 0) ::close(fd_);
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
    // The pages go back to the system and read as zeros when used again; if
    // the hole cannot be punched, the block is zeroed by hand.
    if (::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                    static_cast<off_t>(size)) != 0)
        std::memset(base_ + offset, 0, static_cast<size_t>(size));
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
